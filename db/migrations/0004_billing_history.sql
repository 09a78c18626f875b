CREATE TABLE "ledger_hourly_balances" (
	"integration_id" integer NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"posted_centavos" bigint NOT NULL,
	"closing_centavos" bigint NOT NULL,
	CONSTRAINT "ledger_hourly_balances_pkey" PRIMARY KEY("integration_id","hour")
);
--> statement-breakpoint
CREATE TABLE "job_watermarks" (
	"name" text PRIMARY KEY NOT NULL,
	"through" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_verifications" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ledger_verifications_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"scope" text NOT NULL,
	"trigger" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone NOT NULL,
	"integrations_checked" integer NOT NULL,
	"ok" boolean NOT NULL,
	"differences" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "monthly_statements" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "monthly_statements_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"integration_id" integer NOT NULL,
	"month" text NOT NULL,
	"figures" jsonb NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "monthly_statements_month_format" CHECK ("monthly_statements"."month" ~ '^[0-9]{4}-(0[1-9]|1[0-2])$')
);
--> statement-breakpoint
DROP INDEX "ledger_entries_integration_created_idx";--> statement-breakpoint
-- Existing entries get the money they posted (ledger-entries.ts): a top-up or an adjustment its
-- amount, a capture minus its hold's amount, holds and voids nothing. Then the column has no
-- default: every writer says what it posts.
ALTER TABLE "ledger_entries" ADD COLUMN "posted_centavos" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "ledger_entries" SET "posted_centavos" = "amount_centavos" WHERE "kind" IN ('top_up', 'adjustment');--> statement-breakpoint
UPDATE "ledger_entries" c SET "posted_centavos" = h."amount_centavos" FROM "ledger_entries" h WHERE c."kind" = 'capture' AND h."id" = c."hold_id";--> statement-breakpoint
ALTER TABLE "ledger_entries" ALTER COLUMN "posted_centavos" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD COLUMN "audit_id" bigint;--> statement-breakpoint
-- Top-ups and adjustments made before this migration: their audit row was written in the same
-- transaction (the same now()) for the same integration.
UPDATE "ledger_entries" e SET "audit_id" = (
  SELECT a."id" FROM "audit_log" a
   WHERE a."target_type" = 'integration' AND a."target_id" = e."integration_id"::text AND a."created_at" = e."created_at"
     AND a."action" IN ('balance.top_up', 'balance.adjust', 'integration.create')
   ORDER BY a."id" LIMIT 1)
 WHERE e."kind" IN ('top_up', 'adjustment');--> statement-breakpoint
ALTER TABLE "monthly_statements" ADD CONSTRAINT "monthly_statements_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ledger_verifications_started_idx" ON "ledger_verifications" USING btree ("started_at");--> statement-breakpoint
CREATE UNIQUE INDEX "monthly_statements_integration_month_unique" ON "monthly_statements" USING btree ("integration_id","month");--> statement-breakpoint
CREATE INDEX "ledger_entries_posted_idx" ON "ledger_entries" USING btree ("integration_id","created_at","id","posted_centavos") WHERE "ledger_entries"."kind" in ('top_up', 'adjustment', 'capture');--> statement-breakpoint
CREATE INDEX "ledger_entries_kind_idx" ON "ledger_entries" USING btree ("integration_id","kind","created_at","id");