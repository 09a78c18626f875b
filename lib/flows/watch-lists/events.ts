// A watch list's run that found changes (Vigilancia): lib/flows/watch-lists only emits, the integrator
// notifications subscribe (lib/reactions/integrator-notifications/watch-lists.ts), as lib/flows/bulk/events.ts does
// for jobs. Emitted by the instance whose transaction compared the run, so once across instances.
import { logger } from '@/lib/platform/logging/logger';
import type { WatchListChangeKind } from '@/db/schema';
import { domainEvent } from '@/lib/platform/events/domain-event';

const log = logger('watch-lists');

/** What a run found: the event's payload. */
export interface RunChanges {
  integrationId: number;
  listPublicId: string;
  listName: string;
  jobPublicId: string;
  run: number;
  /** How many changes of each kind; empty for the baseline and for a run where nothing changed. */
  counts: Partial<Record<WatchListChangeKind, number>>;
  total: number;
  /** The run asked for constancias: each change carries the receipt of the answer that showed it. */
  constancias: boolean;
}

export type WatchListChangesListener = (changes: RunChanges) => Promise<void> | void;

const watchListRunCompared = domainEvent<RunChanges>('watch_list.run_compared');

/** Subscribes; returns the unsubscribe. */
export function onWatchListChanges(listener: WatchListChangesListener): () => void {
  return watchListRunCompared.subscribe(listener);
}

/**
 * Tells every listener; a listener that fails never undoes the comparison, but makes this throw
 * once all were tried, so the run's job keeps its notice due (lib/flows/bulk/notices.ts) and a runner
 * tells the run again later. Telling a run twice is one notice: the outbox keys it by the run's job.
 */
export async function emitWatchListChanges(changes: RunChanges): Promise<void> {
  const failures = await watchListRunCompared.settle(changes);
  for (const error of failures) log.error({ err: error, watchList: changes.listPublicId, run: changes.run }, 'a watch list listener failed');
  if (failures.length > 0) throw new Error(`a listener of watch list ${changes.listPublicId}'s run ${changes.run} failed`);
}
