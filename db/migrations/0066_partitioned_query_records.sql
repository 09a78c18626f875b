-- Query records and their search keys partitioned by month on created_at (docs/decisions.md, "Query
-- records partitioned by month"; docs/deploy.md, "Partitioned query records"). Drizzle cannot declare
-- partitioned tables: db/schema/query-records.ts keeps the columns, these functions make the rest.
--
-- An existing table is converted by building the partitioned one beside it (`…_partitioned`, kept in
-- step by triggers), copying the rows in batches, then swapping the names in one short transaction.
-- Here, in the migration's own transaction, that runs whole only for a table of up to 100,000 rows
-- (a new or small deployment: a second or two); a larger one is left as it is, working, until the
-- operator runs `npm run cli -- records:partition`, which does the same online, batch by batch.

-- Adds one month's partitions (UTC calendar month) to the given parents, unless they exist: each a
-- plain table attached afterwards, because ATTACH takes only a SHARE UPDATE EXCLUSIVE lock on the
-- parent (lookups keep reading and writing) where CREATE TABLE … PARTITION OF takes an exclusive one.
-- request_id is unique per month: a partitioned table's unique indexes must include created_at.
CREATE OR REPLACE FUNCTION query_records_add_month(records_parent text, identifiers_parent text, month date) RETURNS boolean
  LANGUAGE plpgsql AS $$
DECLARE
  first date := date_trunc('month', month)::date;
  lower_bound timestamptz := first::timestamp AT TIME ZONE 'UTC';
  upper_bound timestamptz := (first + interval '1 month')::timestamp AT TIME ZONE 'UTC';
  records_month text := 'query_records_' || to_char(first, 'YYYY_MM');
  identifiers_month text := 'query_record_identifiers_' || to_char(first, 'YYYY_MM');
BEGIN
  -- Instances starting together, and the daily job, take turns.
  PERFORM pg_advisory_xact_lock(7275003);
  IF to_regclass(records_month) IS NOT NULL THEN
    RETURN false;
  END IF;
  EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS)', records_month, records_parent);
  EXECUTE format('CREATE UNIQUE INDEX %I ON %I (request_id)', records_month || '_request_id_unique', records_month);
  EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', records_parent, records_month, lower_bound, upper_bound);
  EXECUTE format('CREATE TABLE %I (LIKE %I)', identifiers_month, identifiers_parent);
  EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', identifiers_parent, identifiers_month, lower_bound, upper_bound);
  RETURN true;
END $$;
--> statement-breakpoint

-- Makes sure every month from `first` to `last` has its partitions, on the partitioned table there is:
-- query_records itself, or the one being filled beside an unpartitioned table. Returns how many it added.
CREATE OR REPLACE FUNCTION query_records_ensure_months(first date, last date) RETURNS integer
  LANGUAGE plpgsql AS $$
DECLARE
  records_parent text;
  identifiers_parent text;
  month date := date_trunc('month', first)::date;
  added integer := 0;
BEGIN
  IF EXISTS (SELECT 1 FROM pg_partitioned_table WHERE partrelid = 'query_records'::regclass) THEN
    records_parent := 'query_records';
    identifiers_parent := 'query_record_identifiers';
  ELSIF to_regclass('query_records_partitioned') IS NOT NULL THEN
    records_parent := 'query_records_partitioned';
    identifiers_parent := 'query_record_identifiers_partitioned';
  ELSE
    RETURN 0;
  END IF;
  WHILE month <= last LOOP
    IF query_records_add_month(records_parent, identifiers_parent, month) THEN
      added := added + 1;
    END IF;
    month := (month + interval '1 month')::date;
  END LOOP;
  RETURN added;
END $$;
--> statement-breakpoint

-- While an unpartitioned table is converted, every change to it is repeated on the partitioned one in
-- the same transaction, so the copy never misses a write and the swap has no tail to catch up.
CREATE OR REPLACE FUNCTION query_records_mirror() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    DELETE FROM query_records_partitioned WHERE id = OLD.id AND created_at = OLD.created_at;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO query_records_partitioned (id, integration_id, lookup, http_status, response_time_ms, nit, cui, charged_centavos, tariff_centavos,
                                           error_message, request_id, created_at, failure, answer_empty, actualizado, date_of_birth_sent)
    OVERRIDING SYSTEM VALUE
    VALUES (NEW.id, NEW.integration_id, NEW.lookup, NEW.http_status, NEW.response_time_ms, NEW.nit, NEW.cui, NEW.charged_centavos, NEW.tariff_centavos,
            NEW.error_message, NEW.request_id, NEW.created_at, NEW.failure, NEW.answer_empty, NEW.actualizado, NEW.date_of_birth_sent)
    ON CONFLICT (id, created_at) DO UPDATE SET
      integration_id = excluded.integration_id, lookup = excluded.lookup, http_status = excluded.http_status,
      response_time_ms = excluded.response_time_ms, nit = excluded.nit, cui = excluded.cui, charged_centavos = excluded.charged_centavos,
      tariff_centavos = excluded.tariff_centavos, error_message = excluded.error_message, request_id = excluded.request_id,
      failure = excluded.failure, answer_empty = excluded.answer_empty, actualizado = excluded.actualizado,
      date_of_birth_sent = excluded.date_of_birth_sent;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint

