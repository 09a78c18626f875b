ALTER TYPE "public"."alert_condition" ADD VALUE 'invoice_awaiting_receptor';--> statement-breakpoint
ALTER TYPE "public"."invoice_state" ADD VALUE 'awaiting_receptor';