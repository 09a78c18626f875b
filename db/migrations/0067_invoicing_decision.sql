CREATE TABLE "invoicing_decision" (
	"id" integer PRIMARY KEY NOT NULL,
	"invoices" boolean NOT NULL,
	"document_type" text,
	"published_by" text NOT NULL,
	"published_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoicing_decision_one_row" CHECK ("invoicing_decision"."id" = 1),
	CONSTRAINT "invoicing_decision_document_type" CHECK ("invoicing_decision"."invoices" = ("invoicing_decision"."document_type" is not null))
);
