ALTER TABLE "watch_lists" ADD COLUMN "changes_total" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "watch_lists" ADD COLUMN "idempotency_key_hash" text;--> statement-breakpoint
ALTER TABLE "watch_lists" ADD COLUMN "request_hash" text;--> statement-breakpoint
CREATE UNIQUE INDEX "watch_lists_idempotency_key_unique" ON "watch_lists" USING btree ("integration_id","idempotency_key_hash") WHERE "watch_lists"."idempotency_key_hash" is not null;--> statement-breakpoint
-- Lists saved before this column: their changes counted once.
UPDATE "watch_lists" w SET "changes_total" = (SELECT count(*) FROM "watch_list_changes" c WHERE c."watch_list_id" = w."id");