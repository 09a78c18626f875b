CREATE TYPE "public"."sign_in_throttle_scope" AS ENUM('account', 'ip');--> statement-breakpoint
CREATE TABLE "sign_in_throttles" (
	"scope" "sign_in_throttle_scope" NOT NULL,
	"subject" text NOT NULL,
	"failures" integer NOT NULL,
	"window_started_at" timestamp with time zone NOT NULL,
	"locked_until" timestamp with time zone,
	CONSTRAINT "sign_in_throttles_scope_subject_pk" PRIMARY KEY("scope","subject")
);
--> statement-breakpoint
CREATE INDEX "sign_in_throttles_window_idx" ON "sign_in_throttles" USING btree ("window_started_at");