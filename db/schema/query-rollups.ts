import { bigint, date, integer, pgEnum, pgTable, primaryKey, smallint, timestamp, type PgIntegerBuilderInitial } from 'drizzle-orm/pg-core';
import { lookupKind } from './query-records';

// Aggregates of the query records per hour and per day, kept exact as records are written: the record's
// statement also appends a row to query_rollup_queue, and the rollup job (lib/core/rollups/job.ts)
// moves queued rows into the rollups and deletes them in one statement. The dashboard and the
// integration page read these, never the records; they outlive the records' retention.

/**
 * Upper bounds (inclusive, milliseconds) of the response-time histogram buckets; one more bucket
 * counts everything slower. Percentiles are interpolated inside a bucket (lib/core/rollups/histogram.ts).
 * Changing them needs a migration.
 */
export const LATENCY_BUCKET_BOUNDS_MS = [
  2, 5, 10, 20, 35, 50, 75, 100, 150, 200, 300, 500, 750, 1000, 1500, 2000, 3000, 5000, 7500, 10000, 15000, 20000, 30000,
] as const;

type Bound = (typeof LATENCY_BUCKET_BOUNDS_MS)[number];
type LatencyColumns = { [B in Bound as `latencyLe${B}ms`]: PgIntegerBuilderInitial<`latency_le_${B}ms`> } & {
  latencyOver: PgIntegerBuilderInitial<'latency_over'>;
};

/** Column names of the histogram buckets, in bucket order (the last one is the overflow). */
export const LATENCY_BUCKET_COLUMNS: readonly string[] = [...LATENCY_BUCKET_BOUNDS_MS.map((bound) => `latency_le_${bound}ms`), 'latency_over'];

function latencyColumns(): LatencyColumns {
  const columns: Record<string, unknown> = {};
  for (const bound of LATENCY_BUCKET_BOUNDS_MS) columns[`latencyLe${bound}ms`] = integer(`latency_le_${bound}ms`).notNull().default(0);
  columns.latencyOver = integer('latency_over').notNull().default(0);
  return columns as LatencyColumns;
}

const measures = () => ({
  queries: bigint('queries', { mode: 'number' }).notNull(),
  chargedCentavos: bigint('charged_centavos', { mode: 'number' }).notNull(),
  responseTimeMsTotal: bigint('response_time_ms_total', { mode: 'number' }).notNull(),
  ...latencyColumns(),
});

// Four tables, one shape: the job adds every record to each. Hourly ones answer "the last 24 hours";
// daily ones (Guatemalan calendar days) answer longer ranges and counts with about 1/24 of the rows.

/** Per hour, lookup and exact status, all integrations together: the 24-hour dashboard. */
export const queryHourlyRollups = pgTable(
  'query_hourly_rollups',
  {
    hour: timestamp('hour', { withTimezone: true, mode: 'date' }).notNull(),
    lookup: lookupKind('lookup').notNull(),
    httpStatus: smallint('http_status').notNull(),
    ...measures(),
  },
  // Serves "since this hour".
  (table) => [primaryKey({ name: 'query_hourly_rollups_pkey', columns: [table.hour, table.lookup, table.httpStatus] })],
);

/** Per integration, hour, lookup and exact status: the most detailed figures kept for good. */
export const queryHourlyRollupsByIntegration = pgTable(
  'query_hourly_rollups_by_integration',
  {
    integrationId: integer('integration_id').notNull(),
    hour: timestamp('hour', { withTimezone: true, mode: 'date' }).notNull(),
    lookup: lookupKind('lookup').notNull(),
    httpStatus: smallint('http_status').notNull(),
    ...measures(),
  },
  // Serves "this integration, since this hour".
  (table) => [primaryKey({ name: 'query_hourly_rollups_by_integration_pkey', columns: [table.integrationId, table.hour, table.lookup, table.httpStatus] })],
);

