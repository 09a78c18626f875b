CREATE TYPE "public"."top_up_request_state" AS ENUM('pending', 'approved', 'rejected');--> statement-breakpoint
ALTER TYPE "public"."alert_condition" ADD VALUE 'top_up_approved';--> statement-breakpoint
ALTER TYPE "public"."alert_condition" ADD VALUE 'top_up_rejected';--> statement-breakpoint
CREATE TABLE "top_up_requests" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "top_up_requests_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"integration_id" integer NOT NULL,
	"reported_by" integer NOT NULL,
	"bank" text NOT NULL,
	"reference" text NOT NULL,
	"normalized_reference" text NOT NULL,
	"deposit_date" date NOT NULL,
	"amount_centavos" bigint NOT NULL,
	"state" "top_up_request_state" DEFAULT 'pending' NOT NULL,
	"reason" text,
	"decided_by" text,
	"decided_at" timestamp with time zone,
	"ledger_entry_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "top_up_requests_amount_positive" CHECK ("top_up_requests"."amount_centavos" > 0),
	CONSTRAINT "top_up_requests_decision" CHECK (("top_up_requests"."state" = 'pending') = ("top_up_requests"."decided_at" is null)),
	CONSTRAINT "top_up_requests_approved_entry" CHECK (("top_up_requests"."state" = 'approved') = ("top_up_requests"."ledger_entry_id" is not null)),
	CONSTRAINT "top_up_requests_rejected_reason" CHECK ("top_up_requests"."state" <> 'rejected' or "top_up_requests"."reason" is not null)
);
--> statement-breakpoint
CREATE TABLE "top_up_slips" (
	"request_id" integer PRIMARY KEY NOT NULL,
	"content_type" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"content" "bytea" NOT NULL
);
--> statement-breakpoint
ALTER TABLE "top_up_requests" ADD CONSTRAINT "top_up_requests_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "top_up_requests" ADD CONSTRAINT "top_up_requests_reported_by_portal_users_id_fk" FOREIGN KEY ("reported_by") REFERENCES "public"."portal_users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "top_up_requests" ADD CONSTRAINT "top_up_requests_ledger_entry_id_ledger_entries_id_fk" FOREIGN KEY ("ledger_entry_id") REFERENCES "public"."ledger_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "top_up_slips" ADD CONSTRAINT "top_up_slips_request_id_top_up_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."top_up_requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "top_up_requests_bank_reference_unique" ON "top_up_requests" USING btree ("bank","normalized_reference") WHERE "top_up_requests"."state" <> 'rejected';--> statement-breakpoint
CREATE INDEX "top_up_requests_integration_idx" ON "top_up_requests" USING btree ("integration_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "top_up_requests_pending_idx" ON "top_up_requests" USING btree ("created_at","id") WHERE "top_up_requests"."state" = 'pending';