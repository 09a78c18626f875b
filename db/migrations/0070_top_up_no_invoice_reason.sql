ALTER TABLE "ledger_entries" ADD COLUMN "no_invoice_reason" text;--> statement-breakpoint
-- Top-ups credited before this column, without an invoice row, were credited while the service did
-- not invoice (FEL off, or before invoices existed): said so, so the books check finds none unexplained.
UPDATE "ledger_entries" SET "no_invoice_reason" = 'invoicing_off'
 WHERE "kind" = 'top_up' AND NOT EXISTS (SELECT 1 FROM "invoices" i WHERE i."ledger_entry_id" = "ledger_entries"."id");
