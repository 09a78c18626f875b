import { sql } from 'drizzle-orm';
import { database } from '@/db/client';
import { UNKNOWN_INTEGRATION_ID, type LookupKind, type RefusalReason } from '@/db/schema';
import { currentLogBindings } from '@/lib/platform/logging/context';
import { metrics } from '@/lib/platform/metrics/registry';
import { traceRefusal } from '@/lib/core/request-traces/buffer';
import { hourStart } from '@/lib/platform/time/hours';
import { processSlot } from '@/lib/platform/runtime/process-state';

export interface Refusal {
  /** The integration the request named, when this service knows it. */
  integrationId?: number;
  lookup: LookupKind;
  reason: RefusalReason;
  /** The request's id; by default the one of the lookup running (its log bindings carry it). */
  requestId?: string;
}

interface RefusalCounts {
  counts: Map<string, number>;
  flushing?: Promise<void>;
}

// One map per process (lib/platform/runtime/process-state.ts). Counting a refusal costs a map update, never
// a database trip: a flood of 401s or 429s must not become a flood of writes.
const state = processSlot<RefusalCounts>('refusalCounts', () => ({ counts: new Map() }));

/** Counts a refusal for the rollups and traces it by request id for support (lib/core/request-traces). */
export function countRefusal(refusal: Refusal, at = new Date()): void {
  metrics().refusals.inc({ lookup: refusal.lookup, reason: refusal.reason });
  const requestId = refusal.requestId ?? currentLogBindings().requestId;
  if (typeof requestId === 'string') traceRefusal({ requestId, integrationId: refusal.integrationId, lookup: refusal.lookup, reason: refusal.reason }, at);
  const key = [hourStart(at).toISOString(), refusal.integrationId ?? UNKNOWN_INTEGRATION_ID, refusal.lookup, refusal.reason].join('|');
  state.counts.set(key, (state.counts.get(key) ?? 0) + 1);
}

/**
 * Adds this process's counts to the refusal rollups (per integration and overall) in one
 * statement and forgets them. If the write
 * fails they are put back for the next flush; only a crash loses them (at most one interval).
 */
export function flushRefusals(): Promise<void> {
  state.flushing ??= writeCounts().finally(() => (state.flushing = undefined));
  return state.flushing;
}

async function writeCounts(): Promise<void> {
  if (state.counts.size === 0) return;
  const pending = state.counts;
  state.counts = new Map();
  const rows = [...pending].map(([key, refusals]) => {
    const [hour, integrationId, lookup, reason] = key.split('|') as [string, string, LookupKind, RefusalReason];
    return sql`(${hour}::timestamptz, ${Number(integrationId)}::integer, ${lookup}::lookup_kind, ${reason}::refusal_reason, ${refusals}::bigint)`;
  });
  try {
    await (await database()).rows(sql`
      with counted (hour, integration_id, lookup, reason, refusals) as (values ${sql.join(rows, sql`, `)}),
      by_integration as (
        insert into refusal_rollups_by_integration as t (integration_id, hour, lookup, reason, refusals)
        select integration_id, hour, lookup, reason, refusals from counted
        on conflict (integration_id, hour, lookup, reason) do update set refusals = t.refusals + excluded.refusals
      )
      insert into refusal_rollups as t (hour, lookup, reason, refusals)
      select hour, lookup, reason, sum(refusals) from counted group by hour, lookup, reason
      on conflict (hour, lookup, reason) do update set refusals = t.refusals + excluded.refusals`);
  } catch (error) {
    for (const [key, count] of pending) state.counts.set(key, (state.counts.get(key) ?? 0) + count);
    throw error;
  }
}
