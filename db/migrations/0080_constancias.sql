CREATE SEQUENCE "public"."constancia_leaf_index" INCREMENT BY 1 MINVALUE 0 MAXVALUE 9223372036854775807 START WITH 0 CACHE 1;--> statement-breakpoint
CREATE TABLE "constancia_log_heads" (
	"tree_size" bigint PRIMARY KEY NOT NULL,
	"root_hash" text NOT NULL,
	"signed_at" timestamp with time zone NOT NULL,
	"key_id" text NOT NULL,
	"signed_head" text NOT NULL,
	"timestamp_reply" text,
	"timestamped_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "constancia_log_leaves" (
	"leaf_index" bigint PRIMARY KEY NOT NULL,
	"leaf_hash" text NOT NULL,
	"hole" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "constancia_log_nodes" (
	"level" smallint NOT NULL,
	"position" bigint NOT NULL,
	"hash" text NOT NULL,
	CONSTRAINT "constancia_log_nodes_level_position_pk" PRIMARY KEY("level","position"),
	CONSTRAINT "constancia_log_nodes_level_above_leaves" CHECK ("constancia_log_nodes"."level" >= 1)
);
--> statement-breakpoint
CREATE TABLE "constancia_signing_keys" (
	"key_id" text PRIMARY KEY NOT NULL,
	"public_jwk" jsonb NOT NULL,
	"first_used_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "constancias" (
	"id" text PRIMARY KEY NOT NULL,
	"leaf_index" bigint NOT NULL,
	"integration_id" integer NOT NULL,
	"request_id" text NOT NULL,
	"lookup" "lookup_kind" NOT NULL,
	"http_status" smallint NOT NULL,
	"key_id" text NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	"receipt_sealed" text,
	CONSTRAINT "constancias_leaf_index_unique" UNIQUE("leaf_index"),
	CONSTRAINT "constancias_request_id_unique" UNIQUE("request_id")
);
--> statement-breakpoint
ALTER TABLE "integrations" ADD COLUMN "constancias_enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "constancias" ADD CONSTRAINT "constancias_leaf_index_constancia_log_leaves_leaf_index_fk" FOREIGN KEY ("leaf_index") REFERENCES "public"."constancia_log_leaves"("leaf_index") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "constancias" ADD CONSTRAINT "constancias_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "constancia_log_leaves_hash" ON "constancia_log_leaves" USING btree ("leaf_hash");--> statement-breakpoint
CREATE INDEX "constancias_integration_issued" ON "constancias" USING btree ("integration_id","issued_at");