import { sql } from 'drizzle-orm';
import { database } from '@/db/client';
import { peekProcessSlot, setProcessSlot } from '@/lib/platform/runtime/process-state';

// Read at most this often per process: the flag only ever goes from true to false (when the reseal
// command finishes), and until a process notices, its searches merely look for one key more.
const STATE_TTL_MS = 30_000;

interface ClearState {
  remain: boolean;
  readAt: number;
}

/** Whether records written before the encryption release may still hold identifiers in clear. */
export async function clearRecordsMayRemain(now = Date.now()): Promise<boolean> {
  const cached = peekProcessSlot<ClearState>('personalDataClear');
  if (cached && now - cached.readAt < STATE_TTL_MS) return cached.remain;
  const [row] = await (await database()).rows<{ remain: boolean }>(sql`select clear_records_remain as remain from personal_data_state where id = 1`);
  // No row: a database the migration has not reached yet; assume the worst.
  const remain = row?.remain ?? true;
  setProcessSlot<ClearState>('personalDataClear', { remain, readAt: now });
  return remain;
}

/** Forgets the cached flag (after the reseal command changed it in this process, and in tests). */
export function forgetPersonalDataState(): void {
  setProcessSlot('personalDataClear', undefined);
}
