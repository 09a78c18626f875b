DROP INDEX "top_up_requests_bank_reference_unique";--> statement-breakpoint
ALTER TABLE "top_up_requests" ALTER COLUMN "normalized_reference" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "top_up_requests" ADD COLUMN "reference_key" text GENERATED ALWAYS AS (upper(regexp_replace(normalize("reference", NFD), '[^A-Za-z0-9]', '', 'g'))) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "top_up_requests" ADD COLUMN "legacy_duplicate" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Requests that are one deposit under the new key but were typed apart before ("DUP-777" and
-- "DUP777"): one of each group keeps the key (an approved one first, since it can no longer be
-- rejected, then the oldest); the others are marked, so the unique index leaves them out and this
-- migration never fails on them. `top-ups:duplicates` lists them for the administrators.
UPDATE "top_up_requests" r SET "legacy_duplicate" = true
  FROM (SELECT id, row_number() OVER (PARTITION BY bank, reference_key ORDER BY (state = 'approved') DESC, id) AS place
          FROM "top_up_requests" WHERE state <> 'rejected') ranked
 WHERE ranked.id = r.id AND ranked.place > 1;--> statement-breakpoint
CREATE UNIQUE INDEX "top_up_requests_bank_reference_key_unique" ON "top_up_requests" USING btree ("bank","reference_key") WHERE "top_up_requests"."state" <> 'rejected' and not "top_up_requests"."legacy_duplicate";--> statement-breakpoint
CREATE INDEX "top_up_requests_legacy_duplicate_idx" ON "top_up_requests" USING btree ("bank","reference_key") WHERE "top_up_requests"."legacy_duplicate";