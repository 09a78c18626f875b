// Watch lists (Vigilancia) as their integration sees them: saving a list of NITs
// with a catalog and a schedule, listing and reading them, pausing, resuming and deleting one.
// Every function takes the integration's id and touches only its lists: another integration's list
// id is answered exactly as one that does not exist. The runs themselves are lib/flows/watch-lists/runs.ts.
import { createHmac, randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { database, db, rowsIn, type SqlExecutor } from '@/db/client';
import { cancelJob } from '@/lib/flows/bulk/jobs';
import { planItems, type SetAsideReason } from '@/lib/flows/bulk/identifiers';
import { idempotencyKeyHash } from '@/lib/core/idempotency/key';
import { seal } from '@/lib/core/sealing/envelope';
import { personalDataKeys } from '@/lib/core/sealing/keys';
import type { WatchCatalog } from './snapshot';
import type { WatchSchedule } from './schedule';

/**
 * A caller's transaction (the portal's, which writes its audit row in it): each change below runs in
 * it when given, so the change and the row that records it commit together or not at all.
 */
export type WatchListTransaction = SqlExecutor;

// vig_ and 20 hex characters: 80 random bits, as a job's lote_ id.
const PUBLIC_ID = /^vig_[0-9a-f]{20}$/;

export function newPublicWatchListId(): string {
  return `vig_${randomBytes(10).toString('hex')}`;
}

export function isPublicWatchListId(value: string): boolean {
  return PUBLIC_ID.test(value);
}

export type WatchListState = 'activa' | 'en_pausa';

export interface WatchListView {
  publicId: string;
  name: string;
  catalog: WatchCatalog;
  schedule: WatchSchedule;
  state: WatchListState;
  /** The NITs it watches (those set aside at creation are not kept). */
  entries: number;
  nextRunAt: Date;
  createdAt: Date;
  /** How many runs it has started. */
  runs: number;
  /** Its latest run, as a job (lote_…), when one is still kept; null before the first. */
  lastRun: { jobId: string; state: string; createdAt: Date; finishedAt: Date | null; /** The changes it found. */ changes: number } | null;
  /** How many changes its runs have found, all runs together. */
  changes: number;
  /** Its runs' found entries each get a constancia de consulta (the integration has them enabled). */
  constancias: boolean;
}

export interface SetAsideEntry {
  /** 1-based, in the order sent. */
  position: number;
  reason: SetAsideReason;
}

export type CreateOutcome =
  | { kind: 'created'; list: WatchListView; setAside: SetAsideEntry[] }
  /** The same Idempotency-Key and the same request as an earlier creation: that list, not another. */
  | { kind: 'existing'; list: WatchListView; setAside: SetAsideEntry[] }
  /** The same Idempotency-Key with another name, catalog, schedule or list of NITs. */
  | { kind: 'key_reused' }
  /** Every NIT sent was invalid or repeated: nothing to watch, nothing saved. */
  | { kind: 'nothing_to_watch'; setAside: SetAsideEntry[] };

/**
 * Saves a list: the valid NITs, each once, in the order sent; invalid and repeated ones are set
 * aside (reported back by position, never kept). The first run is due at once and is the baseline:
 * it reports no change. The list and its entries are written in one statement.
 */
export async function createWatchList(
  integrationId: number,
  input: { name: string; catalog: WatchCatalog; schedule: WatchSchedule; nits: readonly string[]; idempotencyKey?: string; constancias?: boolean },
  transaction?: WatchListTransaction,
): Promise<CreateOutcome> {
  const planned = planItems(input.catalog, input.nits);
  const setAside: SetAsideEntry[] = [];
  const kept: string[] = [];
  planned.forEach((item, index) => {
    if (item.kind === 'lookup') kept.push(item.identifier);
    else setAside.push({ position: index + 1, reason: item.reason });
  });
  if (kept.length === 0) return { kind: 'nothing_to_watch', setAside };
  // Sealed with the purpose of a job's items: a run copies them into its items as they are.
  const entries = kept.map((nit, position) => ({ p: position, i: seal(nit, 'bulk_identifier') }));
  const publicId = newPublicWatchListId();
  const keyHash = input.idempotencyKey === undefined ? null : idempotencyKeyHash(input.idempotencyKey);
  const hash = requestHash(input);
  // Two creations racing with one key: the unique index lets one insert (its entries with it, in
  // the same statement) and the other reads that list.
  const [created] = await rowsIn<{ public_id: string }>(transaction, sql`
    with list as (
      insert into watch_lists (public_id, integration_id, name, catalog, schedule, total_entries, next_run_at, idempotency_key_hash, request_hash, constancias)
      values (${publicId}::text, ${integrationId}::integer, ${input.name}::text, ${input.catalog}::text, ${input.schedule}::text,
              ${entries.length}::integer, now(), ${keyHash}::text, ${hash}::text, ${input.constancias ?? false}::boolean)
      on conflict do nothing
      returning id, public_id
    ),
    entries as (
      insert into watch_list_entries (watch_list_id, position, identifier_sealed)
      select list.id, t.p, t.i from list, jsonb_to_recordset(${JSON.stringify(entries)}::jsonb) as t(p integer, i text)
    )
    select public_id from list`);
  if (!created) {
    if (keyHash === null) throw new Error('a watch list was not saved and had no Idempotency-Key to find it by');
    const [existing] = await rowsIn<{ public_id: string; request_hash: string | null }>(transaction, sql`
      select public_id, request_hash from watch_lists where integration_id = ${integrationId}::integer and idempotency_key_hash = ${keyHash}::text`);
    if (!existing) throw new Error('a watch list was neither saved nor found under its Idempotency-Key');
    if (existing.request_hash !== hash) return { kind: 'key_reused' };
    const list = await readWatchList(integrationId, existing.public_id, transaction);
    if (!list) throw new Error('a watch list vanished while it was read again under its Idempotency-Key');
    return { kind: 'existing', list, setAside };
  }
  const list = await readWatchList(integrationId, publicId, transaction);
  if (!list) throw new Error('a watch list vanished right after it was saved');
  return { kind: 'created', list, setAside };
}

/**
 * What tells two creations with one key apart: everything sent, hashed with the personal-data
 * search key (an HMAC: the NITs are not recoverable from it), as a job's request is.
 */
function requestHash(input: { name: string; catalog: WatchCatalog; schedule: WatchSchedule; nits: readonly string[]; constancias?: boolean }): string {
  // A list without receipts hashes as every list did before they existed.
  const asked = ['vigilancia', input.name, input.catalog, input.schedule, input.nits, ...(input.constancias ? ['constancias'] : [])];
  return createHmac('sha256', personalDataKeys().search.key).update(JSON.stringify(asked), 'utf8').digest('base64url');
}

type ListRow = {
  public_id: string;
  name: string;
  catalog: WatchCatalog;
  schedule: WatchSchedule;
  state: WatchListState;
  total_entries: number;
  next_run_at: string | Date;
  created_at: string | Date;
  runs: number;
  last_job: string | null;
  last_state: string | null;
  last_created: string | Date | null;
  last_finished: string | Date | null;
  last_changes: string | number | null;
  changes: string | number;
  constancias: boolean;
};

const LIST_COLUMNS = sql`
  w.public_id, w.name, w.catalog, w.schedule, w.state, w.total_entries, w.next_run_at, w.created_at, w.runs,
  r.public_id as last_job, r.state as last_state, r.created_at as last_created, r.finished_at as last_finished,
  (select count(*) from watch_list_changes c where c.watch_list_id = w.id and c.run = r.watch_list_run) as last_changes,
  w.changes_total as changes, w.constancias`;

const LAST_RUN = sql`left join lateral (
    select j.public_id, j.state, j.created_at, j.finished_at, j.watch_list_run from bulk_jobs j
     where j.watch_list_id = w.id order by j.watch_list_run desc limit 1) r on true`;

function viewOf(row: ListRow): WatchListView {
  return {
    publicId: row.public_id,
    name: row.name,
    catalog: row.catalog,
    schedule: row.schedule,
    state: row.state,
    entries: Number(row.total_entries),
    nextRunAt: new Date(row.next_run_at),
    createdAt: new Date(row.created_at),
    runs: Number(row.runs),
    lastRun:
      row.last_job === null
        ? null
        : {
            jobId: row.last_job,
            state: row.last_state!,
            createdAt: new Date(row.last_created!),
            finishedAt: row.last_finished === null ? null : new Date(row.last_finished),
            changes: Number(row.last_changes ?? 0),
          },
    changes: Number(row.changes),
    constancias: row.constancias === true,
  };
}

/** The list as its integration sees it; null for an unknown id and for another integration's. */
export async function readWatchList(integrationId: number, publicId: string, transaction?: WatchListTransaction): Promise<WatchListView | null> {
  if (!isPublicWatchListId(publicId)) return null;
  const [row] = await rowsIn<ListRow>(transaction, sql`
    select ${LIST_COLUMNS} from watch_lists w ${LAST_RUN}
     where w.integration_id = ${integrationId}::integer and w.public_id = ${publicId}::text`);
  return row ? viewOf(row) : null;
}

export const WATCH_LISTS_PAGE_SIZE = 50;

/**
 * The integration's lists, newest first, a page at a time: `after` is the previous page's `next`
 * (the public id of its last list), absent for the first page.
 */
export async function listWatchLists(integrationId: number, after?: string): Promise<{ lists: WatchListView[]; next?: string }> {
  const handle = await database();
  const from =
    after !== undefined && isPublicWatchListId(after)
      ? sql`and (w.created_at, w.id) < (select a.created_at, a.id from watch_lists a where a.integration_id = ${integrationId}::integer and a.public_id = ${after}::text)`
      : sql``;
  const rows = await handle.rows<ListRow>(sql`
    select ${LIST_COLUMNS} from watch_lists w ${LAST_RUN}
     where w.integration_id = ${integrationId}::integer ${from}
     order by w.created_at desc, w.id desc limit ${WATCH_LISTS_PAGE_SIZE + 1}::integer`);
  const lists = rows.slice(0, WATCH_LISTS_PAGE_SIZE).map(viewOf);
  return { lists, next: rows.length > WATCH_LISTS_PAGE_SIZE ? lists[lists.length - 1]!.publicId : undefined };
}

/** Stops its schedule: no run starts while paused (a run already going finishes). */
export async function pauseWatchList(integrationId: number, publicId: string, transaction?: WatchListTransaction): Promise<WatchListView | null> {
  return setState(integrationId, publicId, 'en_pausa', transaction);
}

/**
 * Its schedule again: when its next instant passed while it was paused, it runs at the scheduler's
 * next look, once, and then on its schedule from that instant on.
 */
export async function resumeWatchList(integrationId: number, publicId: string, transaction?: WatchListTransaction): Promise<WatchListView | null> {
  return setState(integrationId, publicId, 'activa', transaction);
}

async function setState(integrationId: number, publicId: string, state: WatchListState, transaction?: WatchListTransaction): Promise<WatchListView | null> {
  if (!isPublicWatchListId(publicId)) return null;
  await rowsIn(transaction, sql`
    update watch_lists set state = ${state}::text where integration_id = ${integrationId}::integer and public_id = ${publicId}::text`);
  return readWatchList(integrationId, publicId, transaction);
}

/**
 * Deletes the list, its NITs, their last known states and its changes (personal data kept no longer
 * than the list). A run still going is cancelled first, so nothing more is charged for a list the
 * integrator no longer wants; finished runs stay as ordinary jobs until their retention ends.
 * False for an unknown id and for another integration's.
 */
export async function deleteWatchList(integrationId: number, publicId: string, transaction?: WatchListTransaction): Promise<boolean> {
  if (!isPublicWatchListId(publicId)) return false;
  if (!transaction) return (await db()).transaction((tx) => deleteWatchList(integrationId, publicId, tx));
  // Its runs' rows before the list's: comparing a finished run (computeRunChanges) takes the run's
  // row and then changes the list's entries and row, and this delete changes every run's row
  // (cancelling one still going; ON DELETE SET NULL). Taking the list's row first, the two
  // deadlocked and PostgreSQL aborted one: the DELETE answered 500 (lib/flows/watch-lists/delete.test.ts).
  await rowsIn(transaction, sql`
    select j.id from bulk_jobs j join watch_lists w on w.id = j.watch_list_id
     where w.integration_id = ${integrationId}::integer and w.public_id = ${publicId}::text
     order by j.id for update of j`);
  // Then the list's row: the scheduler claims a due list FOR UPDATE SKIP LOCKED, so no run
  // can start between this look for running runs and the delete (a run started there would have
  // outlived its list, charging for NITs the integrator no longer watches).
  const [list] = await rowsIn<{ id: number }>(transaction, sql`
    select id from watch_lists where integration_id = ${integrationId}::integer and public_id = ${publicId}::text for update`);
  if (!list) return false;
  const running = await rowsIn<{ public_id: string }>(transaction, sql`
    select public_id from bulk_jobs where watch_list_id = ${Number(list.id)}::integer and state not in ('completado', 'cancelado')`);
  // Cancelled inside this transaction: its notice is due from the same statement, and whichever
  // runner tells it later knows the job as a run (watch_list_run stays), so no lote_completado.
  for (const run of running) await cancelJob(integrationId, run.public_id, transaction);
  await rowsIn(transaction, sql`delete from watch_lists where id = ${Number(list.id)}::integer`);
  return true;
}
