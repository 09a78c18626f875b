import { bigint, index, integer, pgEnum, pgTable, smallint, text, timestamp } from 'drizzle-orm/pg-core';
import { lookupKind } from './query-records';
import { refusalReason } from './query-rollups';

/**
 * Why the gateway answered a request it could not serve (a 502 on the catalogs, a 500 on the
 * registries, a 500 for an unexpected error) without reaching a source, or at least without a
 * record: none of these is a refusal of the client's request, and none was charged.
 */
export const unservedCause = pgEnum('unserved_cause', [
  // The instance's admission queue was full (lib/core/admission).
  'shed',
  // Another request with the same Idempotency-Key was still running when this one's wait ran out.
  'key_in_use',
  // The instance had no usable copy of the credentials (lib/core/integrations/directory.ts).
  'credentials_unavailable',
  // The source's circuit breaker was open or its bulkhead full: the call was never sent.
  'source_not_sent',
  // An unexpected error before any record was written (the route's generic 500).
  'unhandled',
]);
export type UnservedCause = (typeof unservedCause.enumValues)[number];

/**
 * What happened to a request that left no query record, by its request id, so support can explain
 * any id an integrator was given: a refusal before any source (reason and the
 * status the integrator got), an answer the gateway could not serve (its cause and status), or a
 * replayed Idempotency-Key answer (the request it repeated, whose record tells the charge). Never
 * an identifier. Kept in each instance's memory and written with the refusal counts every
 * ROLLUP_INTERVAL_MS, at most REQUEST_TRACE_MAX_PER_MINUTE refusals and unserved answers a minute
 * per instance (request_trace_overflow counts the rest), deleted after
 * REQUEST_TRACE_RETENTION_DAYS by the retention job (lib/core/request-traces).
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
    /** A refusal's reason; null otherwise. */
    reason: refusalReason('reason'),
    /** Why an answer was not served; null otherwise. */
    cause: unservedCause('cause'),
    /** A replay's original request (its record holds the query and the charge); null otherwise. */
    replayOf: text('replay_of'),
  },
  (table) => [index('request_traces_at_idx').on(table.at)],
);

/** Refusals and unserved answers an instance counted but did not trace (past its per-minute cap), per hour. */
export const requestTraceOverflow = pgTable('request_trace_overflow', {
  hour: timestamp('hour', { withTimezone: true, mode: 'date' }).primaryKey(),
  untraced: bigint('untraced', { mode: 'number' }).notNull(),
});
