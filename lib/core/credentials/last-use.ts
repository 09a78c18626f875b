import { sql } from 'drizzle-orm';
import { database } from '@/db/client';
import { processSlot } from '@/lib/platform/runtime/process-state';

interface LastUses {
  /** Token id → the latest instant (ms) this instance accepted it since the last flush. */
  pending: Map<number, number>;
  flushing?: Promise<void>;
}

// One map per process (lib/platform/runtime/process-state.ts). Noting a use costs a map update, never a
// database write: a burst of lookups must not become a burst of updates.
const state = processSlot<LastUses>('tokenLastUses', () => ({ pending: new Map() }));

export function noteTokenUse(tokenId: number, atMs: number): void {
  const seen = state.pending.get(tokenId);
  if (seen === undefined || atMs > seen) state.pending.set(tokenId, atMs);
}

/**
 * Writes the pending last uses in one statement and forgets them; a later use never goes back in
 * time (greatest), so instances may flush in any order. If the write fails they are put back for
 * the next flush; only a crash loses them (at most one interval of "último uso").
 */
export function flushTokenUses(): Promise<void> {
  state.flushing ??= writeLastUses().finally(() => (state.flushing = undefined));
  return state.flushing;
}

async function writeLastUses(): Promise<void> {
  if (state.pending.size === 0) return;
  const pending = state.pending;
  state.pending = new Map();
  const rows = [...pending].map(([tokenId, atMs]) => sql`(${tokenId}::integer, ${new Date(atMs).toISOString()}::timestamptz)`);
  try {
    await (await database()).rows(sql`
      update integration_tokens as t set last_used_at = greatest(t.last_used_at, used.at)
      from (values ${sql.join(rows, sql`, `)}) as used (id, at)
      where t.id = used.id`);
  } catch (error) {
    for (const [tokenId, atMs] of pending) noteTokenUse(tokenId, atMs);
    throw error;
  }
}
