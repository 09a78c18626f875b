ALTER TYPE "public"."alert_condition" ADD VALUE 'bulk_job_finished';--> statement-breakpoint
ALTER TYPE "public"."alert_condition" ADD VALUE 'bulk_job_paused';--> statement-breakpoint
ALTER TABLE "bulk_jobs" ADD COLUMN "retry_of" integer;--> statement-breakpoint
ALTER TABLE "bulk_jobs" ADD CONSTRAINT "bulk_jobs_retry_of_bulk_jobs_id_fk" FOREIGN KEY ("retry_of") REFERENCES "public"."bulk_jobs"("id") ON DELETE set null ON UPDATE no action;