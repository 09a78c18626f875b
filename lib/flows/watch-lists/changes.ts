// A watch list's changes as its integration reads them (GET /api/vigilancias/{id}/cambios, the
// portal): newest run first, in the list's order within a run, a page at a time. The NIT, before and
// after are opened from their sealed form only on the way out, for the list's own integration.
import { sql, type SQL } from 'drizzle-orm';
import { database } from '@/db/client';
import type { WatchListChangeKind } from '@/db/schema';
import { CATALOG_CSV_COLUMNS } from '@/lib/flows/bulk/results';
import { open, openNullable } from '@/lib/core/sealing/envelope';
import { isPublicWatchListId } from './lists';
import type { WatchCatalog } from './snapshot';

export const WATCH_CHANGES_PAGE_SIZE = 100;

export interface WatchListChange {
  nit: string;
  kind: WatchListChangeKind;
  /** The watched field's value in the previous run, and in this one (registro: encontrado | no_encontrado). */
  before: string | boolean | null;
  after: string | boolean | null;
  /** The run (1 is the baseline, which never has changes) and its job as the integrator knows it. */
  run: number;
  /** The entry's place among the list's kept NITs (from 0): with the run and kind it names a change without its NIT. */
  position: number;
  jobId: string;
  detectedAt: Date;
  /** The receipt of the run's answer that showed it (a list with constancias, an entry found). */
  constanciaId: string | null;
}

/** A change with the taxpayer's name, for people (the portal's reveal and download). */
export interface NamedWatchListChange extends WatchListChange {
  /**
   * The name in this run's answer, or in the latest earlier run's that found the NIT (one that is
   * no longer found has none in its own run); null when no kept answer names it (a job's results
   * are deleted 30 days after it ends).
   */
  name: string | null;
}

/** The run, position and kind that name one change (what the portal's reveal sends, no NIT). */
export interface WatchListChangeKey {
  run: number;
  position: number;
  kind: WatchListChangeKind;
}

const KIND_ORDER = sql`case c.kind when 'registro' then 0 when 'omiso' then 1 when 'cobro_coactivo' then 2 else 3 end`;

