CREATE TABLE "identifier_searches" (
	"reference" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"identifier_sealed" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "personal_data_access" ALTER COLUMN "user_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "personal_data_access" ADD COLUMN "actor" text;--> statement-breakpoint
ALTER TABLE "identifier_searches" ADD CONSTRAINT "identifier_searches_user_id_console_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."console_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "identifier_searches_expires_idx" ON "identifier_searches" USING btree ("expires_at");