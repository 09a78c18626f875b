// The integration is told when a run of one of its watch lists found changes (Vigilancia):
// lib/flows/watch-lists emits once per run, this queues the notice through the outbox, keyed by
// the run's job, so it is one notice across instances. A run without changes tells nothing.
import { eq } from 'drizzle-orm';
import { db } from '@/db/client';
import { integrations } from '@/db/schema';
import { onWatchListChanges, type RunChanges } from '@/lib/flows/watch-lists';
import { watchListChanges } from './kinds/watch-list-changes';
import { integratorNotifier, type IntegratorNotifier } from './notifier';
import { processSlot } from '@/lib/platform/runtime/process-state';

export async function noteWatchListChanges(notifier: IntegratorNotifier, changes: RunChanges): Promise<void> {
  if (changes.total === 0) return;
  const [integration] = await (await db()).select({ id: integrations.id, nombre: integrations.nombre }).from(integrations).where(eq(integrations.id, changes.integrationId));
  if (!integration) return;
  await notifier.record(
    watchListChanges.draft(
      {
        integration,
        changes: {
          listPublicId: changes.listPublicId,
          listName: changes.listName,
          jobPublicId: changes.jobPublicId,
          run: changes.run,
          counts: changes.counts,
          total: changes.total,
          constancias: changes.constancias,
        },
      },
      notifier.settings,
    ),
  );
}

/** Subscribes this process's notifier to its watch lists' changes, once (lib/root/startup.ts). */
export function tellWatchListChanges(): void {
  processSlot('watchListNotices', () => onWatchListChanges((changes) => noteWatchListChanges(integratorNotifier(), changes)));
}
