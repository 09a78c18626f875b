DROP INDEX "online_payment_refunds_payment_unique";--> statement-breakpoint
DROP INDEX "invoice_reversals_one_live";--> statement-breakpoint
ALTER TABLE "online_payment_refunds" ADD COLUMN "whole" boolean DEFAULT true NOT NULL;--> statement-breakpoint
CREATE INDEX "invoice_reversals_invoice_idx" ON "invoice_reversals" USING btree ("invoice_id","id");--> statement-breakpoint
CREATE INDEX "online_payment_refunds_payment_idx" ON "online_payment_refunds" USING btree ("online_payment_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "online_payment_refunds_one_open" ON "online_payment_refunds" USING btree ("online_payment_id") WHERE "online_payment_refunds"."state" in ('requested', 'indeterminate');--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_reversals_one_live" ON "invoice_reversals" USING btree ("invoice_id") WHERE "invoice_reversals"."state" <> 'refused' and "invoice_reversals"."returns_on_refusal";