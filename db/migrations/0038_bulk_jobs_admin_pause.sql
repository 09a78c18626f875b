ALTER TYPE "public"."bulk_job_state" ADD VALUE 'en_pausa' BEFORE 'completado';--> statement-breakpoint
CREATE INDEX "bulk_jobs_created_idx" ON "bulk_jobs" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "bulk_jobs_integration_created_idx" ON "bulk_jobs" USING btree ("integration_id","created_at","id");--> statement-breakpoint
CREATE INDEX "bulk_jobs_state_created_idx" ON "bulk_jobs" USING btree ("state","created_at","id");