ALTER TABLE "ledger_verifications" ALTER COLUMN "finished_at" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "ledger_verifications" ALTER COLUMN "integrations_checked" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "ledger_verifications" ALTER COLUMN "ok" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "ledger_verifications" ALTER COLUMN "differences" SET DEFAULT '[]'::jsonb;--> statement-breakpoint
ALTER TABLE "ledger_verifications" ADD COLUMN "started_by" text;--> statement-breakpoint
ALTER TABLE "ledger_verifications" ADD COLUMN "heartbeat_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "ledger_verifications" ADD COLUMN "steps_done" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "ledger_verifications" ADD COLUMN "steps_total" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "ledger_verifications" ADD COLUMN "step_name" text;--> statement-breakpoint
ALTER TABLE "ledger_verifications" ADD COLUMN "failure" text;