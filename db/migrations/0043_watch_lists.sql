ALTER TYPE "public"."alert_condition" ADD VALUE 'watch_list_changes';--> statement-breakpoint
CREATE TABLE "watch_list_changes" (
	"watch_list_id" integer NOT NULL,
	"run" integer NOT NULL,
	"position" integer NOT NULL,
	"kind" text NOT NULL,
	"job_public_id" text NOT NULL,
	"before_sealed" text NOT NULL,
	"after_sealed" text NOT NULL,
	"detected_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "watch_list_changes_watch_list_id_run_position_kind_pk" PRIMARY KEY("watch_list_id","run","position","kind")
);
--> statement-breakpoint
CREATE TABLE "watch_list_entries" (
	"watch_list_id" integer NOT NULL,
	"position" integer NOT NULL,
	"identifier_sealed" text NOT NULL,
	"snapshot_sealed" text,
	"seen_at" timestamp with time zone,
	CONSTRAINT "watch_list_entries_watch_list_id_position_pk" PRIMARY KEY("watch_list_id","position")
);
--> statement-breakpoint
CREATE TABLE "watch_lists" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "watch_lists_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"public_id" text NOT NULL,
	"integration_id" integer NOT NULL,
	"name" text NOT NULL,
	"catalog" text NOT NULL,
	"schedule" text NOT NULL,
	"state" text DEFAULT 'activa' NOT NULL,
	"total_entries" integer NOT NULL,
	"next_run_at" timestamp with time zone NOT NULL,
	"runs" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "watch_lists_catalog" CHECK ("watch_lists"."catalog" in ('rtu', 'omisos')),
	CONSTRAINT "watch_lists_schedule" CHECK ("watch_lists"."schedule" in ('mensual', 'semanal')),
	CONSTRAINT "watch_lists_state" CHECK ("watch_lists"."state" in ('activa', 'en_pausa'))
);
--> statement-breakpoint
ALTER TABLE "bulk_jobs" ADD COLUMN "watch_list_id" integer;--> statement-breakpoint
ALTER TABLE "bulk_jobs" ADD COLUMN "watch_list_run" integer;--> statement-breakpoint
ALTER TABLE "bulk_jobs" ADD COLUMN "changes_computed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "watch_list_changes" ADD CONSTRAINT "watch_list_changes_watch_list_id_watch_lists_id_fk" FOREIGN KEY ("watch_list_id") REFERENCES "public"."watch_lists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watch_list_entries" ADD CONSTRAINT "watch_list_entries_watch_list_id_watch_lists_id_fk" FOREIGN KEY ("watch_list_id") REFERENCES "public"."watch_lists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watch_lists" ADD CONSTRAINT "watch_lists_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "watch_lists_public_id_unique" ON "watch_lists" USING btree ("public_id");--> statement-breakpoint
CREATE INDEX "watch_lists_due_idx" ON "watch_lists" USING btree ("next_run_at") WHERE "watch_lists"."state" = 'activa';--> statement-breakpoint
CREATE INDEX "watch_lists_integration_created_idx" ON "watch_lists" USING btree ("integration_id","created_at","id");--> statement-breakpoint
ALTER TABLE "bulk_jobs" ADD CONSTRAINT "bulk_jobs_watch_list_id_watch_lists_id_fk" FOREIGN KEY ("watch_list_id") REFERENCES "public"."watch_lists"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bulk_jobs_watch_changes_due_idx" ON "bulk_jobs" USING btree ("id") WHERE "bulk_jobs"."watch_list_id" is not null and "bulk_jobs"."changes_computed_at" is null;--> statement-breakpoint
CREATE INDEX "bulk_jobs_watch_list_idx" ON "bulk_jobs" USING btree ("watch_list_id","watch_list_run");