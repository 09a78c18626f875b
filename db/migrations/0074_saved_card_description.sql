ALTER TABLE "online_payments" ADD COLUMN "card_network" text;--> statement-breakpoint
ALTER TABLE "online_payments" ADD COLUMN "card_last4" text;--> statement-breakpoint
ALTER TABLE "auto_top_ups" ADD COLUMN "card_network" text;--> statement-breakpoint
ALTER TABLE "auto_top_ups" ADD COLUMN "card_last4" text;