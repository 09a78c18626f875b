ALTER TABLE "console_users" ADD COLUMN "must_change_password" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "console_sessions" ADD COLUMN "public_id" uuid DEFAULT gen_random_uuid() NOT NULL;--> statement-breakpoint
ALTER TABLE "console_sessions" ADD COLUMN "user_agent" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "console_sessions" ADD COLUMN "client_ip" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "console_sessions" ADD COLUMN "last_seen_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
CREATE INDEX "console_sessions_user_idx" ON "console_sessions" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "console_sessions" ADD CONSTRAINT "console_sessions_public_id_unique" UNIQUE("public_id");