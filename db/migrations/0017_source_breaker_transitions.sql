CREATE TYPE "public"."breaker_transition" AS ENUM('opened', 'closed');--> statement-breakpoint
CREATE TABLE "source_breaker_transitions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "source_breaker_transitions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"instance" text NOT NULL,
	"source" text NOT NULL,
	"transition" "breaker_transition" NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"confirmed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "source_breaker_transitions_at_idx" ON "source_breaker_transitions" USING btree ("at");--> statement-breakpoint
CREATE INDEX "source_breaker_transitions_confirmed_idx" ON "source_breaker_transitions" USING btree ("confirmed_at");