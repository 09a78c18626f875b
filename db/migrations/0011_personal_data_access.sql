CREATE TYPE "public"."personal_data_access_kind" AS ENUM('reveal', 'view', 'export', 'subject_report');--> statement-breakpoint
CREATE TABLE "personal_data_access" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "personal_data_access_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"kind" "personal_data_access_kind" NOT NULL,
	"record_id" bigint,
	"reason" text,
	"details" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "integrations" ADD COLUMN "purpose" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "personal_data_access" ADD CONSTRAINT "personal_data_access_user_id_console_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."console_users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "personal_data_access_created_idx" ON "personal_data_access" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "personal_data_access_user_idx" ON "personal_data_access" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "personal_data_access_record_idx" ON "personal_data_access" USING btree ("record_id","created_at","id");