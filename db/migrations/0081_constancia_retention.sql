ALTER TABLE "integrations" ADD COLUMN "constancia_retention_years" smallint DEFAULT 5 NOT NULL;--> statement-breakpoint
ALTER TABLE "integrations" ADD COLUMN "constancias_legal_hold" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "integrations" ADD CONSTRAINT "integrations_constancia_retention_years" CHECK ("integrations"."constancia_retention_years" between 5 and 15);