import { gte, or } from 'drizzle-orm';
import { db } from '@/db/client';
import { sourceBreakerTransitions } from '@/db/schema';
import { SOURCE_NAMES, type SourceName } from '@/lib/sources/guard';
import { mergeIncidents, type Incident, type RecordedTransition } from './incidents';

/**
 * The transitions that shape the incidents since an instant: those recorded since then, and the
 * openings still confirmed since then (an incident that started earlier and was open at `since`).
 */
export async function transitionsSince(since: Date): Promise<RecordedTransition[]> {
  const table = sourceBreakerTransitions;
  const rows = await (await db())
    .select({ instance: table.instance, source: table.source, transition: table.transition, at: table.at, confirmedAt: table.confirmedAt })
    .from(table)
    .where(or(gte(table.at, since), gte(table.confirmedAt, since)));
  return rows.filter((row): row is RecordedTransition => (SOURCE_NAMES as readonly string[]).includes(row.source));
}

/** The incidents that overlap the span since `since`, newest first, across every instance. */
export async function incidentsSince(since: Date, now = new Date()): Promise<Incident[]> {
  return mergeIncidents(await transitionsSince(since), now);
}

const OPEN_INCIDENT_LOOKBACK_MS = 90 * 86_400_000;

/**
 * The sources unavailable now (an incident lasts while any instance has its breaker open) and
 * since when: what notifying integrators of a long outage starts from.
 */
export async function currentOpenIncidents(now = new Date()): Promise<Array<{ source: SourceName; since: Date }>> {
  const incidents = await incidentsSince(new Date(now.getTime() - OPEN_INCIDENT_LOOKBACK_MS), now);
  return incidents.filter((incident) => incident.endedAt === null).map((incident) => ({ source: incident.source, since: incident.startedAt }));
}
