// The public status in one sentence, from the same states as the badges and the bars: "Sin
// incidentes" only when no source fails now, no day of the 90 had failures and no incident is
// listed. A source degraded now (its current hour fails too often, the breaker still closed) is
// named, as an ongoing degradation, since the first of its consecutive degraded hours.
import type { SourceName } from '@/lib/sources/guard';
import { hadFailures, STATUS_DAYS, type SourceState } from './states';
import type { PublicIncident, PublicSourceStatus } from './public-shapes';

export const NO_INCIDENTS_TEXT = `Sin incidentes en los últimos ${STATUS_DAYS} días.`;
/** What "Incidentes recientes" says when no source was without service but some day had failures. */
export const NO_OUTAGE_TEXT = `Ninguna fuente estuvo sin servicio en los últimos ${STATUS_DAYS} días; los días con fallas se ven en las barras.`;
export const ALL_ANSWERING_TEXT = 'Todas las fuentes responden con normalidad.';
export const OTHERS_ANSWERING_TEXT = 'Las demás fuentes responden con normalidad.';

const FAILING_NOW_TEXT: Record<Exclude<SourceState, 'operando'>, string> = {
  degradado: 'degradado, parte de sus consultas falla',
  sin_servicio: 'sin servicio, sus consultas fallan',
};

export interface OngoingDegradation {
  fuente: SourceName;
  nombre: string;
  /** Start of the first of the consecutive degraded hours that end now. */
  desde: string;
}

export interface PublicSummary {
  /** The worst state of any source now. */
  estado: SourceState;
  /** One sentence for a person: what answers now and whether anything failed in the 90 days. */
  texto: string;
  /** True only when nothing failed now nor in the 90 days: the page may say NO_INCIDENTS_TEXT. */
  sin_incidentes: boolean;
  degradaciones_en_curso: OngoingDegradation[];
  /** Days of the 90 (today included) on which any source was degraded or without service. */
  dias_con_fallas: number;
}

export function statusSummary(sources: readonly PublicSourceStatus[], incidents: readonly PublicIncident[]): PublicSummary {
  const failingNow = sources.filter((source) => source.estado !== 'operando');
  const estado = failingNow.some((source) => source.estado === 'sin_servicio') ? 'sin_servicio' : failingNow.length > 0 ? 'degradado' : 'operando';
  const dayCount = Math.max(0, ...sources.map((source) => source.dias.length));
  const failingDays = Array.from({ length: dayCount }, (_, index) => sources.some((source) => hadFailures(source.dias[index]?.estado ?? 'sin_datos'))).filter(Boolean).length;
  const quiet = estado === 'operando' && failingDays === 0 && incidents.length === 0;
  return {
    estado,
    texto: summaryText(sources, failingNow, quiet, failingDays),
    sin_incidentes: quiet,
    degradaciones_en_curso: sources.filter((source) => source.estado === 'degradado').map(ongoingDegradation),
    dias_con_fallas: failingDays,
  };
}

function summaryText(sources: readonly PublicSourceStatus[], failingNow: readonly PublicSourceStatus[], quiet: boolean, failingDays: number): string {
  if (failingNow.length === 0) {
    if (quiet) return `${ALL_ANSWERING_TEXT} ${NO_INCIDENTS_TEXT}`;
    return `${ALL_ANSWERING_TEXT} Hubo fallas en ${failingDays} de los últimos ${STATUS_DAYS} días: se ven en las barras y en «Incidentes recientes».`;
  }
  const named = failingNow.map((source) => `${source.nombre}: ${FAILING_NOW_TEXT[source.estado as Exclude<SourceState, 'operando'>]}.`);
  const others = failingNow.length < sources.length ? ` ${OTHERS_ANSWERING_TEXT}` : '';
  return `Hay fallas ahora. ${named.join(' ')}${others}`;
}

function ongoingDegradation(source: PublicSourceStatus): OngoingDegradation {
  let first = source.horas.length - 1;
  while (first > 0 && source.horas[first - 1]!.estado === 'degradado') first--;
  return { fuente: source.fuente, nombre: source.nombre, desde: source.horas[Math.max(first, 0)]!.desde };
}
