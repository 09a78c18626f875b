// Support's side of the request traces (lib/core/request-traces/buffer.ts writes them): what happened
// to a request id that left no query record, and their deletion after REQUEST_TRACE_RETENTION_DAYS
// (every kind alike: refusals, unserved answers, replays).
import { eq, gte, sql, sum } from 'drizzle-orm';
import { database, db } from '@/db/client';
import { integrations, queryRecords, requestTraceOverflow, requestTraces, type LookupKind, type RefusalReason, type UnservedCause } from '@/db/schema';
import { hourStart, HOUR_MS } from '@/lib/platform/time/hours';

interface TraceBase {
  requestId: string;
  at: Date;
  lookup: LookupKind;
  /** The status the integrator got. */
  httpStatus: number;
  /** The integration the request named, when this service knew it. */
  integration: { id: number; nombre: string; legalName: string | null } | null;
}

export type RequestTrace =
  | (TraceBase & { kind: 'refusal'; reason: RefusalReason })
  /** An answer the gateway could not serve (a 502 or 500 that reached no record), and why. */
  | (TraceBase & { kind: 'unserved'; cause: UnservedCause })
  /** A replayed Idempotency-Key answer: the request it repeated, and that request's record (if it has one). */
  | (TraceBase & { kind: 'replay'; replayOf: string; originalRecordId: number | null });

/** The trace of a request id, if this service kept one (one probe of the primary key, one of the records' request id index). */
export async function requestTrace(requestId: string): Promise<RequestTrace | undefined> {
  const [row] = await (await db())
    .select({
      requestId: requestTraces.requestId,
      at: requestTraces.at,
      lookup: requestTraces.lookup,
      httpStatus: requestTraces.httpStatus,
      reason: requestTraces.reason,
      cause: requestTraces.cause,
      replayOf: requestTraces.replayOf,
      integrationId: integrations.id,
      nombre: integrations.nombre,
      legalName: integrations.legalName,
      originalRecordId: queryRecords.id,
    })
    .from(requestTraces)
    .leftJoin(integrations, eq(integrations.id, requestTraces.integrationId))
    .leftJoin(queryRecords, eq(queryRecords.requestId, requestTraces.replayOf))
    .where(eq(requestTraces.requestId, requestId))
    .limit(1);
  if (!row) return undefined;
  const base: TraceBase = {
    requestId: row.requestId,
    at: row.at,
    lookup: row.lookup,
    httpStatus: row.httpStatus,
    integration: row.integrationId === null || row.nombre === null ? null : { id: row.integrationId, nombre: row.nombre, legalName: row.legalName },
  };
  if (row.replayOf !== null) return { ...base, kind: 'replay', replayOf: row.replayOf, originalRecordId: row.originalRecordId };
  if (row.cause !== null) return { ...base, kind: 'unserved', cause: row.cause };
  return { ...base, kind: 'refusal', reason: row.reason ?? 'invalid_request' };
}

/** Refusals and unserved answers counted but not traced (past the per-minute cap) since `hours` hours before now's hour. */
export async function untracedSince(now: Date, hours: number): Promise<number> {
  const since = new Date(hourStart(now).getTime() - (hours - 1) * HOUR_MS);
  const [row] = await (await db())
    .select({ untraced: sum(requestTraceOverflow.untraced).mapWith(Number) })
    .from(requestTraceOverflow)
    .where(gte(requestTraceOverflow.hour, since));
  return row?.untraced ?? 0;
}

/** Deletes traces and untraced counts older than `retentionDays`, a batch per statement; returns how many traces. */
export async function purgeExpiredRequestTraces(retentionDays: number, now = new Date(), batchRows = 5_000): Promise<number> {
  const handle = await database();
  const cutoff = new Date(now.getTime() - retentionDays * 24 * HOUR_MS).toISOString();
  let deleted = 0;
  for (;;) {
    const rows = await handle.rows<{ one: number }>(sql`
      delete from request_traces
       where request_id in (select request_id from request_traces where at < ${cutoff}::timestamptz order by at limit ${batchRows}::integer)
      returning 1 as one`);
    deleted += rows.length;
    if (rows.length < batchRows) break;
  }
  await handle.rows(sql`delete from request_trace_overflow where hour < ${cutoff}::timestamptz`);
  return deleted;
}
