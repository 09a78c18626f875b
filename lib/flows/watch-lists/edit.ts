// Changing a saved watch list in place (PATCH /api/vigilancias/{id}): its name, its schedule, its
// state, and which NITs it watches, keeping its history. A NIT added has no last known state, so
// the next run gives it one and reports nothing for it (as a list's first run); a NIT removed takes
// its entry (sealed NIT and state) and its changes with it, as deleting the whole list does.
import { sql } from 'drizzle-orm';
import { db, rowsIn, type Executor } from '@/db/client';
import { writeAudit, type Actor } from '@/lib/core/audit/audit';
import { MAX_BULK_IDENTIFIERS, planItems, type SetAsideReason } from '@/lib/flows/bulk/identifiers';
import { normalizeNit } from '@/lib/platform/guatemala/identifiers';
import { normalizeTaxIdentifier } from '@/lib/core/sealing/search-keys';
import { open, seal } from '@/lib/core/sealing/envelope';
import { isPublicWatchListId, readWatchList, type WatchListState, type WatchListView } from './lists';
import { nextRunFrom, type WatchSchedule } from './schedule';

export interface WatchListEdit {
  name?: string;
  schedule?: WatchSchedule;
  state?: WatchListState;
  add?: readonly string[];
  remove?: readonly string[];
  /** Whether its next runs ask for a constancia per found entry (the caller checked the integration has them). */
  constancias?: boolean;
}

/** A NIT of the request not acted on, by its 1-based position in the field it came in. */
export interface EditSetAside {
  field: 'add' | 'remove';
  position: number;
  /** duplicado: repeated in the request or already watched; no_vigilado: a removal of a NIT the list does not have. */
  reason: SetAsideReason | 'no_vigilado';
}

export type EditOutcome =
  | { kind: 'edited'; list: WatchListView; setAside: EditSetAside[]; added: number; removed: number }
  /** Unknown id, or another integration's list. */
  | { kind: 'unknown' }
  /** The removals would leave nothing to watch (deleting the list is the way to stop it). */
  | { kind: 'nothing_left' }
  /** The additions would take the list past what one run (one job) may hold. */
  | { kind: 'too_many'; limit: number };

/** The form planItems and the records search compare NITs in: "576937-K" and "576937k" are one NIT. */
function nitKey(nit: string): string {
  return normalizeTaxIdentifier(normalizeNit(nit)) ?? nit;
}

/**
 * Applies the edit in one transaction with an audit row per kind of change (who: `actor`), so
 * "Actividad" tells each of them. The lock order is deleteWatchList's (its runs' rows, then the
 * list's), the order a run's comparison takes them in too.
 */
export async function editWatchList(actor: Actor, integrationId: number, publicId: string, edit: WatchListEdit): Promise<EditOutcome> {
  if (!isPublicWatchListId(publicId)) return { kind: 'unknown' };
  return (await db()).transaction((transaction) => editIn(transaction, actor, integrationId, publicId, edit));
}

