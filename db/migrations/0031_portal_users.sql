CREATE TYPE "public"."portal_role" AS ENUM('propietario', 'desarrollador', 'facturacion');--> statement-breakpoint
CREATE TABLE "portal_users" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "portal_users_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"integration_id" integer NOT NULL,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"role" "portal_role" NOT NULL,
	"password_hash" text NOT NULL,
	"password_changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_sign_in_at" timestamp with time zone,
	"removed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "portal_sessions" (
	"id_hash" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"public_id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"user_agent" text DEFAULT '' NOT NULL,
	"client_ip" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"second_factor_at" timestamp with time zone,
	CONSTRAINT "portal_sessions_public_id_unique" UNIQUE("public_id")
);
--> statement-breakpoint
CREATE TABLE "portal_recovery_codes" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "portal_recovery_codes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"code_hash" text NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "portal_two_factor" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"secret_ciphertext" text NOT NULL,
	"confirmed_at" timestamp with time zone,
	"last_used_step" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "portal_invitations" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "portal_invitations_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"integration_id" integer NOT NULL,
	"email" text NOT NULL,
	"role" "portal_role" NOT NULL,
	"code_hash" text NOT NULL,
	"invited_by" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone,
	"accepted_user_id" integer,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "portal_invitations_code_hash_unique" UNIQUE("code_hash")
);
--> statement-breakpoint
CREATE TABLE "portal_password_resets" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "portal_password_resets_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"code_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "portal_password_resets_code_hash_unique" UNIQUE("code_hash")
);
--> statement-breakpoint
ALTER TABLE "alert_deliveries" DROP CONSTRAINT "alert_deliveries_audience_check";--> statement-breakpoint
ALTER TABLE "alert_deliveries" DROP CONSTRAINT "alert_deliveries_recipient_check";--> statement-breakpoint
ALTER TABLE "portal_users" ADD CONSTRAINT "portal_users_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "portal_sessions" ADD CONSTRAINT "portal_sessions_user_id_portal_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."portal_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "portal_recovery_codes" ADD CONSTRAINT "portal_recovery_codes_user_id_portal_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."portal_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "portal_two_factor" ADD CONSTRAINT "portal_two_factor_user_id_portal_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."portal_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "portal_invitations" ADD CONSTRAINT "portal_invitations_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "portal_invitations" ADD CONSTRAINT "portal_invitations_accepted_user_id_portal_users_id_fk" FOREIGN KEY ("accepted_user_id") REFERENCES "public"."portal_users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "portal_password_resets" ADD CONSTRAINT "portal_password_resets_user_id_portal_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."portal_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "portal_users_email_lower_unique" ON "portal_users" USING btree (lower("email")) WHERE "portal_users"."removed_at" is null;--> statement-breakpoint
CREATE INDEX "portal_users_integration_idx" ON "portal_users" USING btree ("integration_id");--> statement-breakpoint
CREATE INDEX "portal_sessions_expires_idx" ON "portal_sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "portal_sessions_user_idx" ON "portal_sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "portal_recovery_codes_user_idx" ON "portal_recovery_codes" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "portal_invitations_pending_idx" ON "portal_invitations" USING btree ("integration_id","created_at") WHERE "portal_invitations"."accepted_at" is null and "portal_invitations"."revoked_at" is null;--> statement-breakpoint
CREATE INDEX "portal_password_resets_user_idx" ON "portal_password_resets" USING btree ("user_id","created_at");--> statement-breakpoint
ALTER TABLE "alert_deliveries" ADD CONSTRAINT "alert_deliveries_audience_check" CHECK ("alert_deliveries"."audience" in ('administrators', 'integrator', 'console_user', 'portal_user'));--> statement-breakpoint
ALTER TABLE "alert_deliveries" ADD CONSTRAINT "alert_deliveries_recipient_check" CHECK (("alert_deliveries"."audience" = 'administrators' and "alert_deliveries"."recipient" is null) or ("alert_deliveries"."audience" = 'integrator' and "alert_deliveries"."recipient" in ('technical', 'billing', 'webhook') and "alert_deliveries"."integration_id" is not null) or ("alert_deliveries"."audience" in ('console_user', 'portal_user') and "alert_deliveries"."recipient" is null and "alert_deliveries"."integration_id" is null));