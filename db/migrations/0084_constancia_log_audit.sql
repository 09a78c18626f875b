CREATE TABLE "constancia_log_audit" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"next_leaf" bigint DEFAULT 0 NOT NULL,
	"pass_completed_at" timestamp with time zone,
	"pass_tree_size" bigint,
	CONSTRAINT "constancia_log_audit_one_row" CHECK ("constancia_log_audit"."id" = 1)
);
