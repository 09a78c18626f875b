-- Statements already issued get their integration's numbers in the order they were issued.
ALTER TABLE "monthly_statements" ADD COLUMN "number" integer;--> statement-breakpoint
UPDATE "monthly_statements" AS s SET "number" = n.number
  FROM (SELECT id, row_number() OVER (PARTITION BY integration_id ORDER BY id) AS number FROM "monthly_statements") AS n
 WHERE n.id = s.id;--> statement-breakpoint
ALTER TABLE "monthly_statements" ALTER COLUMN "number" SET NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "monthly_statements_integration_number_unique" ON "monthly_statements" USING btree ("integration_id","number");
