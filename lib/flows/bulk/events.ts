// What happens to a bulk job that others want to know: it ended, or it paused
// for lack of balance. lib/flows/bulk only emits; the integrator notifications subscribe
// (lib/reactions/integrator-notifications/bulk-jobs.ts), so the jobs' core never imports the notifier and the
// notifier may read jobs without a circle. Emitted by the instance whose statement made the change
// (the one whose UPDATE … RETURNING got the row), so each change is emitted once across instances;
// emitted again only if that instance died or a listener failed before all were told
// (lib/flows/bulk/notices.ts), so a listener must take a repeat of an event as the same event.
import { logger } from '@/lib/platform/logging/logger';
import { domainEvent } from '@/lib/platform/events/domain-event';

const log = logger('bulk');

export interface BulkJobRef {
  /** bulk_jobs.id: stays inside the service. */
  jobId: number;
  /** What the integrator knows the job by. */
  publicId: string;
  integrationId: number;
}

export type BulkJobEvent =
  | (BulkJobRef & { kind: 'finished'; state: 'completado' | 'cancelado' })
  /** `pausedAt` names this pause: a job paused again after a top-up is told again. */
  | (BulkJobRef & { kind: 'paused'; pausedAt: Date });

export type BulkJobListener = (event: BulkJobEvent) => Promise<void> | void;

const bulkJobChanged = domainEvent<BulkJobEvent>('bulk.job_changed');

/** Subscribes; returns the unsubscribe. */
export function onBulkJobEvent(listener: BulkJobListener): () => void {
  return bulkJobChanged.subscribe(listener);
}

/**
 * Tells every listener and waits for them; a listener that fails never fails the job's change.
 * True when every listener took it (lib/flows/bulk/notices.ts tells it again otherwise).
 */
export async function emitBulkJobEvent(event: BulkJobEvent): Promise<boolean> {
  const failures = await bulkJobChanged.settle(event);
  for (const error of failures) log.error({ err: error, bulkJob: event.jobId, event: event.kind }, 'a bulk job listener failed');
  return failures.length === 0;
}
