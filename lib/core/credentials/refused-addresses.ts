import { sql } from 'drizzle-orm';
import { database } from '@/db/client';
import { processSlot } from '@/lib/platform/runtime/process-state';

interface RefusedAddresses {
  /** "integrationId|address" → the latest refusal (ms) and how many since the last flush. */
  pending: Map<string, { atMs: number; count: number }>;
  flushing?: Promise<void>;
}

/** Distinct addresses kept in memory per instance between flushes: a flood from many addresses stays bounded. */
const MAX_PENDING = 10_000;

// One map per process (lib/platform/runtime/process-state.ts); noting costs a map update.
const state = processSlot<RefusedAddresses>('refusedAddresses', () => ({ pending: new Map() }));

/** Notes a request refused for coming from outside its integration's allow-list. */
export function noteRefusedAddress(integrationId: number, address: string, atMs: number): void {
  const key = `${integrationId}|${address}`;
  const seen = state.pending.get(key);
  if (seen) {
    seen.count++;
    if (atMs > seen.atMs) seen.atMs = atMs;
  } else if (state.pending.size < MAX_PENDING) {
    state.pending.set(key, { atMs, count: 1 });
  }
}

/** Adds the pending refusals per address in one statement; put back if the write fails. */
export function flushRefusedAddresses(): Promise<void> {
  state.flushing ??= writeRefusedAddresses().finally(() => (state.flushing = undefined));
  return state.flushing;
}

async function writeRefusedAddresses(): Promise<void> {
  if (state.pending.size === 0) return;
  const pending = state.pending;
  state.pending = new Map();
  const rows = [...pending].map(([key, { atMs, count }]) => {
    const [integrationId, address] = key.split('|') as [string, string];
    return sql`(${Number(integrationId)}::integer, ${address}::text, ${new Date(atMs).toISOString()}::timestamptz, ${count}::bigint)`;
  });
  try {
    await (await database()).rows(sql`
      insert into integration_refused_addresses as t (integration_id, address, last_refused_at, refusals)
      select integration_id, address, at, refusals from (values ${sql.join(rows, sql`, `)}) as refused (integration_id, address, at, refusals)
      on conflict (integration_id, address) do update
        set last_refused_at = greatest(t.last_refused_at, excluded.last_refused_at), refusals = t.refusals + excluded.refusals`);
  } catch (error) {
    for (const [key, value] of pending) {
      const seen = state.pending.get(key);
      if (seen) state.pending.set(key, { atMs: Math.max(seen.atMs, value.atMs), count: seen.count + value.count });
      else state.pending.set(key, value);
    }
    throw error;
  }
}

export interface RefusedAddress {
  address: string;
  lastRefusedAt: Date;
  refusals: number;
}

/** The addresses most recently refused for an integration, newest first. */
export async function latestRefusedAddresses(integrationId: number, limit = 10): Promise<RefusedAddress[]> {
  const rows = await (await database()).rows<{ address: string; last_refused_at: string | Date; refusals: string | number }>(sql`
    select address, last_refused_at, refusals from integration_refused_addresses
     where integration_id = ${integrationId} order by last_refused_at desc limit ${limit}`);
  return rows.map((row) => ({ address: row.address, lastRefusedAt: new Date(row.last_refused_at), refusals: Number(row.refusals) }));
}
