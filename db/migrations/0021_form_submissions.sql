CREATE TABLE "form_submissions" (
	"actor" text NOT NULL,
	"key" text NOT NULL,
	"message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "form_submissions_actor_key_pk" PRIMARY KEY("actor","key")
);
--> statement-breakpoint
CREATE INDEX "form_submissions_created_idx" ON "form_submissions" USING btree ("created_at");