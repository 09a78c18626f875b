ALTER TABLE "integrations" ADD COLUMN "receptor_kind" text;--> statement-breakpoint
ALTER TABLE "integrations" ADD COLUMN "receptor_id" text;--> statement-breakpoint
ALTER TABLE "integrations" ADD COLUMN "receptor_name" text;--> statement-breakpoint
ALTER TABLE "integrations" ADD COLUMN "receptor_set_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "integrations" ADD CONSTRAINT "integrations_receptor_complete" CHECK (("integrations"."receptor_kind" is null and "integrations"."receptor_id" is null and "integrations"."receptor_name" is null)
        or ("integrations"."receptor_kind" = 'cf' and "integrations"."receptor_id" = 'CF' and "integrations"."receptor_name" is null)
        or ("integrations"."receptor_kind" in ('nit', 'cui') and "integrations"."receptor_id" is not null and "integrations"."receptor_name" is not null));