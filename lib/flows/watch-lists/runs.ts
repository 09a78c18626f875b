// A watch list's runs (Vigilancia): the scheduler that starts each due list's run as an ordinary
// bulk job, once across instances, and the comparison that turns a finished run into changes, once.
// docs/decisions.md, "Vigilancia", says why each step is where it is.
import { sql } from 'drizzle-orm';
import { db, rowsIn } from '@/db/client';
import type { BulkItemStatus, WatchListChangeKind } from '@/db/schema';
import { idempotencyKeyHash } from '@/lib/core/idempotency/key';
import { onBulkJobEvent } from '@/lib/flows/bulk/events';
import { newPublicJobId } from '@/lib/flows/bulk/jobs';
import { openNullable, seal } from '@/lib/core/sealing/envelope';
import { changesBetween, NOT_FOUND_STATE, watchedStateOf, type WatchCatalog, type WatchedState } from './snapshot';
import { nextRunFrom, type WatchSchedule } from './schedule';
import { logger } from '@/lib/platform/logging/logger';
import { emitWatchListChanges, type RunChanges } from './events';
import { processSlot } from '@/lib/platform/runtime/process-state';

const log = logger('watch-lists');

/** How many due lists one tick starts: the rest wait for the next tick (each run can be 10,000 items). */
const LISTS_PER_TICK = 10;

/**
 * A run's key in the jobs' unique index (integration, key hash): the list and the instant it was
 * due, so a replay of the same run finds the same job. A NUL cannot be part of an Idempotency-Key
 * an integrator sends (printable ASCII only), so no submission can take a run's place.
 */
function runKeyHash(listPublicId: string, scheduled: Date): string {
  return idempotencyKeyHash(`\u0000vigilancia:${listPublicId}:${scheduled.toISOString()}`);
}

export interface StartedRun {
  listPublicId: string;
  jobPublicId: string;
  run: number;
}

/**
 * Starts the run of every list due at `now` (at most LISTS_PER_TICK): in one transaction per list,
 * claimed FOR UPDATE SKIP LOCKED so two instances (or two ticks) never start the same list, its job
 * and items inserted as a submitted job's are, and its next instant set. A list whose previous run
 * is still going (running or paused) is not due: it starts once that run has ended.
 */
export async function startDueRuns(now = new Date()): Promise<StartedRun[]> {
  const handle = await db();
  const started: StartedRun[] = [];
  for (let index = 0; index < LISTS_PER_TICK; index++) {
    const run = await handle.transaction(async (tx) => {
      const [list] = await rowsIn<{
        id: number;
        public_id: string;
        integration_id: number;
        catalog: WatchCatalog;
        schedule: WatchSchedule;
        next_run_at: string | Date;
        runs: number;
        total_entries: number;
        constancias: boolean;
      }>(
        tx,
        sql`
        select w.id, w.public_id, w.integration_id, w.catalog, w.schedule, w.next_run_at, w.runs, w.total_entries, w.constancias
          from watch_lists w
         where w.state = 'activa' and w.next_run_at <= ${now.toISOString()}::timestamptz
           and not exists (select 1 from bulk_jobs j where j.watch_list_id = w.id and j.state not in ('completado', 'cancelado'))
         order by w.next_run_at, w.id
         limit 1
         for update of w skip locked`,
      );
      if (!list) return null;
      const scheduled = new Date(list.next_run_at);
      const keyHash = runKeyHash(list.public_id, scheduled);
      const number = Number(list.runs) + 1;
      const [job] = await rowsIn<{ public_id: string }>(
        tx,
        sql`
        with job as (
          insert into bulk_jobs (public_id, integration_id, catalog, idempotency_key_hash, request_hash, total_items, watch_list_id, watch_list_run, constancias)
          values (${newPublicJobId()}::text, ${Number(list.integration_id)}::integer, ${list.catalog}::text, ${keyHash}::text, ${keyHash}::text,
                  ${Number(list.total_entries)}::integer, ${Number(list.id)}::integer, ${number}::integer, ${list.constancias}::boolean)
          on conflict (integration_id, idempotency_key_hash) do nothing
          returning id, public_id
        ),
        items as (
          insert into bulk_job_items (job_id, position, identifier_sealed, status)
          select job.id, e.position, e.identifier_sealed, 'pendiente'
            from job, watch_list_entries e where e.watch_list_id = ${Number(list.id)}::integer
        )
        select public_id from job`,
      );
      await tx.execute(sql`
        update watch_lists set next_run_at = ${nextRunFrom(list.schedule, scheduled, now).toISOString()}::timestamptz,
               runs = runs + ${job ? 1 : 0}::integer
         where id = ${Number(list.id)}::integer`);
      return job ? { listPublicId: list.public_id, jobPublicId: job.public_id, run: number } : { listPublicId: list.public_id, jobPublicId: '', run: 0 };
    });
    if (!run) break;
    if (run.jobPublicId !== '') started.push(run);
  }
  return started;
}

