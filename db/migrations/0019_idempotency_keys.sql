CREATE TABLE "idempotency_keys" (
	"integration_id" integer NOT NULL,
	"key_hash" text NOT NULL,
	"request_sealed" text NOT NULL,
	"owner_request_id" text NOT NULL,
	"state" text NOT NULL,
	"answer_status" smallint,
	"answer_sealed" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"claimed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_integration_id_key_hash_pk" PRIMARY KEY("integration_id","key_hash"),
	CONSTRAINT "idempotency_keys_state_check" CHECK ("idempotency_keys"."state" in ('running', 'done')),
	CONSTRAINT "idempotency_keys_done_has_answer" CHECK ("idempotency_keys"."state" = 'running' or ("idempotency_keys"."answer_status" is not null and "idempotency_keys"."answer_sealed" is not null))
);
--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "idempotency_keys_created_idx" ON "idempotency_keys" USING btree ("created_at");