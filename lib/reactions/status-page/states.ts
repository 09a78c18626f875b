// The words of the public status page for a source now and for each of its days and hours, and the
// one rule behind them: without service while an incident (an open breaker) lasts or lasted in the
// span, degraded when too many of the span's source calls failed, without data when none reached
// the source. The badge, the bars, the legend and the summary all read these.
import type { AvailabilityBucket } from './availability';
import type { Incident } from './incidents';

export const STATUS_DAYS = 90;
export const STATUS_HOURS = 24;
/** A span (the current hour, a day, an hour) with less than this share of successful calls is degraded. */
export const DEGRADED_BELOW = 0.95;

export type SourceState = 'operando' | 'degradado' | 'sin_servicio';
/** A day's or an hour's state: a source's, or no call reached the source then. */
export type BucketState = SourceState | 'sin_datos';

export const SOURCE_STATE_TEXT: Record<SourceState, string> = {
  operando: 'Operando',
  degradado: 'Degradado',
  sin_servicio: 'Sin servicio',
};

/** A day or an hour in the bars and the legend. */
export const BUCKET_STATE_TEXT: Record<BucketState, string> = {
  operando: 'Sin incidentes',
  degradado: 'Degradado',
  sin_servicio: 'Sin servicio',
  sin_datos: 'Sin datos',
};

/** What each colour of the bars means, for a reader who does not know the service's insides. */
export const BUCKET_STATE_EXPLANATION: Record<BucketState, string> = {
  operando: `la fuente respondió bien al menos ${Math.round(DEGRADED_BELOW * 100)} de cada 100 consultas`,
  degradado: `la fuente falló en más de ${Math.round((1 - DEGRADED_BELOW) * 100)} de cada 100 consultas`,
  sin_servicio: 'la fuente dejó de responder durante un tiempo',
  sin_datos: 'nadie consultó la fuente en ese tiempo',
};

/** Sin servicio while an incident lasts; degraded when the current hour fails too often; operating otherwise. */
export function sourceState(ongoingIncident: boolean, currentHour: AvailabilityBucket | undefined): SourceState {
  if (ongoingIncident) return 'sin_servicio';
  if (currentHour?.availability != null && currentHour.availability < DEGRADED_BELOW) return 'degradado';
  return 'operando';
}

/** The state of the span from `bucket.start` to `end`, given the source's incidents. */
export function bucketState(bucket: AvailabilityBucket, end: Date, incidents: readonly Incident[]): BucketState {
  const overlaps = (incident: Incident) => incident.startedAt < end && (incident.endedAt === null || incident.endedAt > bucket.start);
  if (incidents.some(overlaps)) return 'sin_servicio';
  if (bucket.availability === null) return 'sin_datos';
  return bucket.availability < DEGRADED_BELOW ? 'degradado' : 'operando';
}

const SEVERITY: Record<BucketState, number> = { sin_datos: 0, operando: 1, degradado: 2, sin_servicio: 3 };

/**
 * The state of the span that holds now (today, the current hour), which a source failing now makes
 * at least as bad as the source: an ongoing degradation is one of today's failures.
 */
export function withStateNow(bucket: BucketState, now: SourceState): BucketState {
  return now !== 'operando' && SEVERITY[now] > SEVERITY[bucket] ? now : bucket;
}

/** Whether a day or an hour had failures worth telling. */
export function hadFailures(state: BucketState): boolean {
  return state === 'degradado' || state === 'sin_servicio';
}
