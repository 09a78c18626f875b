CREATE TABLE "integration_tokens" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "integration_tokens_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"integration_id" integer NOT NULL,
	"label" text NOT NULL,
	"token_hash" text NOT NULL,
	"token_prefix" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"replaced_by_id" integer,
	CONSTRAINT "integration_tokens_label_not_empty" CHECK (length("integration_tokens"."label") > 0)
);
--> statement-breakpoint
ALTER TABLE "integration_tokens" ADD CONSTRAINT "integration_tokens_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "integration_tokens_hash_unique" ON "integration_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "integration_tokens_integration_idx" ON "integration_tokens" USING btree ("integration_id","id");--> statement-breakpoint
-- Every existing integration keeps its one token, unchanged (same hash, same prefix), labelled "Principal".
INSERT INTO "integration_tokens" ("integration_id", "label", "token_hash", "token_prefix", "created_at")
SELECT "id", 'Principal', "token_hash", "token_prefix", "updated_at" FROM "integrations";--> statement-breakpoint
ALTER TABLE "integrations" DROP COLUMN "token_hash";--> statement-breakpoint
ALTER TABLE "integrations" DROP COLUMN "token_prefix";