/** An opaque cursor: the run, position and kind of the last change of a page. */
function encodeCursor(run: number, position: number, kind: number): string {
  return Buffer.from(`${run}.${position}.${kind}`, 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): [number, number, number] | null {
  const parts = Buffer.from(cursor, 'base64url').toString('utf8').split('.');
  if (parts.length !== 3 || !parts.every((part) => /^[0-9]{1,9}$/.test(part))) return null;
  return parts.map(Number) as [number, number, number];
}

export type ChangesPage = { changes: WatchListChange[]; next?: string };

type ChangeRow = {
  run: number;
  position: number;
  kind: WatchListChangeKind;
  kind_order: number;
  job_public_id: string;
  before_sealed: string;
  after_sealed: string;
  detected_at: string | Date;
  identifier_sealed: string;
  result_sealed?: string | null;
  constancia_id: string | null;
};

type Handle = Awaited<ReturnType<typeof database>>;

/** The list's id and catalog, only for its own integration. */
async function ownList(handle: Handle, integrationId: number, publicId: string): Promise<{ id: number; catalog: WatchCatalog } | null> {
  if (!isPublicWatchListId(publicId)) return null;
  const [list] = await handle.rows<{ id: number; catalog: WatchCatalog }>(sql`
    select id, catalog from watch_lists where integration_id = ${integrationId}::integer and public_id = ${publicId}::text`);
  return list ? { id: Number(list.id), catalog: list.catalog } : null;
}

/**
 * The list's changes matching `where`, in the API's order. With `named`, each row carries the sealed
 * answer its name is read from: the newest run up to the change's whose job item at that position
 * has one (bulk_jobs_watch_list_idx, then the item's key).
 */
function changeRows(handle: Handle, listId: number, where: SQL, limit: number, named: boolean): Promise<ChangeRow[]> {
  const answer = named
    ? sql`, (select i.result_sealed from bulk_jobs j join bulk_job_items i on i.job_id = j.id and i.position = c.position
             where j.watch_list_id = c.watch_list_id and j.watch_list_run <= c.run and i.result_sealed is not null
             order by j.watch_list_run desc limit 1) as result_sealed`
    : sql``;
  return handle.rows<ChangeRow>(sql`
    select c.run, c.position, c.kind, ${KIND_ORDER} as kind_order, c.job_public_id, c.before_sealed, c.after_sealed, c.detected_at, e.identifier_sealed,
           (select i.constancia_id from bulk_jobs j join bulk_job_items i on i.job_id = j.id and i.position = c.position
             where j.public_id = c.job_public_id) as constancia_id ${answer}
      from watch_list_changes c join watch_list_entries e on e.watch_list_id = c.watch_list_id and e.position = c.position
     where c.watch_list_id = ${listId}::integer ${where}
     order by c.run desc, c.position, kind_order
     limit ${limit}::integer`);
}

function changeOf(row: ChangeRow): WatchListChange {
  return {
    nit: open(row.identifier_sealed, 'bulk_identifier'),
    kind: row.kind,
    before: JSON.parse(open(row.before_sealed, 'watch_snapshot')) as string | boolean | null,
    after: JSON.parse(open(row.after_sealed, 'watch_snapshot')) as string | boolean | null,
    run: Number(row.run),
    position: Number(row.position),
    jobId: row.job_public_id,
    detectedAt: new Date(row.detected_at),
    constanciaId: row.constancia_id,
  };
}

/** The taxpayer's name in a kept answer, read as the results CSV reads its `nombre` column. */
function nameOf(catalog: WatchCatalog, resultSealed: string | null | undefined): string | null {
  const result = openNullable(resultSealed ?? null, 'bulk_result');
  if (result === null) return null;
  const columns = CATALOG_CSV_COLUMNS[catalog];
  return columns.cells(JSON.parse(result))[columns.headers.indexOf('nombre')] ?? null;
}

/**
 * A page of the list's changes after `cursor` (the previous page's `next`). Null for an unknown
 * list and for another integration's; `invalid_cursor` for a cursor this function did not give.
 */
export async function listWatchListChanges(integrationId: number, publicId: string, cursor?: string): Promise<ChangesPage | null | 'invalid_cursor'> {
  const page = await changesPage(integrationId, publicId, cursor, {});
  if (page === null || page === 'invalid_cursor') return page;
  // Without the name: the API's page is the integrator's systems', which keep their own.
  return { changes: page.changes.map(({ name, ...change }) => (void name, change)), next: page.next };
}

/**
 * As listWatchListChanges, for people: each change with the taxpayer's name, and only one run's
 * changes when `run` is given.
 */
export async function listNamedWatchListChanges(
  integrationId: number,
  publicId: string,
  cursor: string | undefined,
  options: { run?: number; pageSize?: number } = {},
): Promise<{ changes: NamedWatchListChange[]; next?: string } | null | 'invalid_cursor'> {
  return changesPage(integrationId, publicId, cursor, { ...options, named: true });
}

async function changesPage(
  integrationId: number,
  publicId: string,
  cursor: string | undefined,
  options: { run?: number; pageSize?: number; named?: boolean },
): Promise<{ changes: NamedWatchListChange[]; next?: string } | null | 'invalid_cursor'> {
  if (!isPublicWatchListId(publicId)) return null;
  const from = cursor === undefined ? null : decodeCursor(cursor);
  if (cursor !== undefined && from === null) return 'invalid_cursor';
  const handle = await database();
  const list = await ownList(handle, integrationId, publicId);
  if (!list) return null;
  const pageSize = options.pageSize ?? WATCH_CHANGES_PAGE_SIZE;
  const after = from === null ? sql`` : sql`and (-c.run, c.position, ${KIND_ORDER}) > (${-from[0]}::integer, ${from[1]}::integer, ${from[2]}::integer)`;
  const run = options.run === undefined ? sql`` : sql`and c.run = ${options.run}::integer`;
  const rows = await changeRows(handle, list.id, sql`${after} ${run}`, pageSize + 1, options.named === true);
  const page = rows.slice(0, pageSize);
  const last = page[page.length - 1];
  return {
    changes: page.map((row) => ({ ...changeOf(row), name: options.named ? nameOf(list.catalog, row.result_sealed) : null })),
    next: rows.length > pageSize && last ? encodeCursor(Number(last.run), Number(last.position), Number(last.kind_order)) : undefined,
  };
}

/** One change of the list with its name, by its run, position and kind; null when the list or the change is not the integration's. */
export async function readNamedWatchListChange(integrationId: number, publicId: string, key: WatchListChangeKey): Promise<NamedWatchListChange | null> {
  const handle = await database();
  const list = await ownList(handle, integrationId, publicId);
  if (!list) return null;
  const [row] = await changeRows(handle, list.id, sql`and c.run = ${key.run}::integer and c.position = ${key.position}::integer and c.kind = ${key.kind}::text`, 1, true);
  return row ? { ...changeOf(row), name: nameOf(list.catalog, row.result_sealed) } : null;
}
