CREATE TABLE "identifier_links" (
	"nit_key" text NOT NULL,
	"cui_key" text NOT NULL,
	"pair_sealed" text NOT NULL,
	"first_seen_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	CONSTRAINT "identifier_links_nit_key_cui_key_pk" PRIMARY KEY("nit_key","cui_key")
);
--> statement-breakpoint
CREATE INDEX "identifier_links_cui_idx" ON "identifier_links" USING btree ("cui_key");--> statement-breakpoint
CREATE INDEX "identifier_links_last_seen_idx" ON "identifier_links" USING btree ("last_seen_at");