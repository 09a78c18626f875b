CREATE TYPE "public"."bulk_item_status" AS ENUM('pendiente', 'encontrado', 'no_encontrado', 'invalido', 'error_fuente');--> statement-breakpoint
CREATE TYPE "public"."bulk_job_state" AS ENUM('en_curso', 'en_pausa_sin_saldo', 'completado', 'cancelado');--> statement-breakpoint
CREATE TABLE "bulk_job_items" (
	"job_id" integer NOT NULL,
	"position" integer NOT NULL,
	"identifier_sealed" text NOT NULL,
	"status" "bulk_item_status" DEFAULT 'pendiente' NOT NULL,
	"reason" text,
	"result_sealed" text,
	"answered_at" timestamp with time zone,
	"source" text,
	"request_id" text,
	"charged_centavos" bigint DEFAULT 0 NOT NULL,
	"lease_holder" text,
	"lease_token" text,
	"lease_until" timestamp with time zone,
	CONSTRAINT "bulk_job_items_job_id_position_pk" PRIMARY KEY("job_id","position")
);
--> statement-breakpoint
CREATE TABLE "bulk_jobs" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "bulk_jobs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"public_id" text NOT NULL,
	"integration_id" integer NOT NULL,
	"catalog" text NOT NULL,
	"state" "bulk_job_state" DEFAULT 'en_curso' NOT NULL,
	"idempotency_key_hash" text NOT NULL,
	"request_hash" text NOT NULL,
	"total_items" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "bulk_jobs_finished" CHECK (("bulk_jobs"."state" in ('completado', 'cancelado')) = ("bulk_jobs"."finished_at" is not null))
);
--> statement-breakpoint
ALTER TABLE "bulk_job_items" ADD CONSTRAINT "bulk_job_items_job_id_bulk_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."bulk_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bulk_jobs" ADD CONSTRAINT "bulk_jobs_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bulk_job_items_pending_idx" ON "bulk_job_items" USING btree ("job_id","position") WHERE "bulk_job_items"."status" = 'pendiente';--> statement-breakpoint
CREATE UNIQUE INDEX "bulk_jobs_public_id_unique" ON "bulk_jobs" USING btree ("public_id");--> statement-breakpoint
CREATE UNIQUE INDEX "bulk_jobs_idempotency_unique" ON "bulk_jobs" USING btree ("integration_id","idempotency_key_hash");--> statement-breakpoint
CREATE INDEX "bulk_jobs_active_idx" ON "bulk_jobs" USING btree ("created_at","id") WHERE "bulk_jobs"."state" in ('en_curso', 'en_pausa_sin_saldo');--> statement-breakpoint
CREATE INDEX "bulk_jobs_finished_idx" ON "bulk_jobs" USING btree ("finished_at") WHERE "bulk_jobs"."finished_at" is not null;