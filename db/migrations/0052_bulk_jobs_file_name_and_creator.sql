ALTER TABLE "bulk_jobs" ADD COLUMN "file_name" text;--> statement-breakpoint
ALTER TABLE "bulk_jobs" ADD COLUMN "created_by_portal_user_id" integer;--> statement-breakpoint
ALTER TABLE "bulk_jobs" ADD CONSTRAINT "bulk_jobs_created_by_portal_user_id_portal_users_id_fk" FOREIGN KEY ("created_by_portal_user_id") REFERENCES "public"."portal_users"("id") ON DELETE set null ON UPDATE no action;