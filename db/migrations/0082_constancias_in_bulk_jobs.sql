ALTER TABLE "bulk_job_items" ADD COLUMN "constancia_id" text;--> statement-breakpoint
ALTER TABLE "bulk_jobs" ADD COLUMN "constancias" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "watch_lists" ADD COLUMN "constancias" boolean DEFAULT false NOT NULL;