ALTER TYPE "public"."top_up_request_state" ADD VALUE 'cancelled';--> statement-breakpoint
DROP INDEX "top_up_requests_bank_reference_key_unique";--> statement-breakpoint
ALTER TABLE "top_up_requests" ADD COLUMN "approved_amount_centavos" bigint;--> statement-breakpoint
ALTER TABLE "top_up_requests" ADD COLUMN "approval_note" text;--> statement-breakpoint
CREATE INDEX "top_up_requests_decided_idx" ON "top_up_requests" USING btree ("decided_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "top_up_requests"."decided_at" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "top_up_requests_bank_reference_key_unique" ON "top_up_requests" USING btree ("bank","reference_key") WHERE "top_up_requests"."state" in ('pending', 'approved') and not "top_up_requests"."legacy_duplicate";--> statement-breakpoint
ALTER TABLE "top_up_requests" ADD CONSTRAINT "top_up_requests_approved_amount_positive" CHECK ("top_up_requests"."approved_amount_centavos" is null or "top_up_requests"."approved_amount_centavos" > 0);--> statement-breakpoint
ALTER TABLE "top_up_requests" ADD CONSTRAINT "top_up_requests_approved_amount_note" CHECK ("top_up_requests"."approved_amount_centavos" is null or "top_up_requests"."approved_amount_centavos" = "top_up_requests"."amount_centavos" or "top_up_requests"."approval_note" is not null);