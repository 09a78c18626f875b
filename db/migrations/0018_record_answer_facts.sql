ALTER TABLE "query_records" ADD COLUMN "failure" jsonb;--> statement-breakpoint
ALTER TABLE "query_records" ADD COLUMN "answer_empty" boolean;--> statement-breakpoint
ALTER TABLE "query_records" ADD COLUMN "actualizado" boolean;--> statement-breakpoint
ALTER TABLE "query_records" ADD COLUMN "date_of_birth_sent" boolean;