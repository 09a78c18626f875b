ALTER TYPE "public"."alert_condition" ADD VALUE 'statement_issued';--> statement-breakpoint
ALTER TYPE "public"."alert_condition" ADD VALUE 'token_expiring';--> statement-breakpoint
ALTER TYPE "public"."alert_condition" ADD VALUE 'token_revoked';--> statement-breakpoint
ALTER TYPE "public"."alert_condition" ADD VALUE 'source_unavailable';--> statement-breakpoint
ALTER TYPE "public"."alert_condition" ADD VALUE 'source_recovered';--> statement-breakpoint
CREATE TABLE "integration_notification_opt_outs" (
	"integration_id" integer NOT NULL,
	"recipient" text NOT NULL,
	"kind" "alert_condition" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "integration_notification_opt_outs_integration_id_recipient_kind_pk" PRIMARY KEY("integration_id","recipient","kind"),
	CONSTRAINT "integration_notification_opt_outs_recipient_check" CHECK ("integration_notification_opt_outs"."recipient" in ('technical', 'billing', 'webhook'))
);
--> statement-breakpoint
ALTER TABLE "integrations" ADD COLUMN "notification_webhook_url" text;--> statement-breakpoint
ALTER TABLE "integrations" ADD COLUMN "notification_webhook_secret_sealed" text;--> statement-breakpoint
ALTER TABLE "alert_deliveries" ADD COLUMN "audience" text DEFAULT 'administrators' NOT NULL;--> statement-breakpoint
ALTER TABLE "alert_deliveries" ADD COLUMN "recipient" text;--> statement-breakpoint
ALTER TABLE "integration_notification_opt_outs" ADD CONSTRAINT "integration_notification_opt_outs_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alert_deliveries_integrator_idx" ON "alert_deliveries" USING btree ("integration_id","created_at","id") WHERE "alert_deliveries"."audience" = 'integrator';--> statement-breakpoint
ALTER TABLE "integrations" ADD CONSTRAINT "integrations_notification_webhook_has_secret" CHECK (("integrations"."notification_webhook_url" is null) = ("integrations"."notification_webhook_secret_sealed" is null));--> statement-breakpoint
ALTER TABLE "alert_deliveries" ADD CONSTRAINT "alert_deliveries_audience_check" CHECK ("alert_deliveries"."audience" in ('administrators', 'integrator'));--> statement-breakpoint
ALTER TABLE "alert_deliveries" ADD CONSTRAINT "alert_deliveries_recipient_check" CHECK (("alert_deliveries"."audience" = 'administrators' and "alert_deliveries"."recipient" is null) or ("alert_deliveries"."audience" = 'integrator' and "alert_deliveries"."recipient" in ('technical', 'billing', 'webhook') and "alert_deliveries"."integration_id" is not null));