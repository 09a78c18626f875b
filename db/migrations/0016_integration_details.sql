ALTER TABLE "integrations" ADD COLUMN "legal_name" text;--> statement-breakpoint
ALTER TABLE "integrations" ADD COLUMN "nit" text;--> statement-breakpoint
ALTER TABLE "integrations" ADD COLUMN "technical_contact_name" text;--> statement-breakpoint
ALTER TABLE "integrations" ADD COLUMN "technical_contact_email" text;--> statement-breakpoint
ALTER TABLE "integrations" ADD COLUMN "technical_contact_phone" text;--> statement-breakpoint
ALTER TABLE "integrations" ADD COLUMN "billing_contact_name" text;--> statement-breakpoint
ALTER TABLE "integrations" ADD COLUMN "billing_contact_email" text;--> statement-breakpoint
ALTER TABLE "integrations" ADD COLUMN "billing_contact_phone" text;