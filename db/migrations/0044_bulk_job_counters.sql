ALTER TABLE "bulk_jobs" ADD COLUMN "found_items" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "bulk_jobs" ADD COLUMN "not_found_items" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "bulk_jobs" ADD COLUMN "invalid_items" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "bulk_jobs" ADD COLUMN "duplicate_items" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "bulk_jobs" ADD COLUMN "failed_items" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "bulk_jobs" ADD COLUMN "charged_centavos" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "bulk_job_items_answered_idx" ON "bulk_job_items" USING btree ("job_id","answered_at") WHERE "bulk_job_items"."request_id" is not null;--> statement-breakpoint
-- The counters of the jobs that exist, from their items; from here on each answer moves them.
UPDATE "bulk_jobs" j SET
	"found_items" = c.found,
	"not_found_items" = c.not_found,
	"invalid_items" = c.invalid,
	"duplicate_items" = c.duplicates,
	"failed_items" = c.failed,
	"charged_centavos" = c.charged
FROM (
	SELECT job_id,
	       count(*) FILTER (WHERE status = 'encontrado') AS found,
	       count(*) FILTER (WHERE status = 'no_encontrado') AS not_found,
	       count(*) FILTER (WHERE status = 'invalido') AS invalid,
	       count(*) FILTER (WHERE status = 'invalido' AND reason = 'duplicado') AS duplicates,
	       count(*) FILTER (WHERE status = 'error_fuente') AS failed,
	       coalesce(sum(charged_centavos), 0) AS charged
	  FROM "bulk_job_items" GROUP BY job_id
) c
WHERE c.job_id = j.id;
