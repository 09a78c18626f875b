CREATE TYPE "public"."invoice_reversal_standing" AS ENUM('void_pending', 'voided', 'credit_note_pending', 'credited');--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "reversal" "invoice_reversal_standing";--> statement-breakpoint
CREATE INDEX "invoices_reversal_created_idx" ON "invoices" USING btree ("reversal","created_at","id") WHERE "invoices"."reversal" is not null;--> statement-breakpoint
-- The invoices already voided or credited, from their live reversal; from here on the statements that write one move it.
UPDATE "invoices" i SET "reversal" = (CASE
	WHEN r.kind = 'void' AND r.state = 'done' THEN 'voided'
	WHEN r.kind = 'void' THEN 'void_pending'
	WHEN r.state = 'done' THEN 'credited'
	ELSE 'credit_note_pending'
END)::invoice_reversal_standing
FROM "invoice_reversals" r WHERE r.invoice_id = i.id AND r.state <> 'refused';
