import { and, asc, lt, or, sql } from 'drizzle-orm';
import { db } from '@/db/client';
import { CATALOG_LOOKUPS, integrations, type LookupKind, type RefusalReason } from '@/db/schema';
import { LOOKUP_FLAGS } from '@/lib/vocabulary/lookups';
import { balanceSettings } from '@/lib/core/billing/settings';
import { GUATEMALA_OFFSET_HOURS, guatemalanToday, startOfGuatemalanDay } from '@/lib/platform/time/guatemala-time';
import { LOOKUPS } from '@/lib/vocabulary/labels';
import { OUTCOMES, outcomeOf, type Outcome } from '@/lib/core/records/outcomes';
import { addHistograms, emptyHistogram, histogramQuantile, type LatencyHistogram } from '@/lib/core/rollups/histogram';
import { HOUR_MS, hourStart } from '@/lib/platform/time/hours';
import { refusalCells, rollupCells, type RollupSpan } from '@/lib/core/rollups/read';

type BucketUnit = RollupSpan['unit'];

export const DASHBOARD_RANGES = {
  '24h': { buckets: 24, unit: 'hour' },
  '7d': { buckets: 7, unit: 'day' },
  '30d': { buckets: 30, unit: 'day' },
} as const satisfies Record<string, { buckets: number; unit: BucketUnit }>;
export type DashboardRange = keyof typeof DASHBOARD_RANGES;

/** The range a `?rango=` asks for; anything else (including "constructor") is the default. */
export function parseDashboardRange(value: string | undefined): DashboardRange {
  return value !== undefined && Object.hasOwn(DASHBOARD_RANGES, value) ? (value as DashboardRange) : '24h';
}

/** The most integrations the Panel lists as low on balance (the lowest first). */
export const LOW_BALANCE_SHOWN = 20;

export interface SeriesBucket {
  /** Start of the bucket. */
  start: Date;
  byLookup: Record<LookupKind, number>;
  byOutcome: Record<Outcome, number>;
  /** Requests refused before reaching a source (not query records). */
  refused: number;
}

export interface LookupStats {
  lookup: LookupKind;
  total: number;
  success: number;
  /** From the latency histogram: exact to the bucket, interpolated inside it. */
  p50Ms: number | null;
  p95Ms: number | null;
  chargedCentavos: number;
}

export interface LowBalanceIntegration {
  id: number;
  nombre: string;
  balanceCentavos: number;
  tariffCentavos: number;
  /** Its low-balance alert threshold: its own, or ALERT_LOW_BALANCE_DEFAULT_CENTAVOS. */
  thresholdCentavos: number;
  /** The balance no longer pays one catalog lookup: they answer 402. */
  exhausted: boolean;
}

export interface Dashboard {
  range: DashboardRange;
  unit: BucketUnit;
  series: SeriesBucket[];
  lookups: LookupStats[];
  totals: { total: number; success: number; chargedCentavos: number; refused: number };
  refusalsByReason: Array<{ reason: RefusalReason; refusals: number }>;
  lowBalance: LowBalanceIntegration[];
}

/** The first instant the range covers: whole hours for "24 h", whole Guatemalan days otherwise. */
export function rangeStart(range: DashboardRange, now: Date): Date {
  const { buckets, unit } = DASHBOARD_RANGES[range];
  if (unit === 'hour') return new Date(hourStart(now).getTime() - (buckets - 1) * HOUR_MS);
  const today = startOfGuatemalanDay(guatemalanToday(now));
  return new Date(today.getTime() - (buckets - 1) * 24 * HOUR_MS);
}

/**
 * Everything the dashboard shows for a range, from the rollups (lib/core/rollups): one read of the
 * hourly (24 h) or daily (7 and 30 days) cells, at most a few thousand rows whatever the number of
 * records, one of the refusal counts, and one of the integrations for low balances. With an
 * integration, the same from its own rollups (its page's usage over 30 days).
 */
