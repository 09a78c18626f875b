import { and, eq, inArray, or } from 'drizzle-orm';
import { db } from '@/db/client';
import { alertConditions, integrations } from '@/db/schema';
import { SOURCE_LABELS } from '@/lib/vocabulary/labels';
import { LOOKUP_FLAGS } from '@/lib/core/integrations/flags';
import type { SourceName } from '@/lib/sources/guard';
import { LOOKUP_SOURCE } from '@/lib/vocabulary/lookups';
import { currentOpenIncidents, incidentsSince } from '@/lib/reactions/status-page/read';
import { sourceRecovered, sourceUnavailable, sourceUnavailableKey } from './kinds/source';
import type { IntegratorNotifier } from './notifier';

// A source unavailable for longer than INTEGRATOR_SOURCE_OUTAGE_MINUTES, as every instance's
// breakers together say (the public status page's incidents, lib/reactions/status-page), is told to the
// technical contacts of the active integrations that have one of its lookups enabled; its end,
// to those that were told. A leased job (lib/root/startup.ts) looks every minute; each notification is
// claimed once per incident and integration, so instances and passes send it once.

/** How far back a recovery is still told (a job that did not run for a while catches up). */
const RECOVERY_LOOKBACK_MS = 24 * 3_600_000;

/** The flags whose lookups go to each source. */
function flagsOf(source: SourceName) {
  return Object.entries(LOOKUP_FLAGS)
    .filter(([lookup]) => LOOKUP_SOURCE[lookup as keyof typeof LOOKUP_SOURCE] === source)
    .map(([, flag]) => integrations[flag]);
}

async function integrationsUsing(source: SourceName): Promise<Array<{ id: number; nombre: string }>> {
  return (await db())
    .select({ id: integrations.id, nombre: integrations.nombre })
    .from(integrations)
    .where(and(eq(integrations.active, true), or(...flagsOf(source).map((flag) => eq(flag, true)))));
}

/** Queues what the sources' incidents call for now; returns how many notifications were queued. */
export async function notifySourceIncidents(notifier: IntegratorNotifier, now = new Date()): Promise<number> {
  const thresholdMs = notifier.settings.sourceOutageSeconds * 1000;
  let queued = 0;
  for (const incident of await currentOpenIncidents(now)) {
    if (now.getTime() - incident.since.getTime() < thresholdMs) continue;
    for (const integration of await integrationsUsing(incident.source)) {
      const draft = sourceUnavailable.draft({ integration, incident: { source: incident.source, label: SOURCE_LABELS[incident.source], since: incident.since } }, notifier.settings, now);
      if ((await notifier.record(draft)).length > 0) queued++;
    }
  }
  const ended = (await incidentsSince(new Date(now.getTime() - RECOVERY_LOOKBACK_MS), now)).filter((incident) => incident.endedAt !== null && incident.durationMs >= thresholdMs);
  for (const incident of ended) {
    const users = await integrationsUsing(incident.source);
    if (users.length === 0) continue;
    const keys = users.map((integration) => sourceUnavailableKey(incident.source, incident.startedAt, integration.id));
    const told = new Set((await (await db()).select({ key: alertConditions.key }).from(alertConditions).where(inArray(alertConditions.key, keys))).map((row) => row.key));
    for (const integration of users) {
      if (!told.has(sourceUnavailableKey(incident.source, incident.startedAt, integration.id))) continue;
      const draft = sourceRecovered.draft(
        { integration, incident: { source: incident.source, label: SOURCE_LABELS[incident.source], since: incident.startedAt, until: incident.endedAt! } },
        notifier.settings,
        now,
      );
      if ((await notifier.record(draft)).length > 0) queued++;
    }
  }
  return queued;
}
