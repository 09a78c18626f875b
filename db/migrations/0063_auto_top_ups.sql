CREATE TYPE "public"."auto_top_up_charge_state" AS ENUM('in_flight', 'credited', 'failed');--> statement-breakpoint
CREATE TYPE "public"."auto_top_up_state" AS ENUM('active', 'paused', 'off');--> statement-breakpoint
ALTER TYPE "public"."alert_condition" ADD VALUE 'auto_top_up_paused';--> statement-breakpoint
CREATE TABLE "auto_top_up_charges" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "auto_top_up_charges_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"integration_id" integer NOT NULL,
	"online_payment_id" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"attempt" smallint NOT NULL,
	"state" "auto_top_up_charge_state" DEFAULT 'in_flight' NOT NULL,
	"detail" text,
	"settled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "auto_top_up_charges_attempt_range" CHECK ("auto_top_up_charges"."attempt" in (1, 2))
);
--> statement-breakpoint
CREATE TABLE "auto_top_ups" (
	"integration_id" integer PRIMARY KEY NOT NULL,
	"state" "auto_top_up_state" NOT NULL,
	"payment_method_id" text NOT NULL,
	"source_payment_id" text NOT NULL,
	"threshold_centavos" bigint NOT NULL,
	"amount_centavos" bigint NOT NULL,
	"daily_max" smallint NOT NULL,
	"paused_reason" text,
	"paused_at" timestamp with time zone,
	"configured_by" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "auto_top_ups_amounts_positive" CHECK ("auto_top_ups"."threshold_centavos" > 0 and "auto_top_ups"."amount_centavos" > 0),
	CONSTRAINT "auto_top_ups_daily_max_range" CHECK ("auto_top_ups"."daily_max" between 1 and 20)
);
--> statement-breakpoint
ALTER TABLE "auto_top_up_charges" ADD CONSTRAINT "auto_top_up_charges_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auto_top_up_charges" ADD CONSTRAINT "auto_top_up_charges_online_payment_id_online_payments_id_fk" FOREIGN KEY ("online_payment_id") REFERENCES "public"."online_payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auto_top_ups" ADD CONSTRAINT "auto_top_ups_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auto_top_ups" ADD CONSTRAINT "auto_top_ups_source_payment_id_online_payments_id_fk" FOREIGN KEY ("source_payment_id") REFERENCES "public"."online_payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auto_top_ups" ADD CONSTRAINT "auto_top_ups_configured_by_portal_users_id_fk" FOREIGN KEY ("configured_by") REFERENCES "public"."portal_users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "auto_top_up_charges_in_flight_unique" ON "auto_top_up_charges" USING btree ("integration_id") WHERE "auto_top_up_charges"."state" = 'in_flight';--> statement-breakpoint
CREATE UNIQUE INDEX "auto_top_up_charges_key_unique" ON "auto_top_up_charges" USING btree ("idempotency_key");--> statement-breakpoint
CREATE UNIQUE INDEX "auto_top_up_charges_payment_unique" ON "auto_top_up_charges" USING btree ("online_payment_id");--> statement-breakpoint
CREATE INDEX "auto_top_up_charges_integration_idx" ON "auto_top_up_charges" USING btree ("integration_id","created_at" DESC NULLS LAST);