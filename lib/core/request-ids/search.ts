import { and, desc, eq, gte, max, sum, type SQL } from 'drizzle-orm';
import { db } from '@/db/client';
import { queryRecords, refusalRollups, refusalRollupsByIntegration, type LookupKind, type RefusalReason } from '@/db/schema';
import { requestTrace, type RequestTrace } from '@/lib/core/request-traces/read';
import { HOUR_MS, hourStart } from '@/lib/platform/time/hours';

export { isPlausibleRequestId, REQUEST_ID_PREFIX, typedRequestId } from './typed';

/** The record a request id belongs to: one probe of query_records' unique index on request_id. */
export async function recordIdForRequestId(requestId: string): Promise<number | undefined> {
  const [row] = await (await db()).select({ id: queryRecords.id }).from(queryRecords).where(eq(queryRecords.requestId, requestId)).limit(1);
  return row?.id;
}

/** The query param a record's page reads to say it was opened by a replay's request id. */
export const REPLAY_PARAM = 'repeticion';

/**
 * Where a replayed Idempotency-Key answer's request id leads: the page of the query it repeated,
 * marked with the replay's id. Undefined when the id is not a traced replay,
 * or the query it repeated has no record (any more).
 */
export async function recordOfReplay(requestId: string): Promise<string | undefined> {
  return replayRecordPath(await requestTrace(requestId));
}

/** The same, from a trace already read. */
export function replayRecordPath(trace: RequestTrace | undefined): string | undefined {
  if (trace?.kind !== 'replay' || trace.originalRecordId === null) return undefined;
  return `/admin/registros/${trace.originalRecordId}?${new URLSearchParams({ [REPLAY_PARAM]: trace.requestId })}`;
}

/** How far back "around now" reaches for refusals of a request id that left no record. */
export const REFUSAL_WINDOW_HOURS = 24;

export interface RefusalReasonCount {
  reason: RefusalReason;
  refusals: number;
  /** The start of the latest hour with such a refusal. */
  lastHour: Date;
}

/**
 * Why requests were refused before reaching a source in the last REFUSAL_WINDOW_HOURS hours (the
 * current hour included), one row per reason, most frequent first: one integration's (refusals
 * that named it) or everyone's. Read from the refusal rollups, whose primary keys lead with
 * (integration_id, hour) and (hour): one index range of at most a few hundred rows. A request
 * that left no record was refused by one of these, or never reached this service.
 */
export async function refusalReasonsAround(
  now: Date,
  scope: { integrationId?: number; lookup?: LookupKind } = {},
): Promise<RefusalReasonCount[]> {
  const since = new Date(hourStart(now).getTime() - (REFUSAL_WINDOW_HOURS - 1) * HOUR_MS);
  const table = scope.integrationId === undefined ? refusalRollups : refusalRollupsByIntegration;
  const conditions: SQL[] = [gte(table.hour, since)];
  if (scope.integrationId !== undefined) conditions.push(eq(refusalRollupsByIntegration.integrationId, scope.integrationId));
  if (scope.lookup) conditions.push(eq(table.lookup, scope.lookup));
  const refusals = sum(table.refusals).mapWith(Number);
  const rows = await (await db())
    .select({ reason: table.reason, refusals, lastHour: max(table.hour) })
    .from(table)
    .where(and(...conditions))
    .groupBy(table.reason)
    .orderBy(desc(refusals), table.reason);
  return rows
    .filter((row) => row.refusals > 0 && row.lastHour)
    .map((row) => ({ reason: row.reason, refusals: row.refusals, lastHour: new Date(row.lastHour!) }));
}
