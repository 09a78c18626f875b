CREATE TYPE "public"."invoice_receptor_kind" AS ENUM('nit', 'cui', 'cf');--> statement-breakpoint
CREATE TYPE "public"."invoice_state" AS ENUM('pending', 'indeterminate', 'certified', 'to_correct');--> statement-breakpoint
CREATE TABLE "invoice_attempts" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "invoice_attempts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"invoice_id" integer NOT NULL,
	"call" text NOT NULL,
	"certifier" text NOT NULL,
	"outcome" text NOT NULL,
	"detail" text,
	"holder" text NOT NULL,
	"duration_ms" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "invoices_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"ledger_entry_id" bigint NOT NULL,
	"integration_id" integer NOT NULL,
	"identifier" text DEFAULT gen_random_uuid()::text NOT NULL,
	"document_type" text NOT NULL,
	"emitted_at" timestamp with time zone NOT NULL,
	"total_centavos" bigint NOT NULL,
	"taxable_centavos" bigint NOT NULL,
	"tax_centavos" bigint NOT NULL,
	"receptor_kind" "invoice_receptor_kind" NOT NULL,
	"receptor_id" text NOT NULL,
	"receptor_name" text,
	"state" "invoice_state" DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lease_holder" text,
	"lease_until" timestamp with time zone,
	"certifier" text,
	"uuid" text,
	"serie" text,
	"numero" text,
	"certified_at" timestamp with time zone,
	"certified_xml" text,
	"last_error_code" text,
	"last_error_message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoices_amounts_add_up" CHECK ("invoices"."total_centavos" > 0 and "invoices"."taxable_centavos" + "invoices"."tax_centavos" = "invoices"."total_centavos"),
	CONSTRAINT "invoices_certified_has_numbers" CHECK ("invoices"."state" <> 'certified' or ("invoices"."uuid" is not null and "invoices"."serie" is not null and "invoices"."numero" is not null)),
	CONSTRAINT "invoices_receptor_named" CHECK (("invoices"."receptor_kind" = 'cf') = ("invoices"."receptor_name" is null))
);
--> statement-breakpoint
ALTER TABLE "invoice_attempts" ADD CONSTRAINT "invoice_attempts_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_ledger_entry_id_ledger_entries_id_fk" FOREIGN KEY ("ledger_entry_id") REFERENCES "public"."ledger_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invoice_attempts_invoice_idx" ON "invoice_attempts" USING btree ("invoice_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_ledger_entry_unique" ON "invoices" USING btree ("ledger_entry_id");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_identifier_unique" ON "invoices" USING btree ("identifier");--> statement-breakpoint
CREATE INDEX "invoices_due_idx" ON "invoices" USING btree ("next_attempt_at","id") WHERE "invoices"."state" in ('pending', 'indeterminate');--> statement-breakpoint
CREATE INDEX "invoices_integration_idx" ON "invoices" USING btree ("integration_id","created_at");