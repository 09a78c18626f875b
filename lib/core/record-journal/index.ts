// Query records the database could not take when the source had answered: kept on disk, written
// when the database is back (docs/decisions.md, "Recording when the database is away").
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { database } from '@/db/client';
import { claimDirectory } from '@/db/embedded-lock';
import type { StatementCompanion } from '@/db/compiled-statement';
import { settleHold, voidAbandonedHold, type Hold } from '@/lib/core/billing/holds';
import { describeError } from '@/lib/platform/logging/errors';
import { ensurePrivateDirectory } from '@/lib/platform/files/private-directory';
import { runAsJob } from '@/lib/platform/jobs/context';
import { logger } from '@/lib/platform/logging/logger';
import { metrics } from '@/lib/platform/metrics/registry';
import { sealRecord, type LookupSeals, type SealedQueryRecord } from '@/lib/core/records/sealed';
import { recordUnbilledQuery, recordUnbilledQueryAgain } from '@/lib/core/records/write';
import { ensureRecordMonths, isMissingMonth } from '@/lib/core/records/partitions';
import type { QueryRecordInput } from '@/lib/core/records/types';
import { completeLeftIntents, leftIntentFiles, RegistryIntentLog, type RegistryIntent } from './intents';
import { JournalFile } from './journal';
import { peekProcessSlot, setProcessSlot } from '@/lib/platform/runtime/process-state';

// Records are kept sealed (their NIT and CUI encrypted, their search keys hashed: lib/core/personal-data),
// so the journal's disk holds no identifier in clear; entries a previous release kept in clear are
// sealed when they are written.
export type JournalEntry =
  /** A registry lookup's record. */
  | { kind: 'unbilled'; record: QueryRecordInput | SealedQueryRecord }
  /** A catalog lookup whose settlement failed: its hold is voided (never charged) and its record written. */
  | { kind: 'voided_settlement'; hold: Hold; record: QueryRecordInput | SealedQueryRecord }
  /**
   * A catalog lookup whose hold the database may have taken without confirming it (the connection
   * dropped mid-statement): the lookup stopped there, so its hold, if any, is given back unrecorded.
   */
  | { kind: 'abandoned_hold'; integrationId: number; requestId: string };

export function requestIdOf(entry: JournalEntry): string {
  return entry.kind === 'abandoned_hold' ? entry.requestId : entry.record.requestId;
}

const REPLAY_INTERVAL_MS = 2_000;

/** Errors of a connection that failed or broke (Node's, postgres.js's), not of a statement the server refused. */
const CONNECTION_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
]);

/**
 * Whether a failed statement failed because the database could not be reached (a refused, broken
 * or timed-out connection; the server shutting down or refusing connections: SQLSTATE class 08,
 * 57P01-57P03, 53300), looking through drizzle's "Failed query" wrapper to its cause.
 */
export function databaseWasUnreachable(error: unknown): boolean {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code !== 'string') continue;
    if (CONNECTION_ERROR_CODES.has(code)) return true;
    if (/^08[0-9A-Z]{3}$/.test(code) || ['57P01', '57P02', '57P03', '53300'].includes(code)) return true;
  }
  return false;
}
const log = logger('record-journal');

/** Writes an entry as the lookup would have; idempotent (a record per request id, a settlement per hold). */
async function writeEntry(entry: JournalEntry): Promise<void> {
  if (entry.kind === 'unbilled') await recordUnbilledQueryAgain(entry.record);
  else if (entry.kind === 'voided_settlement') await settleHold(entry.hold, false, entry.record);
  else await voidAbandonedHold(entry.integrationId, entry.requestId);
}

async function databaseAnswers(): Promise<boolean> {
  try {
    await (await database()).rows(sql`select 1 as reachable`);
    return true;
  } catch {
    return false;
  }
}

export class RecordJournal {
  private replaying?: Promise<number>;

  constructor(
    private readonly file: JournalFile<JournalEntry>,
    private readonly write: (entry: JournalEntry) => Promise<void> = writeEntry,
    private readonly reachable: () => Promise<boolean> = databaseAnswers,
  ) {}

  get pending(): number {
    return this.file.pending;
  }

  /** On disk (flushed) when this resolves. */
  async keep(entry: JournalEntry): Promise<void> {
    await this.file.keep(entry.kind === 'abandoned_hold' ? entry : { ...entry, record: sealRecord(entry.record) });
    log.warn({ requestId: requestIdOf(entry), pending: this.file.pending }, 'the database did not take a query record: kept in the journal until it does');
  }

  /** Writes the kept entries in order until one fails; how many were written. One replay at a time. */
  replay(): Promise<number> {
    if (this.file.pending === 0) return Promise.resolve(0);
    this.replaying ??= this.writeKept().finally(() => (this.replaying = undefined));
    return this.replaying;
  }

