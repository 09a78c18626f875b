// The integration is told when its bulk jobs end or pause: lib/flows/bulk emits
// (lib/flows/bulk/events.ts), this subscribes, reads the job as its integration sees it and queues the
// notice through the outbox, whose key (the job's id; for a pause, also its instant) makes it one
// notice across instances.
import { eq } from 'drizzle-orm';
import { db } from '@/db/client';
import { bulkJobs, integrations } from '@/db/schema';
import { onBulkJobEvent, type BulkJobEvent } from '@/lib/flows/bulk/events';
import { readJob } from '@/lib/flows/bulk/jobs';
import { catalogPathName } from '@/lib/vocabulary/lookups';
import { bulkJobFinished, type BulkJobFacts } from './kinds/bulk-job-finished';
import { bulkJobPaused } from './kinds/bulk-job-paused';
import { integratorNotifier, type IntegratorNotifier } from './notifier';
import { processSlot } from '@/lib/platform/runtime/process-state';

/** Queues the notice of one job event (the emitter logs a failure; the job's change stands). */
export async function noteBulkJobEvent(notifier: IntegratorNotifier, event: BulkJobEvent): Promise<void> {
  const job = await readJob(event.integrationId, event.publicId);
  const [integration] = await (await db())
    .select({ id: integrations.id, nombre: integrations.nombre, balanceCentavos: integrations.balanceCentavos })
    .from(integrations)
    .where(eq(integrations.id, event.integrationId));
  if (!job || !integration) return;
  // A watch list's run tells only what changed (lib/reactions/integrator-notifications/watch-lists.ts), not
  // that it ended; a pause for balance is told as any job's.
  if (event.kind === 'finished' && (await isWatchListRun(event.jobId))) return;
  const facts: BulkJobFacts = {
    publicId: job.publicId,
    catalog: catalogPathName(job.catalog),
    state: event.kind === 'finished' ? event.state : 'en_pausa_sin_saldo',
    counts: job.counts,
    chargedCentavos: job.chargedCentavos,
    finishedAt: job.finishedAt,
  };
  const who = { id: integration.id, nombre: integration.nombre };
  await notifier.record(
    event.kind === 'finished'
      ? bulkJobFinished.draft({ integration: who, job: facts }, notifier.settings)
      : bulkJobPaused.draft({ integration: who, job: facts, pausedAt: event.pausedAt, balanceCentavos: Number(integration.balanceCentavos) }, notifier.settings),
  );
}

/** By its run number, which stays when the list is deleted (watch_list_id is cleared then). */
async function isWatchListRun(jobId: number): Promise<boolean> {
  const [row] = await (await db()).select({ run: bulkJobs.watchListRun }).from(bulkJobs).where(eq(bulkJobs.id, jobId));
  return row?.run != null;
}

/** Subscribes this process's notifier to its bulk jobs' events, once (lib/root/startup.ts). */
export function tellBulkJobEvents(): void {
  processSlot('bulkJobNotices', () => onBulkJobEvent((event) => noteBulkJobEvent(integratorNotifier(), event)));
}
