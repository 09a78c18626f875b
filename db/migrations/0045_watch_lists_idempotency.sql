ALTER TABLE "watch_lists" ADD COLUMN "idempotency_key_hash" text;--> statement-breakpoint
ALTER TABLE "watch_lists" ADD COLUMN "request_hash" text;--> statement-breakpoint
CREATE UNIQUE INDEX "watch_lists_idempotency_key_unique" ON "watch_lists" USING btree ("integration_id","idempotency_key_hash") WHERE "watch_lists"."idempotency_key_hash" is not null;