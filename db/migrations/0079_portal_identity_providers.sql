CREATE TABLE "identity_provider_sign_ins" (
	"state_hash" text PRIMARY KEY NOT NULL,
	"binding_hash" text NOT NULL,
	"integration_id" integer NOT NULL,
	"nonce" text NOT NULL,
	"code_verifier_sealed" text NOT NULL,
	"redirect_uri" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "integration_identity_providers" (
	"integration_id" integer PRIMARY KEY NOT NULL,
	"issuer" text NOT NULL,
	"client_id" text NOT NULL,
	"client_secret_sealed" text NOT NULL,
	"email_domain" text NOT NULL,
	"role_claim" text DEFAULT 'groups' NOT NULL,
	"role_values" jsonb NOT NULL,
	"break_glass_emails" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "portal_users" ADD COLUMN "origin" "console_user_origin" DEFAULT 'local' NOT NULL;--> statement-breakpoint
ALTER TABLE "portal_users" ADD COLUMN "identity_provider_subject" text;--> statement-breakpoint
ALTER TABLE "identity_provider_sign_ins" ADD CONSTRAINT "identity_provider_sign_ins_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_identity_providers" ADD CONSTRAINT "integration_identity_providers_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "identity_provider_sign_ins_expires_idx" ON "identity_provider_sign_ins" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "integration_identity_providers_domain_unique" ON "integration_identity_providers" USING btree (lower("email_domain"));--> statement-breakpoint
CREATE UNIQUE INDEX "portal_users_identity_provider_subject_unique" ON "portal_users" USING btree ("integration_id","identity_provider_subject") WHERE "portal_users"."removed_at" is null;