export type { RunChanges };

/**
 * Compares a completed run's answers with its list's last known states and writes the changes and
 * the new states, all in one transaction that first takes the run (changes_computed_at, UPDATE …
 * RETURNING): a run is compared once however many instances try. A cancelled run is taken and
 * compares nothing. An item that failed at its source (or never ran) keeps its entry's old state;
 * an entry with no state yet (the first run) gets one and reports nothing.
 */
export async function computeRunChanges(jobId: number): Promise<RunChanges | null> {
  const handle = await db();
  const computed = await handle.transaction(async (tx) => {
    const [job] = await rowsIn<{ public_id: string; state: string; watch_list_id: number | null; watch_list_run: number; integration_id: number; constancias: boolean }>(
      tx,
      sql`
      update bulk_jobs set changes_computed_at = now()
       where id = ${jobId}::integer and watch_list_id is not null and changes_computed_at is null and state in ('completado', 'cancelado')
      returning public_id, state, watch_list_id, watch_list_run, integration_id, constancias`,
    );
    if (!job || job.state !== 'completado' || job.watch_list_id === null) return null;
    const listId = Number(job.watch_list_id);
    const [list] = await rowsIn<{ public_id: string; name: string; catalog: WatchCatalog }>(tx, sql`select public_id, name, catalog from watch_lists where id = ${listId}::integer`);
    if (!list) return null;
    const items = await rowsIn<{ position: number; status: BulkItemStatus; result_sealed: string | null; snapshot_sealed: string | null }>(
      tx,
      sql`
      select i.position, i.status, i.result_sealed, e.snapshot_sealed
        from bulk_job_items i join watch_list_entries e on e.watch_list_id = ${listId}::integer and e.position = i.position
       where i.job_id = ${jobId}::integer and i.status in ('encontrado', 'no_encontrado')
       order by i.position`,
    );
    const snapshots: { p: number; s: string }[] = [];
    const changes: { p: number; k: WatchListChangeKind; b: string; a: string }[] = [];
    for (const item of items) {
      const data = openNullable(item.result_sealed, 'bulk_result');
      const after: WatchedState = item.status === 'encontrado' && data !== null ? watchedStateOf(list.catalog, JSON.parse(data)) : NOT_FOUND_STATE;
      const stored = openNullable(item.snapshot_sealed, 'watch_snapshot');
      if (stored !== null) {
        for (const change of changesBetween(JSON.parse(stored) as WatchedState, after)) {
          changes.push({ p: Number(item.position), k: change.kind, b: seal(JSON.stringify(change.before), 'watch_snapshot'), a: seal(JSON.stringify(change.after), 'watch_snapshot') });
        }
      }
      snapshots.push({ p: Number(item.position), s: seal(JSON.stringify(after), 'watch_snapshot') });
    }
    if (snapshots.length > 0) {
      await tx.execute(sql`
        update watch_list_entries e set snapshot_sealed = t.s, seen_at = now()
          from jsonb_to_recordset(${JSON.stringify(snapshots)}::jsonb) as t(p integer, s text)
         where e.watch_list_id = ${listId}::integer and e.position = t.p`);
    }
    if (changes.length > 0) {
      await tx.execute(sql`update watch_lists set changes_total = changes_total + ${changes.length}::integer where id = ${listId}::integer`);
      await tx.execute(sql`
        insert into watch_list_changes (watch_list_id, run, position, kind, job_public_id, before_sealed, after_sealed)
        select ${listId}::integer, ${Number(job.watch_list_run)}::integer, t.p, t.k, ${job.public_id}::text, t.b, t.a
          from jsonb_to_recordset(${JSON.stringify(changes)}::jsonb) as t(p integer, k text, b text, a text)`);
    }
    const counts: RunChanges['counts'] = {};
    for (const change of changes) counts[change.k] = (counts[change.k] ?? 0) + 1;
    return {
      integrationId: Number(job.integration_id),
      listPublicId: list.public_id,
      listName: list.name,
      jobPublicId: job.public_id,
      run: Number(job.watch_list_run),
      counts,
      total: changes.length,
      constancias: job.constancias === true,
    } satisfies RunChanges;
  });
  return computed;
}

