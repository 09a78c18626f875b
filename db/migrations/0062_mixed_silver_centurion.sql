CREATE TYPE "public"."online_payment_refund_state" AS ENUM('requested', 'done', 'failed', 'indeterminate');--> statement-breakpoint
CREATE TABLE "online_payment_refunds" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "online_payment_refunds_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"online_payment_id" text NOT NULL,
	"integration_id" integer NOT NULL,
	"amount_centavos" bigint NOT NULL,
	"state" "online_payment_refund_state" DEFAULT 'requested' NOT NULL,
	"reason" text NOT NULL,
	"requested_by" text NOT NULL,
	"provider_refund_id" text,
	"detail" text,
	"ledger_entry_id" bigint NOT NULL,
	"returned_entry_id" bigint,
	"invoice_reversal_id" integer,
	"settled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "online_payment_refunds_amount_positive" CHECK ("online_payment_refunds"."amount_centavos" > 0)
);
--> statement-breakpoint
ALTER TABLE "online_payment_refunds" ADD CONSTRAINT "online_payment_refunds_online_payment_id_online_payments_id_fk" FOREIGN KEY ("online_payment_id") REFERENCES "public"."online_payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "online_payment_refunds" ADD CONSTRAINT "online_payment_refunds_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "online_payment_refunds" ADD CONSTRAINT "online_payment_refunds_ledger_entry_id_ledger_entries_id_fk" FOREIGN KEY ("ledger_entry_id") REFERENCES "public"."ledger_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "online_payment_refunds" ADD CONSTRAINT "online_payment_refunds_returned_entry_id_ledger_entries_id_fk" FOREIGN KEY ("returned_entry_id") REFERENCES "public"."ledger_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "online_payment_refunds_payment_unique" ON "online_payment_refunds" USING btree ("online_payment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "online_payment_refunds_ledger_entry_unique" ON "online_payment_refunds" USING btree ("ledger_entry_id");--> statement-breakpoint
CREATE UNIQUE INDEX "online_payment_refunds_returned_entry_unique" ON "online_payment_refunds" USING btree ("returned_entry_id") WHERE "online_payment_refunds"."returned_entry_id" is not null;