CREATE TYPE "public"."online_payment_state" AS ENUM('created', 'checkout_open', 'pending_transfer', 'credited', 'declined', 'expired', 'indeterminate');--> statement-breakpoint
ALTER TYPE "public"."alert_condition" ADD VALUE 'online_top_up_credited';--> statement-breakpoint
ALTER TYPE "public"."alert_condition" ADD VALUE 'online_top_up_expired';--> statement-breakpoint
CREATE TABLE "online_payment_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "online_payment_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"online_payment_id" text NOT NULL,
	"state" "online_payment_state" NOT NULL,
	"source" text NOT NULL,
	"provider_message_id" text,
	"detail" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "online_payments" (
	"id" text PRIMARY KEY NOT NULL,
	"integration_id" integer NOT NULL,
	"started_by" integer NOT NULL,
	"amount_centavos" bigint NOT NULL,
	"fee_centavos" bigint DEFAULT 0 NOT NULL,
	"provider" text NOT NULL,
	"checkout_id" text,
	"checkout_url" text,
	"provider_payment_id" text,
	"state" "online_payment_state" DEFAULT 'created' NOT NULL,
	"detail" text,
	"ledger_entry_id" bigint,
	"expires_at" timestamp with time zone NOT NULL,
	"pending_since" timestamp with time zone,
	"settled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "online_payments_amount_positive" CHECK ("online_payments"."amount_centavos" > 0),
	CONSTRAINT "online_payments_fee_not_negative" CHECK ("online_payments"."fee_centavos" >= 0),
	CONSTRAINT "online_payments_credited_entry" CHECK (("online_payments"."state" = 'credited') = ("online_payments"."ledger_entry_id" is not null))
);
--> statement-breakpoint
ALTER TABLE "online_payment_events" ADD CONSTRAINT "online_payment_events_online_payment_id_online_payments_id_fk" FOREIGN KEY ("online_payment_id") REFERENCES "public"."online_payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "online_payments" ADD CONSTRAINT "online_payments_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "online_payments" ADD CONSTRAINT "online_payments_started_by_portal_users_id_fk" FOREIGN KEY ("started_by") REFERENCES "public"."portal_users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "online_payments" ADD CONSTRAINT "online_payments_ledger_entry_id_ledger_entries_id_fk" FOREIGN KEY ("ledger_entry_id") REFERENCES "public"."ledger_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "online_payment_events_payment_idx" ON "online_payment_events" USING btree ("online_payment_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "online_payments_provider_payment_unique" ON "online_payments" USING btree ("provider","provider_payment_id") WHERE "online_payments"."provider_payment_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "online_payments_provider_checkout_unique" ON "online_payments" USING btree ("provider","checkout_id") WHERE "online_payments"."checkout_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "online_payments_ledger_entry_unique" ON "online_payments" USING btree ("ledger_entry_id") WHERE "online_payments"."ledger_entry_id" is not null;--> statement-breakpoint
CREATE INDEX "online_payments_open_idx" ON "online_payments" USING btree ("created_at") WHERE "online_payments"."state" in ('checkout_open', 'pending_transfer', 'indeterminate', 'declined');--> statement-breakpoint
CREATE INDEX "online_payments_integration_idx" ON "online_payments" USING btree ("integration_id","created_at" DESC NULLS LAST);