CREATE TYPE "public"."console_user_origin" AS ENUM('local', 'identity_provider');--> statement-breakpoint
ALTER TABLE "console_users" ADD COLUMN "origin" "console_user_origin" DEFAULT 'local' NOT NULL;--> statement-breakpoint
ALTER TABLE "console_users" ADD COLUMN "identity_provider_subject" text;--> statement-breakpoint
ALTER TABLE "console_users" ADD COLUMN "last_sign_in_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "console_sessions" ADD COLUMN "via_identity_provider" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "console_sessions" ADD COLUMN "identity_provider_sid" text;--> statement-breakpoint
ALTER TABLE "portal_sessions" ADD COLUMN "via_identity_provider" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "portal_sessions" ADD COLUMN "identity_provider_sid" text;--> statement-breakpoint
CREATE UNIQUE INDEX "console_users_identity_provider_subject_unique" ON "console_users" USING btree ("identity_provider_subject");--> statement-breakpoint
-- Each user's last sign-in, from the audit log's record of it, so the users page has it from the start.
UPDATE "console_users" SET "last_sign_in_at" = (SELECT max("created_at") FROM "audit_log" WHERE "action" = 'user.sign_in' AND "target_type" = 'console_user' AND "target_id" = "console_users"."id"::text);
