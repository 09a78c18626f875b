ALTER TYPE "public"."sign_in_throttle_scope" ADD VALUE 'known_device';--> statement-breakpoint
ALTER TYPE "public"."alert_condition" ADD VALUE 'account_under_attack';--> statement-breakpoint
ALTER TABLE "alert_deliveries" DROP CONSTRAINT "alert_deliveries_audience_check";--> statement-breakpoint
ALTER TABLE "alert_deliveries" DROP CONSTRAINT "alert_deliveries_recipient_check";--> statement-breakpoint
ALTER TABLE "sign_in_throttles" ADD COLUMN "next_attempt_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sign_in_throttles" ADD COLUMN "last_attempt_id" text;--> statement-breakpoint
ALTER TABLE "alert_deliveries" ADD CONSTRAINT "alert_deliveries_audience_check" CHECK ("alert_deliveries"."audience" in ('administrators', 'integrator', 'console_user'));--> statement-breakpoint
ALTER TABLE "alert_deliveries" ADD CONSTRAINT "alert_deliveries_recipient_check" CHECK (("alert_deliveries"."audience" = 'administrators' and "alert_deliveries"."recipient" is null) or ("alert_deliveries"."audience" = 'integrator' and "alert_deliveries"."recipient" in ('technical', 'billing', 'webhook') and "alert_deliveries"."integration_id" is not null) or ("alert_deliveries"."audience" = 'console_user' and "alert_deliveries"."recipient" is null and "alert_deliveries"."integration_id" is null));