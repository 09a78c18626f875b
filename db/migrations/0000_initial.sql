CREATE TYPE "public"."ledger_entry_kind" AS ENUM('top_up', 'adjustment', 'hold', 'capture', 'void');--> statement-breakpoint
CREATE TYPE "public"."lookup_kind" AS ENUM('renap', 'rtu_nits', 'cui_nit', 'rtu', 'omisos');--> statement-breakpoint
CREATE TYPE "public"."console_role" AS ENUM('admin', 'support');--> statement-breakpoint
CREATE TABLE "integrations" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "integrations_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"nombre" text NOT NULL,
	"token_hash" text NOT NULL,
	"token_prefix" text NOT NULL,
	"is_renap_enabled" boolean DEFAULT false NOT NULL,
	"is_rtu_enabled" boolean DEFAULT false NOT NULL,
	"is_cui_nit_enabled" boolean DEFAULT false NOT NULL,
	"is_rtu_v2_enabled" boolean DEFAULT false NOT NULL,
	"is_omisos_enabled" boolean DEFAULT false NOT NULL,
	"tariff_centavos" bigint DEFAULT 0 NOT NULL,
	"balance_centavos" bigint DEFAULT 0 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "integrations_balance_non_negative" CHECK ("integrations"."balance_centavos" >= 0),
	CONSTRAINT "integrations_tariff_non_negative" CHECK ("integrations"."tariff_centavos" >= 0)
);
--> statement-breakpoint
CREATE TABLE "ledger_entries" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ledger_entries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"integration_id" integer NOT NULL,
	"kind" "ledger_entry_kind" NOT NULL,
	"amount_centavos" bigint NOT NULL,
	"actor" text NOT NULL,
	"note" text,
	"hold_id" bigint,
	"request_id" text,
	"query_record_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "query_records" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "query_records_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"integration_id" integer NOT NULL,
	"lookup" "lookup_kind" NOT NULL,
	"http_status" smallint NOT NULL,
	"response_time_ms" integer NOT NULL,
	"nit" text,
	"cui" text,
	"charged_centavos" bigint DEFAULT 0 NOT NULL,
	"tariff_centavos" bigint,
	"error_message" text,
	"request_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "query_records_request_id_unique" UNIQUE("request_id")
);
--> statement-breakpoint
CREATE TABLE "console_users" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "console_users_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"email" text NOT NULL,
	"name" text NOT NULL,
	"password_hash" text NOT NULL,
	"role" "console_role" NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"password_changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "audit_log_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"actor" text NOT NULL,
	"action" text NOT NULL,
	"target_type" text NOT NULL,
	"target_id" text NOT NULL,
	"before" jsonb,
	"after" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_hold_id_ledger_entries_id_fk" FOREIGN KEY ("hold_id") REFERENCES "public"."ledger_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_query_record_id_query_records_id_fk" FOREIGN KEY ("query_record_id") REFERENCES "public"."query_records"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "query_records" ADD CONSTRAINT "query_records_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "integrations_nombre_lower_unique" ON "integrations" USING btree (lower("nombre"));--> statement-breakpoint
CREATE INDEX "ledger_entries_integration_created_idx" ON "ledger_entries" USING btree ("integration_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_entries_hold_settled_once" ON "ledger_entries" USING btree ("hold_id") WHERE "ledger_entries"."hold_id" is not null;--> statement-breakpoint
CREATE INDEX "ledger_entries_holds_idx" ON "ledger_entries" USING btree ("created_at") WHERE "ledger_entries"."kind" = 'hold';--> statement-breakpoint
CREATE INDEX "query_records_created_idx" ON "query_records" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "query_records_integration_created_idx" ON "query_records" USING btree ("integration_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "query_records_lookup_created_idx" ON "query_records" USING btree ("lookup","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "query_records_status_created_idx" ON "query_records" USING btree ("http_status","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "query_records_nit_idx" ON "query_records" USING btree ("nit") WHERE "query_records"."nit" is not null;--> statement-breakpoint
CREATE INDEX "query_records_cui_idx" ON "query_records" USING btree ("cui") WHERE "query_records"."cui" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "console_users_email_lower_unique" ON "console_users" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "audit_log_created_idx" ON "audit_log" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_log_target_idx" ON "audit_log" USING btree ("target_type","target_id","created_at" DESC NULLS LAST);