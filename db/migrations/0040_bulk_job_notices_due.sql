ALTER TABLE "bulk_jobs" ADD COLUMN "paused_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "bulk_jobs" ADD COLUMN "notice_due_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "bulk_jobs_notice_due_idx" ON "bulk_jobs" USING btree ("notice_due_at") WHERE "bulk_jobs"."notice_due_at" is not null;