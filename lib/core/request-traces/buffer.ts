// Each instance keeps, in memory, what happened to the requests that left no query record (a
// refusal before any source, an answer the gateway could not serve, a replayed Idempotency-Key
// answer) and writes them every ROLLUP_INTERVAL_MS in one statement, beside the refusal counts:
// tracing a request costs an array push, never a database trip. A flood cannot grow it without
// bound: past REQUEST_TRACE_MAX_PER_MINUTE refusals and unserved answers in a minute an instance
// only counts them (per hour, in request_trace_overflow, and in a metric), so support can say that
// the detail was not kept. An overload sheds thousands of lookups a second: the cap is what keeps
// their traces from becoming the next flood of writes.
import { sql } from 'drizzle-orm';
import { database } from '@/db/client';
import type { LookupKind, RefusalReason, UnservedCause } from '@/db/schema';
import { requestTraceSettings } from './settings';
import { metrics } from '@/lib/platform/metrics/registry';
import { hourStart } from '@/lib/platform/time/hours';
import { refusalStatus, unservedStatus } from './statuses';
import { processSlot } from '@/lib/platform/runtime/process-state';

/** The most traces an instance keeps while the database cannot take them. */
const MAX_PENDING_TRACES = 20_000;

interface Trace {
  requestId: string;
  at: Date;
  integrationId: number | null;
  lookup: LookupKind;
  httpStatus: number;
  reason: RefusalReason | null;
  cause: UnservedCause | null;
  replayOf: string | null;
}

interface TraceBuffer {
  traces: Trace[];
  /** Untraced refusals and unserved answers by hour (ISO), past the per-minute cap. */
  untraced: Map<string, number>;
  minute: number;
  tracedThisMinute: number;
  flushing?: Promise<void>;
}

// One buffer per process (lib/platform/runtime/process-state.ts), as the refusal counts.
const state = processSlot<TraceBuffer>('requestTraces', () => ({
  traces: [],
  untraced: new Map(),
  minute: 0,
  tracedThisMinute: 0,
}));

/** Keeps a refusal's trace, or only counts it when this minute's traces are spent. */
export function traceRefusal(refusal: { requestId: string; integrationId?: number; lookup: LookupKind; reason: RefusalReason }, at = new Date()): void {
  keepCapped({
    requestId: refusal.requestId,
    at,
    integrationId: refusal.integrationId ?? null,
    lookup: refusal.lookup,
    httpStatus: refusalStatus(refusal.lookup, refusal.reason),
    reason: refusal.reason,
    cause: null,
    replayOf: null,
  });
}

/**
 * Keeps the trace of an answer the gateway could not serve (shed, a key in use, a source not
 * asked, an unexpected error), under the same per-minute cap as the refusals: an overload is
 * exactly when these come by the thousand.
 */
export function traceUnserved(unserved: { requestId: string; integrationId?: number; lookup: LookupKind; cause: UnservedCause }, at = new Date()): void {
  keepCapped({
    requestId: unserved.requestId,
    at,
    integrationId: unserved.integrationId ?? null,
    lookup: unserved.lookup,
    httpStatus: unservedStatus(unserved.lookup, unserved.cause),
    reason: null,
    cause: unserved.cause,
    replayOf: null,
  });
}

/** Keeps a trace, or only counts it when this minute's REQUEST_TRACE_MAX_PER_MINUTE are spent. */
function keepCapped(trace: Trace): void {
  const minute = Math.floor(trace.at.getTime() / 60_000);
  if (minute !== state.minute) {
    state.minute = minute;
    state.tracedThisMinute = 0;
  }
  if (state.tracedThisMinute >= requestTraceSettings().REQUEST_TRACE_MAX_PER_MINUTE) {
    countUntraced(state.untraced, trace.at);
    metrics().untracedRequests.inc();
    return;
  }
  state.tracedThisMinute++;
  state.traces.push(trace);
}

/**
 * Keeps a replay's trace: its own request id leads to the request it repeated. Always kept (not
 * capped): a replay has passed the integration's credentials and per-minute limit, which bound it.
 */
export function traceReplay(replay: { requestId: string; integrationId: number; lookup: LookupKind; httpStatus: number; replayOf: string }, at = new Date()): void {
  state.traces.push({ ...replay, at, reason: null, cause: null });
}

/** One more refusal or unserved answer not traced, in its hour. */
function countUntraced(untraced: Map<string, number>, at: Date): void {
  const hour = hourStart(at).toISOString();
  untraced.set(hour, (untraced.get(hour) ?? 0) + 1);
}

/** Writes this process's traces and untraced counts in one statement and forgets them; a failed write keeps them for the next. */
export function flushRequestTraces(): Promise<void> {
  state.flushing ??= write().finally(() => (state.flushing = undefined));
  return state.flushing;
}

async function write(): Promise<void> {
  if (state.traces.length === 0 && state.untraced.size === 0) return;
  const traces = state.traces;
  const untraced = state.untraced;
  state.traces = [];
  state.untraced = new Map();
  const traceRows = traces.map(
    (trace) =>
      sql`(${trace.requestId}::text, ${trace.at.toISOString()}::timestamptz, ${trace.integrationId}::integer, ${trace.lookup}::lookup_kind,
           ${trace.httpStatus}::smallint, ${trace.reason}::refusal_reason, ${trace.cause}::unserved_cause, ${trace.replayOf}::text)`,
  );
  const untracedRows = [...untraced].map(([hour, count]) => sql`(${hour}::timestamptz, ${count}::bigint)`);
  const statements = [];
  if (traceRows.length > 0) {
    statements.push(sql`traced as (
      insert into request_traces (request_id, at, integration_id, lookup, http_status, reason, cause, replay_of)
      values ${sql.join(traceRows, sql`, `)}
      on conflict (request_id) do nothing)`);
  }
  if (untracedRows.length > 0) {
    statements.push(sql`counted as (
      insert into request_trace_overflow as o (hour, untraced)
      values ${sql.join(untracedRows, sql`, `)}
      on conflict (hour) do update set untraced = o.untraced + excluded.untraced)`);
  }
  try {
    await (await database()).rows(sql`with ${sql.join(statements, sql`, `)} select 1 as written`);
  } catch (error) {
    // Kept for the next write, the newest first: a long outage under load keeps at most
    // MAX_PENDING_TRACES and counts the older ones as untraced.
    const pending = [...traces, ...state.traces];
    const lost = pending.splice(0, Math.max(0, pending.length - MAX_PENDING_TRACES));
    state.traces = pending;
    for (const trace of lost) countUntraced(untraced, trace.at);
    for (const [hour, count] of untraced) state.untraced.set(hour, (state.untraced.get(hour) ?? 0) + count);
    throw error;
  }
}
