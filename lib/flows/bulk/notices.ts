// A job's change (ended, paused for balance) and the duty to tell it commit together: the statement
// that changes the job also sets bulk_jobs.notice_due_at, and the mark is cleared only once every
// listener of lib/flows/bulk/events.ts took the event (the integrators' notifier queues its outbox row,
// keyed so that the notice is one however often it is queued). An instance killed between the
// change and the outbox row, or a listener that failed, leaves the mark; the runner's upkeep on any
// instance finds it and tells the change again (docs/decisions.md, "Told, not polled").
import { sql } from 'drizzle-orm';
import { database } from '@/db/client';
import type { BulkJobState } from '@/db/schema';
import { emitBulkJobEvent, type BulkJobEvent } from './events';

/** A change to tell, with the mark its statement set (as the database's text, microseconds kept). */
export interface DueNotice {
  event: BulkJobEvent;
  dueAt: string;
}

/**
 * How long a mark may stand before another instance tells its change again: far longer than the
 * instance that made the change takes to tell it (a read and an insert), so a live instance's
 * notice is never queued twice by the sweep (the outbox key would stop a second one anyway).
 */
export const NOTICE_OVERDUE_SECONDS = 60;

/** Tells the change; clears its mark when every listener took it and no later change set a new one. */
export async function tellJobChange(notice: DueNotice): Promise<void> {
  if (await emitBulkJobEvent(notice.event)) await clearMark(notice.event.jobId, notice.dueAt);
}

async function clearMark(jobId: number, dueAt: string): Promise<void> {
  await (await database()).rows(sql`update bulk_jobs set notice_due_at = null where id = ${jobId}::integer and notice_due_at = ${dueAt}::timestamptz`);
}

type MarkedJob = { id: number; public_id: string; integration_id: number; state: BulkJobState; paused_at: string | Date | null; notice_due_at: string };

/**
 * Tells again the changes whose mark is older than `olderThanSeconds`; returns how many. Each mark
 * is taken by one instance (SKIP LOCKED, then moved to now: the next look is a full delay later).
 */
export async function tellOverdueJobChanges(olderThanSeconds = NOTICE_OVERDUE_SECONDS): Promise<number> {
  const marked = await (await database()).rows<MarkedJob>(sql`
    with overdue as (
      select id from bulk_jobs
       where notice_due_at is not null and notice_due_at <= now() - make_interval(secs => ${olderThanSeconds}::integer)
       order by notice_due_at limit 100
       for update skip locked
    )
    update bulk_jobs j set notice_due_at = now() from overdue o where j.id = o.id
    returning j.id, j.public_id, j.integration_id, j.state, j.paused_at, j.notice_due_at::text as notice_due_at`);
  for (const job of marked) {
    const event = eventOf(job);
    if (event) await tellJobChange({ event, dueAt: job.notice_due_at });
    else await clearMark(Number(job.id), job.notice_due_at);
  }
  return marked.length;
}

/** The change a mark stands for, read from the job as it is now. */
function eventOf(job: MarkedJob): BulkJobEvent | null {
  const ref = { jobId: Number(job.id), publicId: job.public_id, integrationId: Number(job.integration_id) };
  if (job.state === 'completado' || job.state === 'cancelado') return { ...ref, kind: 'finished', state: job.state };
  // A pause not yet told, whether or not a top-up has resumed it since: the integrator was not told
  // of it, and its notice names that pause by its instant.
  if (job.paused_at !== null) return { ...ref, kind: 'paused', pausedAt: new Date(job.paused_at) };
  return null;
}