async function editIn(transaction: Executor, actor: Actor, integrationId: number, publicId: string, edit: WatchListEdit): Promise<EditOutcome> {
  await rowsIn(transaction, sql`
    select j.id from bulk_jobs j join watch_lists w on w.id = j.watch_list_id
     where w.integration_id = ${integrationId}::integer and w.public_id = ${publicId}::text
     order by j.id for update of j`);
  const [row] = await rowsIn<{ id: number; catalog: 'omisos' | 'rtu'; created_at: string | Date; next_run_at: string | Date }>(transaction, sql`
    select id, catalog, created_at, next_run_at from watch_lists
     where integration_id = ${integrationId}::integer and public_id = ${publicId}::text for update`);
  if (!row) return { kind: 'unknown' };
  const listId = Number(row.id);
  const before = await readWatchList(integrationId, publicId, transaction);
  if (!before) return { kind: 'unknown' };

  const setAside: EditSetAside[] = [];
  let added = 0;
  let removed = 0;
  if ((edit.add?.length ?? 0) > 0 || (edit.remove?.length ?? 0) > 0) {
    const entries = (await rowsIn<{ position: number; identifier_sealed: string }>(transaction, sql`
      select position, identifier_sealed from watch_list_entries where watch_list_id = ${listId}::integer order by position`)).map((entry) => ({
      position: Number(entry.position),
      nit: open(entry.identifier_sealed, 'bulk_identifier'),
    }));
    const byKey = new Map(entries.map((entry) => [nitKey(entry.nit), entry.position]));
    const removing = new Set<number>();
    (edit.remove ?? []).forEach((nit, index) => {
      const [planned] = planItems(row.catalog, [nit]);
      if (planned!.kind === 'set_aside') return setAside.push({ field: 'remove', position: index + 1, reason: planned!.reason });
      const position = byKey.get(nitKey(nit));
      if (position === undefined || removing.has(position)) return setAside.push({ field: 'remove', position: index + 1, reason: position === undefined ? 'no_vigilado' : 'duplicado' });
      removing.add(position);
    });
    // Planned after the NITs the list keeps: one already watched is set aside as a repeated one.
    const kept = entries.filter((entry) => !removing.has(entry.position));
    const additions = planItems(row.catalog, [...kept.map((entry) => entry.nit), ...(edit.add ?? [])]).slice(kept.length);
    const adding: string[] = [];
    additions.forEach((item, index) => {
      if (item.kind === 'lookup') adding.push(item.identifier);
      else setAside.push({ field: 'add', position: index + 1, reason: item.reason });
    });
    if (kept.length + adding.length === 0) return { kind: 'nothing_left' };
    if (kept.length + adding.length > MAX_BULK_IDENTIFIERS) return { kind: 'too_many', limit: MAX_BULK_IDENTIFIERS };
    if (removing.size > 0) {
      const positions = JSON.stringify([...removing]);
      // The changes first: they name their entry by position, and the list's count goes down with them.
      const [gone] = await rowsIn<{ count: number }>(transaction, sql`
        with gone as (
          delete from watch_list_changes where watch_list_id = ${listId}::integer
             and position in (select value::integer from jsonb_array_elements_text(${positions}::jsonb))
          returning 1)
        select count(*)::integer as count from gone`);
      await rowsIn(transaction, sql`
        delete from watch_list_entries where watch_list_id = ${listId}::integer
           and position in (select value::integer from jsonb_array_elements_text(${positions}::jsonb))`);
      await rowsIn(transaction, sql`update watch_lists set changes_total = changes_total - ${Number(gone?.count ?? 0)}::integer where id = ${listId}::integer`);
      removed = removing.size;
    }
    if (adding.length > 0) {
      // A position is never given twice: a run still to be compared (or the names read from an
      // earlier run's answers) matches its items to entries by position, so a new NIT must not
      // take a removed one's place.
      const [top] = await rowsIn<{ top: number | null }>(transaction, sql`
        select greatest(
          (select max(position) from watch_list_entries where watch_list_id = ${listId}::integer),
          (select max(position) from watch_list_changes where watch_list_id = ${listId}::integer),
          (select max(last.position) from bulk_jobs j
             cross join lateral (select i.position from bulk_job_items i where i.job_id = j.id order by i.position desc limit 1) last
            where j.watch_list_id = ${listId}::integer)) as top`);
      const first = top?.top === null || top?.top === undefined ? 0 : Number(top.top) + 1;
      const rows = adding.map((nit, index) => ({ p: first + index, i: seal(nit, 'bulk_identifier') }));
      await rowsIn(transaction, sql`
        insert into watch_list_entries (watch_list_id, position, identifier_sealed)
        select ${listId}::integer, t.p, t.i from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as t(p integer, i text)`);
      added = adding.length;
    }
    if (added > 0 || removed > 0) {
      await rowsIn(transaction, sql`
        update watch_lists set total_entries = (select count(*) from watch_list_entries where watch_list_id = ${listId}::integer) where id = ${listId}::integer`);
    }
  }

  if (edit.name !== undefined && edit.name !== before.name) {
    await rowsIn(transaction, sql`update watch_lists set name = ${edit.name}::text where id = ${listId}::integer`);
  }
  if (edit.schedule !== undefined && edit.schedule !== before.schedule) {
    // "Desde que se crea": the new schedule's next instant after now, counted from the list's
    // creation; a run already due (the baseline not yet started, or a resumed list) stays due.
    const due = new Date(row.next_run_at).getTime() <= Date.now();
    const next = due ? new Date(row.next_run_at) : nextRunFrom(edit.schedule, new Date(row.created_at), new Date());
    await rowsIn(transaction, sql`
      update watch_lists set schedule = ${edit.schedule}::text, next_run_at = ${next.toISOString()}::timestamptz where id = ${listId}::integer`);
  }
  if (edit.state !== undefined && edit.state !== before.state) {
    await rowsIn(transaction, sql`update watch_lists set state = ${edit.state}::text where id = ${listId}::integer`);
  }
  if (edit.constancias !== undefined && edit.constancias !== before.constancias) {
    // From the next run on: a run under way keeps what its job asked for.
    await rowsIn(transaction, sql`update watch_lists set constancias = ${edit.constancias}::boolean where id = ${listId}::integer`);
  }

  const after = await readWatchList(integrationId, publicId, transaction);
  if (!after) throw new Error('a watch list vanished while it was edited');
  // Never a NIT nor the name itself (free text an integrator may fill with anything), as the portal's rows.
  const audit = (action: string, was: Record<string, unknown>, is: Record<string, unknown>) =>
    writeAudit(transaction, actor, { action, targetType: 'integration', targetId: integrationId, before: { vigilancia: publicId, ...was }, after: { vigilancia: publicId, ...is } });
  if (after.name !== before.name) await audit('watch_list.rename', { nombre: 'anterior' }, { nombre: 'nuevo' });
  if (after.schedule !== before.schedule) await audit('watch_list.set_schedule', { frecuencia: before.schedule }, { frecuencia: after.schedule });
  if (after.constancias !== before.constancias) await audit('watch_list.set_constancias', { constancias: before.constancias }, { constancias: after.constancias });
  if (after.state !== before.state) await audit(after.state === 'en_pausa' ? 'watch_list.pause' : 'watch_list.resume', { estado: before.state }, { estado: after.state });
  if (removed > 0) await audit('watch_list.remove_nits', { nits: before.entries }, { nits: before.entries - removed, quitados: removed });
  if (added > 0) await audit('watch_list.add_nits', { nits: before.entries - removed }, { nits: after.entries, agregados: added });
  return { kind: 'edited', list: after, setAside, added, removed };
}
