ALTER TYPE "public"."invoice_reversal_standing" ADD VALUE 'correction_pending';--> statement-breakpoint
ALTER TYPE "public"."invoice_reversal_standing" ADD VALUE 'corrected';--> statement-breakpoint
DROP INDEX "invoice_reversals_one_live";--> statement-breakpoint
DROP INDEX "invoices_ledger_entry_unique";--> statement-breakpoint
ALTER TABLE "invoice_reversals" ALTER COLUMN "ledger_entry_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "invoice_reversals" ADD COLUMN "correction_receptor_kind" "invoice_receptor_kind";--> statement-breakpoint
ALTER TABLE "invoice_reversals" ADD COLUMN "correction_receptor_id" text;--> statement-breakpoint
ALTER TABLE "invoice_reversals" ADD COLUMN "correction_receptor_name" text;--> statement-breakpoint
ALTER TABLE "invoice_reversals" ADD COLUMN "replacement_invoice_id" integer;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "corrects_invoice_id" integer;--> statement-breakpoint
ALTER TABLE "invoice_reversals" ADD CONSTRAINT "invoice_reversals_replacement_invoice_id_invoices_id_fk" FOREIGN KEY ("replacement_invoice_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_corrects_invoice_id_invoices_id_fk" FOREIGN KEY ("corrects_invoice_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_corrects_unique" ON "invoices" USING btree ("corrects_invoice_id") WHERE "invoices"."corrects_invoice_id" is not null;--> statement-breakpoint
CREATE INDEX "invoices_ledger_entry_idx" ON "invoices" USING btree ("ledger_entry_id");--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_reversals_one_live" ON "invoice_reversals" USING btree ("invoice_id") WHERE "invoice_reversals"."state" <> 'refused' and ("invoice_reversals"."returns_on_refusal" or "invoice_reversals"."correction_receptor_kind" is not null);--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_ledger_entry_unique" ON "invoices" USING btree ("ledger_entry_id") WHERE "invoices"."corrects_invoice_id" is null;--> statement-breakpoint
ALTER TABLE "invoice_reversals" ADD CONSTRAINT "invoice_reversals_entry_or_correction" CHECK (("invoice_reversals"."ledger_entry_id" is null) = ("invoice_reversals"."correction_receptor_kind" is not null));--> statement-breakpoint
ALTER TABLE "invoice_reversals" ADD CONSTRAINT "invoice_reversals_correction_named" CHECK ("invoice_reversals"."correction_receptor_kind" is null or ("invoice_reversals"."correction_receptor_id" is not null and ("invoice_reversals"."correction_receptor_kind" = 'cf') = ("invoice_reversals"."correction_receptor_name" is null)));