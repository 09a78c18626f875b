// The public status of the sources (/estado and GET /api/estado): each source's state now, its
// availability and state per Guatemalan day over 90 days and per hour over 24 hours, the incidents
// and a summary of them all (lib/reactions/status-page/states.ts, summary.ts). Built
// from the rollups and the breakers' transitions: aggregates only, no integration, no identifier,
// no traffic volume (shares, not counts). Shared by every caller for STATUS_PAGE_CACHE_SECONDS, so a flood of
// polls costs this instance one read per interval.
import { rollupCells } from '@/lib/core/rollups/read';
import { HOUR_MS, hourStart } from '@/lib/platform/time/hours';
import { guatemalanToday, startOfGuatemalanDay } from '@/lib/platform/time/guatemala-time';
import { SOURCE_LABELS } from '@/lib/vocabulary/labels';
import { statusPageSettings } from './settings';
import { logger } from '@/lib/platform/logging/logger';
import { cachedCheck } from '@/lib/platform/operations/cached-check';
import { SOURCE_NAMES } from '@/lib/sources/guard';
import { availabilityByBucket, overallAvailability, type AvailabilityBucket, type RecordedCalls } from './availability';
import { mergeIncidents, type Incident, type RecordedTransition } from './incidents';
import { transitionsSince } from './read';
import { bucketState, sourceState, STATUS_DAYS, STATUS_HOURS, withStateNow } from './states';
import { statusSummary, type PublicSummary } from './summary';
import type { PublicIncident, PublicSourceStatus } from './public-shapes';
import { peekProcessSlot, setProcessSlot } from '@/lib/platform/runtime/process-state';
import { publishedInvoicing } from '@/lib/core/invoices/decision';
import { certifierHealth, type CertifierHealth } from '@/lib/core/invoices/health';
import { providerHealth } from '@/lib/flows/online-top-ups/provider-health';
import type { CallHealth } from '@/lib/platform/operations/call-health';
import { paymentsConfigured } from '@/lib/providers/payments/configured';
import { paymentSettings } from '@/lib/providers/payments/settings';

/** The newest incidents listed (of the 90 days). */
const MAX_INCIDENTS = 50;
const DAY_MS = 86_400_000;

export type { PublicIncident, PublicSourceStatus };

export interface PublicStatus {
  generado_en: string;
  fuentes: PublicSourceStatus[];
  incidentes: PublicIncident[];
  resumen: PublicSummary;
  componentes: PublicComponentStatus[];
}

/** The service's other parts an integrator meets (invoicing), beside the sources; only those this deployment runs. */
export interface PublicComponentStatus {
  componente: 'facturacion' | 'pagos_en_linea';
  nombre: string;
  estado: 'operando' | 'degradado' | 'sin_servicio';
  /** Since when it is not operating (ISO 8601, UTC); null while it operates. */
  desde: string | null;
  texto: string;
}

/** A component's state now from its outside party's calls, in the public's words for each. */
function componentOf(componente: PublicComponentStatus['componente'], nombre: string, health: Pick<CallHealth, 'state' | 'since'>, texto: Record<PublicComponentStatus['estado'], string>): PublicComponentStatus {
  const estado = health.state === 'up' || health.state === 'idle' ? 'operando' : health.state === 'degraded' ? 'degradado' : 'sin_servicio';
  return { componente, nombre, estado, desde: estado === 'operando' ? null : (health.since?.toISOString() ?? null), texto: texto[estado] };
}

/** Online payments as the public reads them: whether the provider answers; a deposit is the other way to top up. */
export function paymentsComponent(health: Pick<CallHealth, 'state' | 'since'>): PublicComponentStatus {
  return componentOf('pagos_en_linea', 'Pagos en línea', health, {
    operando: 'Los pagos con tarjeta y por transferencia se reciben con normalidad.',
    degradado: 'El proveedor de pagos falla a ratos: un pago puede tardar en acreditarse; nunca se acredita dos veces.',
    sin_servicio: 'Por ahora no se pueden iniciar pagos en línea; los ya hechos se acreditan en cuanto el proveedor responda. Puede recargar con un depósito bancario.',
  });
}

/**
 * Invoicing as the public reads it: whether the certifier certifies the top-ups' invoices. Why it
 * stopped (credentials, an outage) is the operator's business; that top-ups are still credited and
 * their invoices will follow is the integrator's.
 */
export function invoicingComponent(health: Pick<CertifierHealth, 'state' | 'since'>): PublicComponentStatus {
  return componentOf('facturacion', 'Facturación electrónica (FEL)', health, {
    operando: 'Las facturas de las recargas se certifican ante SAT con normalidad.',
    degradado: 'El certificador falla a ratos: algunas facturas tardan; se reintentan solas, sin duplicarse.',
    sin_servicio: 'Facturación detenida: las recargas se siguen acreditando y sus facturas se emitirán solas, una por recarga, en cuanto el certificador vuelva.',
  });
}

/** A share as a percent with two decimals, rounded down: any failure keeps it under 100. */
export function asPercent(share: number | null): number | null {
  return share === null ? null : Math.floor(share * 10_000) / 100;
}

