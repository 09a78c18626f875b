ALTER TABLE "console_sessions" ADD COLUMN "identity_provider_refresh_token" text;--> statement-breakpoint
ALTER TABLE "console_sessions" ADD COLUMN "identity_provider_checked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "portal_sessions" ADD COLUMN "identity_provider_refresh_token" text;--> statement-breakpoint
ALTER TABLE "portal_sessions" ADD COLUMN "identity_provider_checked_at" timestamp with time zone;