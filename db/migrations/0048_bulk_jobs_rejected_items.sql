ALTER TABLE "bulk_jobs" ADD COLUMN "rejected_items" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- The jobs that exist, from their items; from here on each answer moves it.
UPDATE "bulk_jobs" j SET "rejected_items" = c.rejected
FROM (
	SELECT job_id, count(*) AS rejected
	  FROM "bulk_job_items" WHERE status = 'invalido' AND reason = 'rechazado_por_la_fuente' GROUP BY job_id
) c
WHERE c.job_id = j.id;