/**
 * A run's changes as they were written, for telling them again: the comparison committed, then its
 * instance died (or a listener failed) before the notice was queued. Null for a run not yet
 * compared, a cancelled one, or a job that is no run.
 */
export async function readRunChanges(jobId: number): Promise<RunChanges | null> {
  const handle = await db();
  const [job] = await rowsIn<{ public_id: string; integration_id: number; watch_list_id: number; watch_list_run: number; list_public_id: string; list_name: string; constancias: boolean }>(
    handle,
    sql`
    select j.public_id, j.integration_id, j.watch_list_id, j.watch_list_run, w.public_id as list_public_id, w.name as list_name, j.constancias
      from bulk_jobs j join watch_lists w on w.id = j.watch_list_id
     where j.id = ${jobId}::integer and j.state = 'completado' and j.changes_computed_at is not null`,
  );
  if (!job) return null;
  const kinds = await rowsIn<{ kind: WatchListChangeKind; count: number }>(
    handle,
    sql`
    select kind, count(*)::integer as count from watch_list_changes
     where watch_list_id = ${Number(job.watch_list_id)}::integer and run = ${Number(job.watch_list_run)}::integer
     group by kind`,
  );
  const counts: RunChanges['counts'] = {};
  let total = 0;
  for (const row of kinds) {
    counts[row.kind] = Number(row.count);
    total += Number(row.count);
  }
  return {
    integrationId: Number(job.integration_id),
    listPublicId: job.list_public_id,
    listName: job.list_name,
    jobPublicId: job.public_id,
    run: Number(job.watch_list_run),
    counts,
    total,
    constancias: job.constancias === true,
  };
}

/**
 * Compares a finished run (or finds it compared) and tells its changes, if any. Called for the
 * job's 'finished' event, which lib/flows/bulk/notices.ts tells again until every listener took it: an
 * instance that died between the comparison's commit and the notice leaves the job's notice due,
 * and the next telling reads the written changes instead of losing them.
 */
export async function tellRunChanges(jobId: number): Promise<void> {
  const changes = (await computeRunChanges(jobId)) ?? (await readRunChanges(jobId));
  if (changes && changes.total > 0) await emitWatchListChanges(changes);
}

/**
 * Runs that ended without their comparison (the instance that completed them died in between, or a
 * cancelled run): compared now. The scheduler's tick calls this on every instance; each run is
 * taken by one.
 */
export async function computePendingRunChanges(): Promise<number> {
  const handle = await db();
  const jobs = (await handle.execute(sql`
    select id from bulk_jobs where watch_list_id is not null and changes_computed_at is null and state in ('completado', 'cancelado')
     order by id limit 20`)) as unknown;
  const rows = (Array.isArray(jobs) ? jobs : (jobs as { rows: { id: number }[] }).rows) as { id: number }[];
  for (const row of rows) {
    // One run that cannot be compared (its transaction rolled back) is logged and left for the next
    // tick: it never keeps the other runs, or the due lists after them, from their turn.
    await tellRunChanges(Number(row.id)).catch((error: unknown) => log.error({ err: error, bulkJob: Number(row.id) }, 'a watch list run could not be compared'));
  }
  return rows.length;
}

/** The scheduler's tick, on every instance (lib/flows/bulk/runner.ts's upkeep): runs left uncompared, then due lists. */
export async function watchListTick(now = new Date()): Promise<StartedRun[]> {
  // Due lists start whatever happened to the comparisons.
  await computePendingRunChanges().catch((error: unknown) => log.error({ err: error }, "the watch lists' runs to compare could not be read"));
  return startDueRuns(now);
}


/**
 * A run that ends on this instance is compared at once (a cancelled one is only marked): the
 * instance whose statement completed the job is told, once. A run whose instance died before this
 * is compared by the next tick's sweep (computePendingRunChanges).
 */
export function compareFinishedRuns(): void {
  processSlot('watchListRuns', () =>
    onBulkJobEvent(async (event) => {
      if (event.kind === 'finished') await tellRunChanges(event.jobId);
    }),
  );
}