  private async writeKept(): Promise<number> {
    const entries = await this.file.read();
    let done = 0;
    for (const entry of entries) {
      try {
        await this.write(entry);
      } catch (error) {
        // The database is still away: try again later. Judged by the error first: a write that
        // failed to connect just before the database came back must not be set aside because the
        // database answers a moment later (CI lost a record that way). If it answers and the error
        // is its own refusal, this entry never will be taken: set it aside, loudly, rather than
        // block every later one.
        if (databaseWasUnreachable(error) || !(await this.reachable())) break;
        await fs.promises.appendFile(`${this.file.file}.rejected`, `${JSON.stringify({ entry, error: describeError(error) })}\n`, { mode: 0o600 });
        log.error({ err: error, requestId: requestIdOf(entry) }, 'a kept query record was refused by the database: set aside in the .rejected file');
      }
      done++;
    }
    if (done > 0) {
      await this.file.drop(done);
      log.info({ written: done, pending: this.file.pending }, 'kept query records written to the database');
    }
    return done;
  }
}

/**
 * Claims `directory` for this process (a second live process on it stops the start), writes what a
 * previous process left, and keeps replaying in the background while entries are pending.
 */
export async function startRecordJournal(directory: string): Promise<void> {
  if (peekProcessSlot('recordJournal')) return;
  ensurePrivateDirectory(directory);
  const claim = claimDirectory(path.join(directory, 'journal'));
  if (!claim.claimed) throw new Error(`RECORD_JOURNAL_DIR ${directory} is in use by process ${claim.owner.pid}: every instance needs a directory of its own`);
  const file = new JournalFile<JournalEntry>(path.join(directory, 'query-records.jsonl'));
  const left = await file.open();
  const journal = new RecordJournal(file);
  // Read before this process notes any intent of its own.
  const leftIntents = leftIntentFiles(directory);
  const intents = new RegistryIntentLog(directory);
  setProcessSlot('recordJournal', journal);
  setProcessSlot('registryIntents', intents);
  metrics().probes.recordJournalPending = () => journal.pending;
  if (left > 0) log.warn({ pending: left }, 'query records kept by a previous process: writing them to the database');
  if (leftIntents.length > 0) log.warn({ files: leftIntents.length }, 'registry lookups a previous process may have left unrecorded: recording those without a record');
  runAsJob('record-journal', () => {
    const replay = () =>
      void journal
        .replay()
        // The records kept first: a lookup whose record waited in the journal is recorded as it
        // ended, and its intent then adds nothing.
        .then(() => (journal.pending === 0 ? completeIntents(leftIntents) : undefined))
        .catch((error: unknown) => log.error({ err: error }, 'writing kept query records failed'));
    replay();
    setInterval(() => {
      intents.rotate();
      replay();
    }, REPLAY_INTERVAL_MS).unref();
  });
}

/** Records the intents a previous process left, file by file; a file the database did not take stays for the next turn. */
async function completeIntents(files: string[]): Promise<void> {
  while (files.length > 0) {
    const written = await completeLeftIntents(files[0]!);
    log.info({ intents: written }, 'registry lookups left by a previous process: recorded those without a record');
    files.shift();
  }
}

/**
 * Notes, before a registry's source is asked, the record to write should this process die before
 * the lookup ends (lib/core/record-journal/intents.ts); call the returned function once it has ended.
 * Without a journal (scripts, tests that did not start one) nothing is noted.
 */
export function noteRegistryIntent(intent: RegistryIntent, seals?: LookupSeals): () => void {
  const intents = peekProcessSlot<RegistryIntentLog>('registryIntents');
  if (!intents) return () => {};
  try {
    return intents.note(intent, seals);
  } catch (error) {
    // The disk refused: the lookup goes on (its record is written as always once it ends).
    log.error({ err: error, requestId: intent.requestId }, 'noting a registry intent failed');
    return () => {};
  }
}

/**
 * Keeps an entry the database just refused (`error`): on disk when this resolves. Without a
 * journal (a process that did not start one: scripts, tests) or when the disk refuses too, the
 * original error is thrown and the lookup fails as before.
 */
export async function keepRecord(entry: JournalEntry, error: unknown): Promise<void> {
  const journal = peekProcessSlot<RecordJournal>('recordJournal');
  // A month with no partition yet: it is added now, and the record kept for the replay to write.
  const missingMonth = isMissingMonth(error);
  if (missingMonth) {
    const added = await ensureRecordMonths().catch((ensureError: unknown) => log.error({ err: ensureError }, 'adding the missing months of query records failed'));
    log.error({ err: error, added }, 'a query record had no month to go to: the months were added');
  }
  // A database that answered and refused (a constraint, a trigger) would refuse the replay too: that
  // lookup fails as it always did, loudly, instead of answering as if it were recorded.
  if (!journal || !(databaseWasUnreachable(error) || missingMonth)) throw error;
  log.warn({ err: error, requestId: requestIdOf(entry) }, 'writing a query record failed');
  try {
    await journal.keep(entry);
  } catch (journalError) {
    log.error({ err: journalError, requestId: requestIdOf(entry) }, 'the journal did not take the query record either: it is lost');
    throw error;
  }
}

/** Writes a registry lookup's record, or keeps it in the journal when the database does not take it. */
export async function recordUnbilledOrKeep(record: QueryRecordInput, seals?: LookupSeals, receipt?: StatementCompanion): Promise<void> {
  try {
    await recordUnbilledQuery(record, seals, receipt);
  } catch (error) {
    // The receipt is not kept with it (never told it was written): its index becomes a hole, and the answer says it has none.
    await keepRecord({ kind: 'unbilled', record }, error);
  }
}
