ALTER TYPE "public"."alert_condition" ADD VALUE 'tariff_changed';--> statement-breakpoint
ALTER TYPE "public"."alert_condition" ADD VALUE 'lookups_changed';