ALTER TYPE "public"."sign_in_throttle_scope" ADD VALUE 'password_change_ip';--> statement-breakpoint
ALTER TYPE "public"."sign_in_throttle_scope" ADD VALUE 'password_change_account';--> statement-breakpoint
CREATE INDEX "audit_log_action_idx" ON "audit_log" USING btree ("action","created_at","id");