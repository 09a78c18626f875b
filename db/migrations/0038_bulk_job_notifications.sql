ALTER TYPE "public"."alert_condition" ADD VALUE 'bulk_job_finished';--> statement-breakpoint
ALTER TYPE "public"."alert_condition" ADD VALUE 'bulk_job_paused';