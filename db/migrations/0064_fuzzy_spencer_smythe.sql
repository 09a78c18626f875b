ALTER TYPE "public"."invoice_reversal_state" ADD VALUE 'to_correct';--> statement-breakpoint
ALTER TABLE "invoice_reversals" ADD COLUMN "returns_on_refusal" boolean DEFAULT true NOT NULL;