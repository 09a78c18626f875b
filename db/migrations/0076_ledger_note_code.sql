CREATE TYPE "public"."ledger_note_code" AS ENUM('source_not_sent', 'hold_abandoned', 'hold_swept');--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD COLUMN "note_code" "ledger_note_code";