export async function loadDashboard(range: DashboardRange, now = new Date(), integrationId?: number): Promise<Dashboard> {
  const { buckets: bucketCount, unit } = DASHBOARD_RANGES[range];
  const since = rangeStart(range, now);
  const span: RollupSpan = unit === 'hour' ? { unit, since, integrationId } : { unit, sinceDay: guatemalanToday(since), integrationId };
  const [cells, refusals, lowBalance] = await Promise.all([
    rollupCells(span),
    refusalCells(since, unit, integrationId),
    // One integration's usage (its page) has no list of other integrations' balances.
    integrationId === undefined ? lowBalanceIntegrations() : Promise.resolve([]),
  ]);

  const step = unit === 'hour' ? HOUR_MS : 24 * HOUR_MS;
  const series: SeriesBucket[] = Array.from({ length: bucketCount }, (_, index) => ({
    start: new Date(since.getTime() + index * step),
    byLookup: Object.fromEntries(LOOKUPS.map((lookup) => [lookup, 0])) as Record<LookupKind, number>,
    byOutcome: Object.fromEntries(OUTCOMES.map((outcome) => [outcome, 0])) as Record<Outcome, number>,
    refused: 0,
  }));
  const bucketAt = (start: Date) => series[Math.floor((start.getTime() - since.getTime()) / step)];
  const totals = new Map(LOOKUPS.map((lookup) => [lookup, { total: 0, success: 0, chargedCentavos: 0, latency: emptyHistogram() as LatencyHistogram }]));
  for (const cell of cells) {
    const bucket = bucketAt(cell.bucket);
    if (!bucket) continue;
    const outcome = outcomeOf(cell.httpStatus);
    bucket.byLookup[cell.lookup] += cell.queries;
    bucket.byOutcome[outcome] += cell.queries;
    const lookupTotals = totals.get(cell.lookup)!;
    lookupTotals.total += cell.queries;
    if (outcome === 'success') lookupTotals.success += cell.queries;
    lookupTotals.chargedCentavos += cell.chargedCentavos;
    addHistograms(lookupTotals.latency, cell.latency);
  }
  const refusalsByReason = new Map<RefusalReason, number>();
  for (const cell of refusals) {
    const bucket = bucketAt(cell.bucket);
    if (!bucket) continue;
    bucket.refused += cell.refusals;
    refusalsByReason.set(cell.reason, (refusalsByReason.get(cell.reason) ?? 0) + cell.refusals);
  }

  const lookups = LOOKUPS.map((lookup): LookupStats => {
    const { total, success, chargedCentavos, latency } = totals.get(lookup)!;
    const p50 = histogramQuantile(latency, 0.5);
    const p95 = histogramQuantile(latency, 0.95);
    return { lookup, total, success, chargedCentavos, p50Ms: p50 === null ? null : Math.round(p50), p95Ms: p95 === null ? null : Math.round(p95) };
  });

  return {
    range,
    unit,
    series,
    lookups,
    totals: {
      total: lookups.reduce((total, entry) => total + entry.total, 0),
      success: lookups.reduce((total, entry) => total + entry.success, 0),
      chargedCentavos: lookups.reduce((total, entry) => total + entry.chargedCentavos, 0),
      refused: [...refusalsByReason.values()].reduce((total, count) => total + count, 0),
    },
    refusalsByReason: [...refusalsByReason].map(([reason, count]) => ({ reason, refusals: count })).sort((a, b) => b.refusals - a.refusals),
    lowBalance,
  };
}

/**
 * Active integrations with a catalog enabled whose balance is low as the alerts define it
 * (lib/reactions/alerts/conditions.ts): below the integration's own threshold or the default, or unable to
 * pay one lookup (exhausted). Exhausted first, then the lowest balances; at most LOW_BALANCE_SHOWN.
 */
export async function lowBalanceIntegrations(): Promise<LowBalanceIntegration[]> {
  const defaultCentavos = balanceSettings().ALERT_LOW_BALANCE_DEFAULT_CENTAVOS;
  const threshold = sql<number>`coalesce(${integrations.lowBalanceAlertCentavos}, ${defaultCentavos}::bigint)`;
  const exhausted = sql<boolean>`(${integrations.balanceCentavos} = 0 or ${integrations.balanceCentavos} < ${integrations.tariffCentavos})`;
  const rows = await (await db())
    .select({
      id: integrations.id,
      nombre: integrations.nombre,
      balanceCentavos: integrations.balanceCentavos,
      tariffCentavos: integrations.tariffCentavos,
      thresholdCentavos: threshold,
      exhausted,
    })
    .from(integrations)
    .where(
      and(
        sql`${integrations.active}`,
        or(...CATALOG_LOOKUPS.map((catalog) => sql`${integrations[LOOKUP_FLAGS[catalog]]}`)),
        or(exhausted, lt(integrations.balanceCentavos, threshold)),
      ),
    )
    .orderBy(sql`${exhausted} desc`, asc(integrations.balanceCentavos), asc(integrations.nombre))
    .limit(LOW_BALANCE_SHOWN);
  return rows.map((row) => ({ ...row, thresholdCentavos: Number(row.thresholdCentavos), exhausted: row.exhausted === true || String(row.exhausted) === 'true' }));
}

/** Guatemalan wall-clock parts of a bucket start, for labels ("14:00", "21/11"). */
export function bucketClock(start: Date): { date: string; time: string } {
  const local = new Date(start.getTime() + GUATEMALA_OFFSET_HOURS * HOUR_MS).toISOString();
  const [, month, day] = local.slice(0, 10).split('-');
  return { date: `${day}/${month}`, time: local.slice(11, 16) };
}

