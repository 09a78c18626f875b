import { sql } from 'drizzle-orm';
import { database } from '@/db/client';
import { env } from '@/lib/platform/settings/env';
import { recordsArePartitioned } from './partitions';

export interface OnlinePartitionOptions {
  /** Records copied per statement (their search keys with them). */
  batchRows?: number;
  /** Pause between batches, so the copy never competes for long with live traffic. */
  pauseMs?: number;
  /** How long the swap waits for its lock before giving up and trying again (a long query holds it). */
  lockTimeoutMs?: number;
  /** How many times the swap (and the old tables' drop) is tried. */
  attempts?: number;
  /** Wait after the swap before the old tables are dropped. */
  settleMs?: number;
  /** Told after each batch; the next batch waits for what it returns. */
  onProgress?: (progress: { copiedUpToId: number; batches: number; elapsedMs: number }) => void | Promise<void>;
}

export type OnlinePartitionResult =
  | { kind: 'already_partitioned' }
  | {
      kind: 'partitioned';
      /** The triggers' creation (their brief SHARE ROW EXCLUSIVE lock) and the new tables' months. */
      prepareMs: number;
      batches: number;
      copyMs: number;
      analyzeMs: number;
      /** How long the swap held its exclusive lock: the only time lookups waited. */
      switchMs: number;
      switchAttempts: number;
      /** When the swap committed. */
      switchedAt: Date;
      totalMs: number;
    }
  | { kind: 'lock_not_taken'; attempts: number };

type Run = (text: string) => Promise<Array<Record<string, unknown>>>;

/**
 * Converts an unpartitioned query_records (a deployment with more rows than migration 0066 converts
 * in its own transaction) while lookups go on: the partitioned tables are built beside it and kept in
 * step by triggers, the rows copied in batches of short statements, the new tables analyzed, then
 * the names swapped in one transaction that holds its exclusive lock for milliseconds; a swap that
 * cannot take the lock within lockTimeoutMs (a long query on the table) gives up at once and is
 * tried again, so lookups never queue behind it for longer. The old tables are dropped last.
 * Interrupted, it can be run again: the copy starts over and skips what is there.
 */
export async function partitionRecordsOnline(options: OnlinePartitionOptions = {}): Promise<OnlinePartitionResult> {
  if (await recordsArePartitioned()) return { kind: 'already_partitioned' };
  const started = performance.now();
  const { run, close, lockTimeout } = await sessionRunner();
  const bounded = lockTimeout(Math.max(100, options.lockTimeoutMs ?? 2_000));
  try {
    await bounded(true);
    await retryingLock(run, 'select query_records_partition_prepare()', options.attempts ?? 30);
    const prepareMs = performance.now() - started;
    // The copy's row locks may wait for a lookup's write: no bound there.
    await bounded(false);
    let after = 0;
    let batches = 0;
    for (;;) {
      const [row] = await run(`select query_records_partition_copy(${after}, ${Math.max(1, options.batchRows ?? 20_000)}) as last_id`);
      if (row?.last_id === null || row?.last_id === undefined) break;
      after = Number(row.last_id);
      batches++;
      await options.onProgress?.({ copiedUpToId: after, batches, elapsedMs: performance.now() - started });
      if (options.pauseMs) await new Promise((resolve) => setTimeout(resolve, options.pauseMs));
    }
    const copyMs = performance.now() - started;
    // Plans on the new tables need their statistics before the first lookup reaches them.
    await run('analyze query_records_partitioned');
    await run('analyze query_record_identifiers_partitioned');
    const analyzeMs = performance.now() - started - copyMs;
    const attempts = options.attempts ?? 30;
    await bounded(true);
    for (let attempt = 1; attempt <= attempts; attempt++) {
      const switchStarted = performance.now();
      try {
        await run('select query_records_partition_switch()');
      } catch (error) {
        if (!isLockTimeout(error)) throw error;
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        continue;
      }
      const switchMs = performance.now() - switchStarted;
      const switchedAt = new Date();
      // Statements that began before the swap still hold the old tables for a moment: the drop waits
      // for them (bounded, tried again), and never makes a lookup's write wait behind it for long.
      await new Promise((resolve) => setTimeout(resolve, options.settleMs ?? 2_000));
      await retryingLock(run, 'select query_records_partition_finish()', attempts);
      return { kind: 'partitioned', prepareMs, batches, copyMs, analyzeMs, switchMs, switchAttempts: attempt, switchedAt, totalMs: performance.now() - started };
    }
    return { kind: 'lock_not_taken', attempts };
  } finally {
    await close();
  }
}

async function retryingLock(run: Run, text: string, attempts: number): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await run(text);
      return;
    } catch (error) {
      if (!isLockTimeout(error) || attempt >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  }
}

/** A lock not taken in time (55P03), or a deadlock this session lost (40P01): both worth another try. */
function isLockTimeout(error: unknown): boolean {
  const code = (error as { code?: string }).code ?? (error as { cause?: { code?: string } }).cause?.code;
  return code === '55P03' || code === '40P01';
}

interface Session {
  run: Run;
  close: () => Promise<void>;
  /** Sets (true) or lifts (false) this session's lock_timeout. */
  lockTimeout: (ms: number) => (on: boolean) => Promise<void>;
}

/**
 * One session for the whole conversion, so its lock_timeout never reaches the app's pool. The
 * embedded database is one session whose users take turns: no lock waits there, none to bound.
 */
async function sessionRunner(): Promise<Session> {
  const handle = await database();
  const url = env().DATABASE_URL;
  if (handle.kind === 'pglite' || !url) {
    return { run: (text) => handle.rows(sql.raw(text)), close: async () => {}, lockTimeout: () => async () => {} };
  }
  const { default: connect } = await import('postgres');
  const connection = connect(url, { max: 1, onnotice: () => {} });
  const run: Run = (text) => connection.unsafe(text) as unknown as Promise<Array<Record<string, unknown>>>;
  return {
    run,
    close: () => connection.end(),
    lockTimeout: (ms) => async (on) => void (await run(`set lock_timeout = ${on ? `'${ms}ms'` : '0'}`)),
  };
}
