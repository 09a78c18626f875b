CREATE TABLE "personal_data_state" (
	"id" smallint PRIMARY KEY NOT NULL,
	"clear_records_remain" boolean NOT NULL,
	"reseal_after_id" bigint,
	"reseal_key_ids" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- Records written before this release hold their NITs and CUIs in clear: the search keeps looking
-- for clear search keys until `npm run cli -- personal-data:reseal` has sealed every one of them.
-- A fresh database has nothing to migrate. (No data is rewritten here: the command does it in
-- short batches while the service runs, since the keys never reach SQL.)
INSERT INTO "personal_data_state" ("id", "clear_records_remain") SELECT 1, EXISTS (SELECT 1 FROM "query_records");