CREATE OR REPLACE FUNCTION query_record_identifiers_mirror() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    DELETE FROM query_record_identifiers_partitioned
     WHERE record_id = OLD.record_id AND identifier = OLD.identifier AND created_at = OLD.created_at;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO query_record_identifiers_partitioned (record_id, identifier, created_at)
    VALUES (NEW.record_id, NEW.identifier, NEW.created_at)
    ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint

-- Step 1: the partitioned tables beside the unpartitioned ones, every month from the oldest record's
-- (the current one when there is none: each month is two tables and their indexes, which every
-- unpruned query plans for) to three months ahead, and the triggers that keep them in step. Its
-- locks are brief: the triggers' SHARE ROW EXCLUSIVE.
CREATE OR REPLACE FUNCTION query_records_partition_prepare() RETURNS void
  LANGUAGE plpgsql AS $$
DECLARE
  this_month date := date_trunc('month', now() AT TIME ZONE 'UTC')::date;
  oldest date;
BEGIN
  IF to_regclass('query_records_partitioned') IS NULL THEN
    CREATE TABLE query_records_partitioned (LIKE query_records INCLUDING DEFAULTS) PARTITION BY RANGE (created_at);
    ALTER TABLE query_records_partitioned ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY;
    ALTER TABLE query_records_partitioned ADD CONSTRAINT query_records_partitioned_pkey PRIMARY KEY (id, created_at);
    ALTER TABLE query_records_partitioned ADD CONSTRAINT query_records_integration_id_integrations_id_fk
      FOREIGN KEY (integration_id) REFERENCES integrations (id);
    CREATE INDEX query_records_partitioned_created_idx ON query_records_partitioned (created_at, id);
    CREATE INDEX query_records_partitioned_integration_created_idx ON query_records_partitioned (integration_id, created_at, id);
    CREATE INDEX query_records_partitioned_lookup_created_idx ON query_records_partitioned (lookup, created_at, id);
    CREATE INDEX query_records_partitioned_status_created_idx ON query_records_partitioned (http_status, created_at, id);
    CREATE TABLE query_record_identifiers_partitioned (LIKE query_record_identifiers) PARTITION BY RANGE (created_at);
    ALTER TABLE query_record_identifiers_partitioned ADD CONSTRAINT query_record_identifiers_partitioned_pkey PRIMARY KEY (record_id, identifier, created_at);
    CREATE INDEX query_record_identifiers_partitioned_search_idx ON query_record_identifiers_partitioned (identifier, created_at, record_id);
  END IF;
  SELECT date_trunc('month', min(created_at) AT TIME ZONE 'UTC')::date INTO oldest FROM query_records;
  PERFORM query_records_ensure_months(least(coalesce(oldest, this_month), this_month),
                                      (this_month + interval '3 months')::date);
  DROP TRIGGER IF EXISTS query_records_mirror ON query_records;
  CREATE TRIGGER query_records_mirror AFTER INSERT OR UPDATE OR DELETE ON query_records
    FOR EACH ROW EXECUTE FUNCTION query_records_mirror();
  DROP TRIGGER IF EXISTS query_record_identifiers_mirror ON query_record_identifiers;
  CREATE TRIGGER query_record_identifiers_mirror AFTER INSERT OR UPDATE OR DELETE ON query_record_identifiers
    FOR EACH ROW EXECUTE FUNCTION query_record_identifiers_mirror();
END $$;
--> statement-breakpoint

-- Step 2, in batches: copies the records after `after_id` (up to `batch_rows` of them) and their search
-- keys. A row the triggers already wrote is left as they wrote it. Returns the last id copied, or
-- null when there is nothing after `after_id`.
CREATE OR REPLACE FUNCTION query_records_partition_copy(after_id bigint, batch_rows integer) RETURNS bigint
  LANGUAGE plpgsql AS $$
DECLARE
  last_id bigint;