function lastDays(now: Date): string[] {
  const today = startOfGuatemalanDay(guatemalanToday(now)).getTime();
  return Array.from({ length: STATUS_DAYS }, (_, index) => guatemalanToday(new Date(today - (STATUS_DAYS - 1 - index) * DAY_MS + DAY_MS / 2)));
}

function lastHours(now: Date): Date[] {
  const current = hourStart(now).getTime();
  return Array.from({ length: STATUS_HOURS }, (_, index) => new Date(current - (STATUS_HOURS - 1 - index) * HOUR_MS));
}

/** Reads and assembles the status (two rollup reads and one of the transitions). */
export async function readPublicStatus(now = new Date()): Promise<PublicStatus> {
  const firstHour = lastHours(now)[0]!;
  const firstDay = lastDays(now)[0]!;
  const [dayCells, hourCells, transitions, invoicing, payments] = await Promise.all([
    rollupCells({ unit: 'day', sinceDay: firstDay }),
    rollupCells({ unit: 'hour', since: firstHour }),
    transitionsSince(startOfGuatemalanDay(firstDay)),
    publishedInvoicing(),
    // Online payments are a component only where they are on.
    paymentsConfigured(paymentSettings()) ? providerHealth() : null,
  ]);
  // Invoicing is a component only where the service invoices (as every instance reads it).
  const certifier = invoicing === 'on' ? await certifierHealth() : null;
  return buildPublicStatus({ now, dayCells, hourCells, transitions, certifier, payments });
}

/**
 * The status from the rollup cells and the breakers' transitions: each source's state now, its
 * days and hours, the incidents and the summary, all from the same incidents and availabilities.
 */
export function buildPublicStatus(input: {
  now: Date;
  dayCells: readonly RecordedCalls[];
  hourCells: readonly RecordedCalls[];
  transitions: readonly RecordedTransition[];
  /** The certifier's health where the service invoices; none: no invoicing component. */
  certifier?: Pick<CertifierHealth, 'state' | 'since'> | null;
  /** The payment provider's health where online payments are on; none: no such component. */
  payments?: Pick<CallHealth, 'state' | 'since'> | null;
}): PublicStatus {
  const { now } = input;
  const days = lastDays(now);
  const hours = lastHours(now);
  const daily = availabilityByBucket(input.dayCells, days.map(startOfGuatemalanDay));
  const hourly = availabilityByBucket(input.hourCells, hours);
  const incidents = mergeIncidents(input.transitions, now);
  const fuentes = SOURCE_NAMES.map((source): PublicSourceStatus => {
    const own = incidents.filter((incident) => incident.source === source);
    const estado = sourceState(
      own.some((incident) => incident.endedAt === null),
      hourly[source].at(-1),
    );
    const stateOf = (bucket: AvailabilityBucket, end: Date, isNow: boolean) => {
      const state = bucketState(bucket, end, own);
      return isNow ? withStateNow(state, estado) : state;
    };
    return {
      fuente: source,
      nombre: SOURCE_LABELS[source],
      estado,
      disponibilidad_90_dias: asPercent(overallAvailability(daily[source])),
      dias: daily[source].map((bucket, index) => ({
        dia: days[index]!,
        disponibilidad: asPercent(bucket.availability),
        estado: stateOf(bucket, new Date(bucket.start.getTime() + DAY_MS), index === days.length - 1),
      })),
      horas: hourly[source].map((bucket, index) => ({
        desde: bucket.start.toISOString(),
        disponibilidad: asPercent(bucket.availability),
        estado: stateOf(bucket, new Date(bucket.start.getTime() + HOUR_MS), index === hours.length - 1),
      })),
    };
  });
  const incidentes = incidents.slice(0, MAX_INCIDENTS).map(publicIncident);
  const componentes = [...(input.certifier ? [invoicingComponent(input.certifier)] : []), ...(input.payments ? [paymentsComponent(input.payments)] : [])];
  return { generado_en: now.toISOString(), fuentes, incidentes, resumen: statusSummary(fuentes, incidentes), componentes };
}

function publicIncident(incident: Incident): PublicIncident {
  return {
    fuente: incident.source,
    nombre: SOURCE_LABELS[incident.source],
    inicio: incident.startedAt.toISOString(),
    fin: incident.endedAt?.toISOString() ?? null,
    en_curso: incident.endedAt === null,
    duracion_segundos: Math.round(incident.durationMs / 1000),
  };
}

/** GET /api/estado's 503 before this instance has read the status once. */
export const STATUS_UNAVAILABLE_MESSAGE = 'El estado de las fuentes no está disponible en este momento.';

const log = logger('status-page');

/**
 * The status as every caller shares it for STATUS_PAGE_CACHE_SECONDS. While the database does not answer,
 * the last status this instance read is served again (its generado_en says when); null when there
 * is none yet.
 */
export function publicStatus(): Promise<PublicStatus | null> {
  return cachedCheck('status-page', statusPageSettings().STATUS_PAGE_CACHE_SECONDS * 1000, async () => {
    try {
      setProcessSlot('lastPublicStatus', await readPublicStatus());
    } catch (error) {
      log.warn({ err: error }, 'reading the public status failed; serving the last one read');
    }
    return peekProcessSlot<PublicStatus>('lastPublicStatus') ?? null;
  });
}
