CREATE TYPE "public"."refusal_reason" AS ENUM('credentials_missing', 'credentials_invalid', 'not_enabled', 'rate_limited', 'ip_rate_limited', 'invalid_request', 'balance_exhausted', 'too_many_nits');--> statement-breakpoint
CREATE TABLE "ledger_open_holds" (
	"hold_id" bigint PRIMARY KEY NOT NULL
);
--> statement-breakpoint
CREATE TABLE "query_record_identifiers" (
	"record_id" bigint NOT NULL,
	"identifier" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "query_record_identifiers_pkey" PRIMARY KEY("record_id","identifier")
);
--> statement-breakpoint
CREATE TABLE "integration_activity" (
	"integration_id" integer PRIMARY KEY NOT NULL,
	"last_query_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "query_daily_rollups" (
	"day" date NOT NULL,
	"lookup" "lookup_kind" NOT NULL,
	"http_status" smallint NOT NULL,
	"queries" bigint NOT NULL,
	"charged_centavos" bigint NOT NULL,
	"response_time_ms_total" bigint NOT NULL,
	"latency_le_2ms" integer DEFAULT 0 NOT NULL,
	"latency_le_5ms" integer DEFAULT 0 NOT NULL,
	"latency_le_10ms" integer DEFAULT 0 NOT NULL,
	"latency_le_20ms" integer DEFAULT 0 NOT NULL,
	"latency_le_35ms" integer DEFAULT 0 NOT NULL,
	"latency_le_50ms" integer DEFAULT 0 NOT NULL,
	"latency_le_75ms" integer DEFAULT 0 NOT NULL,
	"latency_le_100ms" integer DEFAULT 0 NOT NULL,
	"latency_le_150ms" integer DEFAULT 0 NOT NULL,
	"latency_le_200ms" integer DEFAULT 0 NOT NULL,
	"latency_le_300ms" integer DEFAULT 0 NOT NULL,
	"latency_le_500ms" integer DEFAULT 0 NOT NULL,
	"latency_le_750ms" integer DEFAULT 0 NOT NULL,
	"latency_le_1000ms" integer DEFAULT 0 NOT NULL,
	"latency_le_1500ms" integer DEFAULT 0 NOT NULL,
	"latency_le_2000ms" integer DEFAULT 0 NOT NULL,
	"latency_le_3000ms" integer DEFAULT 0 NOT NULL,
	"latency_le_5000ms" integer DEFAULT 0 NOT NULL,
	"latency_le_7500ms" integer DEFAULT 0 NOT NULL,
	"latency_le_10000ms" integer DEFAULT 0 NOT NULL,
	"latency_le_15000ms" integer DEFAULT 0 NOT NULL,
	"latency_le_20000ms" integer DEFAULT 0 NOT NULL,
	"latency_le_30000ms" integer DEFAULT 0 NOT NULL,
	"latency_over" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "query_daily_rollups_pkey" PRIMARY KEY("day","lookup","http_status")
);
--> statement-breakpoint
CREATE TABLE "query_daily_rollups_by_integration" (
	"integration_id" integer NOT NULL,
	"day" date NOT NULL,
	"lookup" "lookup_kind" NOT NULL,
	"http_status" smallint NOT NULL,
	"queries" bigint NOT NULL,
	"charged_centavos" bigint NOT NULL,
	"response_time_ms_total" bigint NOT NULL,
	"latency_le_2ms" integer DEFAULT 0 NOT NULL,
	"latency_le_5ms" integer DEFAULT 0 NOT NULL,
	"latency_le_10ms" integer DEFAULT 0 NOT NULL,
	"latency_le_20ms" integer DEFAULT 0 NOT NULL,
	"latency_le_35ms" integer DEFAULT 0 NOT NULL,
	"latency_le_50ms" integer DEFAULT 0 NOT NULL,
	"latency_le_75ms" integer DEFAULT 0 NOT NULL,
	"latency_le_100ms" integer DEFAULT 0 NOT NULL,
	"latency_le_150ms" integer DEFAULT 0 NOT NULL,
	"latency_le_200ms" integer DEFAULT 0 NOT NULL,
	"latency_le_300ms" integer DEFAULT 0 NOT NULL,
	"latency_le_500ms" integer DEFAULT 0 NOT NULL,
	"latency_le_750ms" integer DEFAULT 0 NOT NULL,
	"latency_le_1000ms" integer DEFAULT 0 NOT NULL,
	"latency_le_1500ms" integer DEFAULT 0 NOT NULL,
	"latency_le_2000ms" integer DEFAULT 0 NOT NULL,
	"latency_le_3000ms" integer DEFAULT 0 NOT NULL,
	"latency_le_5000ms" integer DEFAULT 0 NOT NULL,
	"latency_le_7500ms" integer DEFAULT 0 NOT NULL,
	"latency_le_10000ms" integer DEFAULT 0 NOT NULL,
	"latency_le_15000ms" integer DEFAULT 0 NOT NULL,
	"latency_le_20000ms" integer DEFAULT 0 NOT NULL,
	"latency_le_30000ms" integer DEFAULT 0 NOT NULL,
	"latency_over" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "query_daily_rollups_by_integration_pkey" PRIMARY KEY("integration_id","day","lookup","http_status")
);
--> statement-breakpoint
CREATE TABLE "query_hourly_rollups" (
	"hour" timestamp with time zone NOT NULL,
	"lookup" "lookup_kind" NOT NULL,
	"http_status" smallint NOT NULL,
	"queries" bigint NOT NULL,
	"charged_centavos" bigint NOT NULL,
	"response_time_ms_total" bigint NOT NULL,
	"latency_le_2ms" integer DEFAULT 0 NOT NULL,
	"latency_le_5ms" integer DEFAULT 0 NOT NULL,
	"latency_le_10ms" integer DEFAULT 0 NOT NULL,
	"latency_le_20ms" integer DEFAULT 0 NOT NULL,
	"latency_le_35ms" integer DEFAULT 0 NOT NULL,
	"latency_le_50ms" integer DEFAULT 0 NOT NULL,
	"latency_le_75ms" integer DEFAULT 0 NOT NULL,
	"latency_le_100ms" integer DEFAULT 0 NOT NULL,
	"latency_le_150ms" integer DEFAULT 0 NOT NULL,
	"latency_le_200ms" integer DEFAULT 0 NOT NULL,
	"latency_le_300ms" integer DEFAULT 0 NOT NULL,
	"latency_le_500ms" integer DEFAULT 0 NOT NULL,
	"latency_le_750ms" integer DEFAULT 0 NOT NULL,
	"latency_le_1000ms" integer DEFAULT 0 NOT NULL,
	"latency_le_1500ms" integer DEFAULT 0 NOT NULL,
	"latency_le_2000ms" integer DEFAULT 0 NOT NULL,
	"latency_le_3000ms" integer DEFAULT 0 NOT NULL,
	"latency_le_5000ms" integer DEFAULT 0 NOT NULL,
	"latency_le_7500ms" integer DEFAULT 0 NOT NULL,
	"latency_le_10000ms" integer DEFAULT 0 NOT NULL,
	"latency_le_15000ms" integer DEFAULT 0 NOT NULL,
	"latency_le_20000ms" integer DEFAULT 0 NOT NULL,
	"latency_le_30000ms" integer DEFAULT 0 NOT NULL,
	"latency_over" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "query_hourly_rollups_pkey" PRIMARY KEY("hour","lookup","http_status")
);
--> statement-breakpoint
CREATE TABLE "query_hourly_rollups_by_integration" (
	"integration_id" integer NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"lookup" "lookup_kind" NOT NULL,
	"http_status" smallint NOT NULL,
	"queries" bigint NOT NULL,
	"charged_centavos" bigint NOT NULL,
	"response_time_ms_total" bigint NOT NULL,
	"latency_le_2ms" integer DEFAULT 0 NOT NULL,
	"latency_le_5ms" integer DEFAULT 0 NOT NULL,
	"latency_le_10ms" integer DEFAULT 0 NOT NULL,
	"latency_le_20ms" integer DEFAULT 0 NOT NULL,
	"latency_le_35ms" integer DEFAULT 0 NOT NULL,
	"latency_le_50ms" integer DEFAULT 0 NOT NULL,
	"latency_le_75ms" integer DEFAULT 0 NOT NULL,
	"latency_le_100ms" integer DEFAULT 0 NOT NULL,
	"latency_le_150ms" integer DEFAULT 0 NOT NULL,
	"latency_le_200ms" integer DEFAULT 0 NOT NULL,
	"latency_le_300ms" integer DEFAULT 0 NOT NULL,
	"latency_le_500ms" integer DEFAULT 0 NOT NULL,
	"latency_le_750ms" integer DEFAULT 0 NOT NULL,
	"latency_le_1000ms" integer DEFAULT 0 NOT NULL,
	"latency_le_1500ms" integer DEFAULT 0 NOT NULL,
	"latency_le_2000ms" integer DEFAULT 0 NOT NULL,
	"latency_le_3000ms" integer DEFAULT 0 NOT NULL,
	"latency_le_5000ms" integer DEFAULT 0 NOT NULL,
	"latency_le_7500ms" integer DEFAULT 0 NOT NULL,
	"latency_le_10000ms" integer DEFAULT 0 NOT NULL,
	"latency_le_15000ms" integer DEFAULT 0 NOT NULL,
	"latency_le_20000ms" integer DEFAULT 0 NOT NULL,
	"latency_le_30000ms" integer DEFAULT 0 NOT NULL,
	"latency_over" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "query_hourly_rollups_by_integration_pkey" PRIMARY KEY("integration_id","hour","lookup","http_status")
);
--> statement-breakpoint
CREATE TABLE "query_rollup_queue" (
	"integration_id" integer NOT NULL,
	"lookup" "lookup_kind" NOT NULL,
	"http_status" smallint NOT NULL,
	"response_time_ms" integer NOT NULL,
	"charged_centavos" bigint NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "refusal_rollups" (
	"hour" timestamp with time zone NOT NULL,
	"lookup" "lookup_kind" NOT NULL,
	"reason" "refusal_reason" NOT NULL,
	"refusals" bigint NOT NULL,
	CONSTRAINT "refusal_rollups_pkey" PRIMARY KEY("hour","lookup","reason")
);
--> statement-breakpoint
CREATE TABLE "refusal_rollups_by_integration" (
	"integration_id" integer NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"lookup" "lookup_kind" NOT NULL,
	"reason" "refusal_reason" NOT NULL,
	"refusals" bigint NOT NULL,
	CONSTRAINT "refusal_rollups_by_integration_pkey" PRIMARY KEY("integration_id","hour","lookup","reason")
);
--> statement-breakpoint
CREATE TABLE "job_leases" (
	"name" text PRIMARY KEY NOT NULL,
	"holder" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"last_started_at" timestamp with time zone NOT NULL,
	"last_finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "ledger_entries" DROP CONSTRAINT "ledger_entries_query_record_id_query_records_id_fk";
--> statement-breakpoint
DROP INDEX "ledger_entries_holds_idx";--> statement-breakpoint
DROP INDEX "query_records_nit_idx";--> statement-breakpoint
DROP INDEX "query_records_cui_idx";--> statement-breakpoint
DROP INDEX "ledger_entries_integration_created_idx";--> statement-breakpoint
DROP INDEX "query_records_created_idx";--> statement-breakpoint
DROP INDEX "query_records_integration_created_idx";--> statement-breakpoint
DROP INDEX "query_records_lookup_created_idx";--> statement-breakpoint
DROP INDEX "query_records_status_created_idx";--> statement-breakpoint
DROP INDEX "audit_log_created_idx";--> statement-breakpoint
DROP INDEX "audit_log_target_idx";--> statement-breakpoint
ALTER TABLE "ledger_open_holds" ADD CONSTRAINT "ledger_open_holds_hold_id_ledger_entries_id_fk" FOREIGN KEY ("hold_id") REFERENCES "public"."ledger_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "query_record_identifiers" ADD CONSTRAINT "query_record_identifiers_record_id_query_records_id_fk" FOREIGN KEY ("record_id") REFERENCES "public"."query_records"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "query_record_identifiers_search_idx" ON "query_record_identifiers" USING btree ("identifier","created_at","record_id");--> statement-breakpoint
CREATE INDEX "ledger_entries_integration_created_idx" ON "ledger_entries" USING btree ("integration_id","created_at","id");--> statement-breakpoint
CREATE INDEX "query_records_created_idx" ON "query_records" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "query_records_integration_created_idx" ON "query_records" USING btree ("integration_id","created_at","id");--> statement-breakpoint
CREATE INDEX "query_records_lookup_created_idx" ON "query_records" USING btree ("lookup","created_at","id");--> statement-breakpoint
CREATE INDEX "query_records_status_created_idx" ON "query_records" USING btree ("http_status","created_at","id");--> statement-breakpoint
CREATE INDEX "audit_log_created_idx" ON "audit_log" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "audit_log_target_idx" ON "audit_log" USING btree ("target_type","target_id","created_at","id");--> statement-breakpoint
-- How identifiers are stored for search: no whitespace or hyphens, upper case, no leading zeros,
-- so 576937-k, 576937K and 000576937-K, or a CUI with or without its group spaces, are one key.
-- Used by the record writers, the console's search and the backfill below: one definition.
CREATE FUNCTION normalize_tax_identifier(raw text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE RETURNS NULL ON NULL INPUT
  AS $$ SELECT nullif(ltrim(upper(regexp_replace(raw, '[[:space:]-]', '', 'g')), '0'), '') $$;
--> statement-breakpoint
-- Records written before this migration: their identifiers (an /rtu/nits batch was stored as its
-- NITs joined by commas), their rollups (the rollup job drains the queue) and unsettled holds.
INSERT INTO query_record_identifiers (record_id, identifier, created_at)
SELECT DISTINCT r.id, normalize_tax_identifier(sent.identifier), r.created_at
  FROM query_records r
 CROSS JOIN LATERAL unnest(CASE WHEN r.lookup = 'rtu_nits' THEN string_to_array(r.nit, ',') ELSE ARRAY[r.nit, r.cui] END) AS sent(identifier)
 WHERE normalize_tax_identifier(sent.identifier) IS NOT NULL;
--> statement-breakpoint
INSERT INTO query_rollup_queue (integration_id, lookup, http_status, response_time_ms, charged_centavos, created_at)
SELECT r.integration_id, r.lookup, r.http_status, r.response_time_ms, r.charged_centavos, r.created_at FROM query_records r;
--> statement-breakpoint
INSERT INTO ledger_open_holds (hold_id)
SELECT h.id
  FROM ledger_entries h
 WHERE h.kind = 'hold' AND NOT EXISTS (SELECT 1 FROM ledger_entries s WHERE s.hold_id = h.id);
