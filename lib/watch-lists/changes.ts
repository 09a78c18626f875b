// A watch list's changes as its integration reads them (GET /api/vigilancias/{id}/cambios, the
// portal): newest run first, in the list's order within a run, a page at a time. The NIT, before and
// after are opened from their sealed form only on the way out, for the list's own integration.
import { sql } from 'drizzle-orm';
import { database } from '@/db/client';
import type { WatchListChangeKind } from '@/db/schema';
import { open } from '@/lib/personal-data/envelope';
import { isPublicWatchListId } from './lists';

export const WATCH_CHANGES_PAGE_SIZE = 100;

export interface WatchListChange {
  nit: string;
  kind: WatchListChangeKind;
  /** The watched field's value in the previous run, and in this one (registro: encontrado | no_encontrado). */
  before: string | boolean | null;
  after: string | boolean | null;
  /** The run (1 is the baseline, which never has changes) and its job as the integrator knows it. */
  run: number;
  jobId: string;
  detectedAt: Date;
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

/**
 * A page of the list's changes after `cursor` (the previous page's `next`). Null for an unknown
 * list and for another integration's; `invalid_cursor` for a cursor this function did not give.
 */
export async function listWatchListChanges(integrationId: number, publicId: string, cursor?: string): Promise<ChangesPage | null | 'invalid_cursor'> {
  if (!isPublicWatchListId(publicId)) return null;
  const from = cursor === undefined ? null : decodeCursor(cursor);
  if (cursor !== undefined && from === null) return 'invalid_cursor';
  const handle = await database();
  const [list] = await handle.rows<{ id: number }>(sql`
    select id from watch_lists where integration_id = ${integrationId}::integer and public_id = ${publicId}::text`);
  if (!list) return null;
  const after = from === null ? sql`` : sql`and (-c.run, c.position, ${KIND_ORDER}) > (${-from[0]}::integer, ${from[1]}::integer, ${from[2]}::integer)`;
  const rows = await handle.rows<{
    run: number;
    position: number;
    kind: WatchListChangeKind;
    kind_order: number;
    job_public_id: string;
    before_sealed: string;
    after_sealed: string;
    detected_at: string | Date;
    identifier_sealed: string;
  }>(sql`
    select c.run, c.position, c.kind, ${KIND_ORDER} as kind_order, c.job_public_id, c.before_sealed, c.after_sealed, c.detected_at, e.identifier_sealed
      from watch_list_changes c join watch_list_entries e on e.watch_list_id = c.watch_list_id and e.position = c.position
     where c.watch_list_id = ${Number(list.id)}::integer ${after}
     order by c.run desc, c.position, kind_order
     limit ${WATCH_CHANGES_PAGE_SIZE + 1}::integer`);
  const page = rows.slice(0, WATCH_CHANGES_PAGE_SIZE);
  const last = page[page.length - 1];
  return {
    changes: page.map((row) => ({
      nit: open(row.identifier_sealed, 'bulk_identifier'),
      kind: row.kind,
      before: JSON.parse(open(row.before_sealed, 'watch_snapshot')) as string | boolean | null,
      after: JSON.parse(open(row.after_sealed, 'watch_snapshot')) as string | boolean | null,
      run: Number(row.run),
      jobId: row.job_public_id,
      detectedAt: new Date(row.detected_at),
    })),
    next: rows.length > WATCH_CHANGES_PAGE_SIZE && last ? encodeCursor(Number(last.run), Number(last.position), Number(last.kind_order)) : undefined,
  };
}
