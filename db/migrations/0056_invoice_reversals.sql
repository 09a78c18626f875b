CREATE TYPE "public"."invoice_reversal_kind" AS ENUM('void', 'credit_note');--> statement-breakpoint
CREATE TYPE "public"."invoice_reversal_state" AS ENUM('pending', 'indeterminate', 'done', 'refused');--> statement-breakpoint
CREATE TABLE "invoice_reversals" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "invoice_reversals_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"invoice_id" integer NOT NULL,
	"integration_id" integer NOT NULL,
	"kind" "invoice_reversal_kind" NOT NULL,
	"identifier" text DEFAULT gen_random_uuid()::text NOT NULL,
	"reason" text NOT NULL,
	"requested_at" timestamp with time zone NOT NULL,
	"amount_centavos" bigint NOT NULL,
	"ledger_entry_id" bigint NOT NULL,
	"refund_entry_id" bigint,
	"requested_by" text NOT NULL,
	"state" "invoice_reversal_state" DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lease_holder" text,
	"lease_until" timestamp with time zone,
	"certifier" text,
	"uuid" text,
	"serie" text,
	"numero" text,
	"certified_xml" text,
	"done_at" timestamp with time zone,
	"last_error_code" text,
	"last_error_message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoice_reversals_amount_positive" CHECK ("invoice_reversals"."amount_centavos" > 0),
	CONSTRAINT "invoice_reversals_done_note_numbered" CHECK ("invoice_reversals"."kind" <> 'credit_note' or "invoice_reversals"."state" <> 'done' or "invoice_reversals"."uuid" is not null)
);
--> statement-breakpoint
ALTER TABLE "invoice_reversals" ADD CONSTRAINT "invoice_reversals_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_reversals" ADD CONSTRAINT "invoice_reversals_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_reversals" ADD CONSTRAINT "invoice_reversals_ledger_entry_id_ledger_entries_id_fk" FOREIGN KEY ("ledger_entry_id") REFERENCES "public"."ledger_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_reversals" ADD CONSTRAINT "invoice_reversals_refund_entry_id_ledger_entries_id_fk" FOREIGN KEY ("refund_entry_id") REFERENCES "public"."ledger_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_reversals_identifier_unique" ON "invoice_reversals" USING btree ("identifier");--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_reversals_ledger_entry_unique" ON "invoice_reversals" USING btree ("ledger_entry_id");--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_reversals_refund_entry_unique" ON "invoice_reversals" USING btree ("refund_entry_id") WHERE "invoice_reversals"."refund_entry_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_reversals_one_live" ON "invoice_reversals" USING btree ("invoice_id") WHERE "invoice_reversals"."state" <> 'refused';--> statement-breakpoint
CREATE INDEX "invoice_reversals_due_idx" ON "invoice_reversals" USING btree ("next_attempt_at","id") WHERE "invoice_reversals"."state" in ('pending', 'indeterminate');