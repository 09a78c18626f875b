ALTER TABLE "integrations" ADD COLUMN "billing_address" text;--> statement-breakpoint
ALTER TABLE "integrations" ADD COLUMN "invoice_email" text;--> statement-breakpoint
-- One billing profile per integration (issue 64): the razón social and NIT of its Datos are folded
-- into the receptor its invoices name where it had none (the name as registered; a certifier that
-- finds it is not SAT's refuses the invoice, which then waits «Por corregir»), and where both were
-- set the receptor, whose name was SAT's, wins.
UPDATE "integrations"
   SET "receptor_kind" = CASE WHEN "nit" ~ '^[0-9]{13}$' THEN 'cui' ELSE 'nit' END,
       "receptor_id" = "nit",
       "receptor_name" = "legal_name",
       "receptor_set_at" = now()
 WHERE "receptor_kind" IS NULL AND "nit" IS NOT NULL AND "legal_name" IS NOT NULL;--> statement-breakpoint
UPDATE "integrations"
   SET "legal_name" = "receptor_name", "nit" = "receptor_id"
 WHERE "receptor_kind" IN ('nit', 'cui') AND ("legal_name" IS DISTINCT FROM "receptor_name" OR "nit" IS DISTINCT FROM "receptor_id");
