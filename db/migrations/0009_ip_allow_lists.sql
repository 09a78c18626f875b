ALTER TYPE "public"."refusal_reason" ADD VALUE 'ip_not_allowed';--> statement-breakpoint
CREATE TABLE "integration_refused_addresses" (
	"integration_id" integer NOT NULL,
	"address" text NOT NULL,
	"last_refused_at" timestamp with time zone NOT NULL,
	"refusals" bigint NOT NULL,
	CONSTRAINT "integration_refused_addresses_pkey" PRIMARY KEY("integration_id","address")
);
--> statement-breakpoint
ALTER TABLE "integrations" ADD COLUMN "allowed_networks" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "integration_refused_addresses" ADD CONSTRAINT "integration_refused_addresses_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE no action ON UPDATE no action;