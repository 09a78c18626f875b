ALTER TYPE "public"."ledger_entry_kind" ADD VALUE 'constancia';--> statement-breakpoint
DROP INDEX "ledger_entries_posted_idx";--> statement-breakpoint
ALTER TABLE "integrations" ADD COLUMN "constancia_tariff_centavos" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "ledger_entries_posted_idx" ON "ledger_entries" USING btree ("integration_id","created_at","id","posted_centavos") WHERE "ledger_entries"."kind" not in ('hold', 'void');--> statement-breakpoint
ALTER TABLE "integrations" ADD CONSTRAINT "integrations_constancia_tariff_non_negative" CHECK ("integrations"."constancia_tariff_centavos" >= 0);