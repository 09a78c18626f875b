ALTER TYPE "public"."alert_condition" ADD VALUE 'token_created';--> statement-breakpoint
ALTER TYPE "public"."alert_condition" ADD VALUE 'token_rotated';--> statement-breakpoint
ALTER TYPE "public"."alert_condition" ADD VALUE 'allow_list_changed';