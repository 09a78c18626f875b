import { bigint, index, integer, pgTable, smallint, text, timestamp } from 'drizzle-orm/pg-core';
import { lookupKind } from './query-records';
import { refusalReason } from './query-rollups';

/**
 * What happened to a request that left no query record, by its request id, so support can explain
 * any id an integrator was given (issue 32, point 1): a refusal before any source (reason and the
 * status the integrator got) or a replayed Idempotency-Key answer (the request it repeated, whose
 * record tells the charge). Never an identifier. Kept in each instance's memory and written with
 * the refusal counts every ROLLUP_INTERVAL_MS, at most REQUEST_TRACE_MAX_PER_MINUTE refusals a
 * minute per instance (request_trace_overflow counts the rest), deleted after
 * REQUEST_TRACE_RETENTION_DAYS by the retention job (lib/request-traces).
 */
export const requestTraces = pgTable(
  'request_traces',
  {
    requestId: text('request_id').primaryKey(),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
    /** The integration the request named, when this service knew it. */
    integrationId: integer('integration_id'),
    lookup: lookupKind('lookup').notNull(),
    httpStatus: smallint('http_status').notNull(),
    /** A refusal's reason; null for a replay. */
    reason: refusalReason('reason'),
    /** A replay's original request (its record holds the query and the charge); null for a refusal. */
    replayOf: text('replay_of'),
  },
  (table) => [index('request_traces_at_idx').on(table.at)],
);

/** Refusals an instance counted but did not trace (past its per-minute cap), per hour. */
export const requestTraceOverflow = pgTable('request_trace_overflow', {
  hour: timestamp('hour', { withTimezone: true, mode: 'date' }).primaryKey(),
  untraced: bigint('untraced', { mode: 'number' }).notNull(),
});
