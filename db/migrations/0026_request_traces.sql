CREATE TABLE "request_trace_overflow" (
	"hour" timestamp with time zone PRIMARY KEY NOT NULL,
	"untraced" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "request_traces" (
	"request_id" text PRIMARY KEY NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"integration_id" integer,
	"lookup" "lookup_kind" NOT NULL,
	"http_status" smallint NOT NULL,
	"reason" "refusal_reason",
	"replay_of" text
);
--> statement-breakpoint
CREATE INDEX "request_traces_at_idx" ON "request_traces" USING btree ("at");