BEGIN
  SELECT max(id) INTO last_id FROM (SELECT id FROM query_records WHERE id > after_id ORDER BY id LIMIT batch_rows) batch;
  IF last_id IS NULL THEN
    RETURN NULL;
  END IF;
  INSERT INTO query_records_partitioned (id, integration_id, lookup, http_status, response_time_ms, nit, cui, charged_centavos, tariff_centavos,
                                         error_message, request_id, created_at, failure, answer_empty, actualizado, date_of_birth_sent)
  OVERRIDING SYSTEM VALUE
  SELECT id, integration_id, lookup, http_status, response_time_ms, nit, cui, charged_centavos, tariff_centavos,
         error_message, request_id, created_at, failure, answer_empty, actualizado, date_of_birth_sent
    FROM query_records WHERE id > after_id AND id <= last_id
  ON CONFLICT DO NOTHING;
  INSERT INTO query_record_identifiers_partitioned (record_id, identifier, created_at)
  SELECT record_id, identifier, created_at FROM query_record_identifiers WHERE record_id > after_id AND record_id <= last_id
  ON CONFLICT DO NOTHING;
  RETURN last_id;
END $$;
--> statement-breakpoint

-- Step 3, one short transaction: the tables swap names (the partitioned ones take the names the app,
-- its prepared statements and later migrations use), and the identity continues after the last id.
-- The caller sets lock_timeout: waiting behind a long query would stop every lookup behind it.
CREATE OR REPLACE FUNCTION query_records_partition_switch() RETURNS void
  LANGUAGE plpgsql AS $$
DECLARE
  index_name text;
  next_id bigint;
BEGIN
  LOCK TABLE query_records, query_record_identifiers IN ACCESS EXCLUSIVE MODE;
  DROP TRIGGER query_records_mirror ON query_records;
  DROP TRIGGER query_record_identifiers_mirror ON query_record_identifiers;
  ALTER TABLE query_records RENAME TO query_records_unpartitioned;
  ALTER TABLE query_record_identifiers RENAME TO query_record_identifiers_unpartitioned;
  ALTER SEQUENCE IF EXISTS query_records_id_seq RENAME TO query_records_unpartitioned_id_seq;
  FOREACH index_name IN ARRAY array['query_records_pkey', 'query_records_request_id_unique', 'query_records_created_idx',
                                    'query_records_integration_created_idx', 'query_records_lookup_created_idx',
                                    'query_records_status_created_idx', 'query_record_identifiers_pkey',
                                    'query_record_identifiers_search_idx'] LOOP
    IF to_regclass(index_name) IS NOT NULL THEN
      EXECUTE format('ALTER INDEX %I RENAME TO %I', index_name, index_name || '_unpartitioned');
    END IF;
    IF to_regclass(replace(replace(index_name, 'query_records_', 'query_records_partitioned_'),
                           'query_record_identifiers_', 'query_record_identifiers_partitioned_')) IS NOT NULL THEN
      EXECUTE format('ALTER INDEX %I RENAME TO %I',
                     replace(replace(index_name, 'query_records_', 'query_records_partitioned_'),
                             'query_record_identifiers_', 'query_record_identifiers_partitioned_'),
                     index_name);
    END IF;
  END LOOP;
  ALTER TABLE query_records_partitioned RENAME TO query_records;
  ALTER TABLE query_record_identifiers_partitioned RENAME TO query_record_identifiers;
  ALTER SEQUENCE query_records_partitioned_id_seq RENAME TO query_records_id_seq;
  SELECT greatest((SELECT max(id) FROM query_records_unpartitioned), (SELECT max(id) FROM query_records), 0) + 1 INTO next_id;
  PERFORM setval('query_records_id_seq', next_id, false);
END $$;
--> statement-breakpoint

-- Step 4: the unpartitioned tables go (nothing reads them after the swap). The records first, with
-- the search keys' foreign key: the order in which a write that began before the swap locks them,
-- so such a write and this drop wait for each other in turn instead of deadlocking.
CREATE OR REPLACE FUNCTION query_records_partition_finish() RETURNS void
  LANGUAGE plpgsql AS $$
BEGIN
  DROP TABLE IF EXISTS query_records_unpartitioned CASCADE;
  DROP TABLE IF EXISTS query_record_identifiers_unpartitioned;
END $$;
--> statement-breakpoint

DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_partitioned_table WHERE partrelid = 'query_records'::regclass) THEN
    RETURN;
  END IF;
  IF (SELECT count(*) FROM (SELECT 1 FROM query_records LIMIT 100001) sample) > 100000 THEN
    RAISE NOTICE 'query_records holds more than 100,000 rows: it stays unpartitioned until `npm run cli -- records:partition` converts it online (docs/deploy.md, "Partitioned query records")';
    RETURN;
  END IF;
  PERFORM query_records_partition_prepare();
  PERFORM query_records_partition_copy(0, 100000);
  PERFORM query_records_partition_switch();
  PERFORM query_records_partition_finish();
END $$;