/** Per Guatemalan day, lookup and exact status: the 7- and 30-day dashboard, the records' counts. */
export const queryDailyRollups = pgTable(
  'query_daily_rollups',
  {
    day: date('day', { mode: 'string' }).notNull(),
    lookup: lookupKind('lookup').notNull(),
    httpStatus: smallint('http_status').notNull(),
    ...measures(),
  },
  // Serves "since this day".
  (table) => [primaryKey({ name: 'query_daily_rollups_pkey', columns: [table.day, table.lookup, table.httpStatus] })],
);

/** Per integration, Guatemalan day, lookup and exact status: the integration page, filtered counts. */
export const queryDailyRollupsByIntegration = pgTable(
  'query_daily_rollups_by_integration',
  {
    integrationId: integer('integration_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    lookup: lookupKind('lookup').notNull(),
    httpStatus: smallint('http_status').notNull(),
    ...measures(),
  },
  // Serves "this integration, since this day".
  (table) => [primaryKey({ name: 'query_daily_rollups_by_integration_pkey', columns: [table.integrationId, table.day, table.lookup, table.httpStatus] })],
);

/**
 * Records written but not yet rolled up: a heap without indexes, so appending costs the lookup
 * almost nothing; the rollup job takes rows in batches and deletes them as it adds them up.
 */
export const queryRollupQueue = pgTable('query_rollup_queue', {
  integrationId: integer('integration_id').notNull(),
  lookup: lookupKind('lookup').notNull(),
  httpStatus: smallint('http_status').notNull(),
  responseTimeMs: integer('response_time_ms').notNull(),
  chargedCentavos: bigint('charged_centavos', { mode: 'number' }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
});

/** Each integration's latest recorded query, kept by the rollup job (the integrations list). */
export const integrationActivity = pgTable('integration_activity', {
  integrationId: integer('integration_id').primaryKey(),
  lastQueryAt: timestamp('last_query_at', { withTimezone: true, mode: 'date' }).notNull(),
});

// Why a request was refused before reaching a source. Refusals are not query records (the
// contract), but support must be able to say why an integration gets 401, 403, 402, 429 or 400.
export const refusalReason = pgEnum('refusal_reason', [
  'credentials_missing',
  'credentials_invalid',
  'not_enabled',
  'rate_limited',
  'ip_rate_limited',
  'invalid_request',
  'balance_exhausted',
  'too_many_nits',
  // Right credentials from an address outside the integration's allow-list (answered as unknown credentials).
  'ip_not_allowed',
  // A lookup's path asked with another method than POST (GET, PUT…): a 405 with a request id.
  'method_not_allowed',
]);
export type RefusalReason = (typeof refusalReason.enumValues)[number];

/**
 * Refusals per hour, integration, lookup and reason, counted in each instance's memory and added
 * here every few seconds (lib/core/rollups/refusals.ts). integration_id is 0 when the request named no
 * integration this service knows (missing or unknown credentials, the per-IP limit).
 */
export const refusalRollupsByIntegration = pgTable(
  'refusal_rollups_by_integration',
  {
    integrationId: integer('integration_id').notNull(),
    hour: timestamp('hour', { withTimezone: true, mode: 'date' }).notNull(),
    lookup: lookupKind('lookup').notNull(),
    reason: refusalReason('reason').notNull(),
    refusals: bigint('refusals', { mode: 'number' }).notNull(),
  },
  // Serves "this integration's refusals since this hour".
  (table) => [primaryKey({ name: 'refusal_rollups_by_integration_pkey', columns: [table.integrationId, table.hour, table.lookup, table.reason] })],
);

/** The same for all integrations together: the dashboard. */
export const refusalRollups = pgTable(
  'refusal_rollups',
  {
    hour: timestamp('hour', { withTimezone: true, mode: 'date' }).notNull(),
    lookup: lookupKind('lookup').notNull(),
    reason: refusalReason('reason').notNull(),
    refusals: bigint('refusals', { mode: 'number' }).notNull(),
  },
  // Serves "since this hour".
  (table) => [primaryKey({ name: 'refusal_rollups_pkey', columns: [table.hour, table.lookup, table.reason] })],
);

export type QueryRollupQueueRow = typeof queryRollupQueue.$inferInsert;
export const UNKNOWN_INTEGRATION_ID = 0;
