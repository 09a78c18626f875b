import { sql } from 'drizzle-orm';
import { database } from '@/db/client';
import type { LookupKind } from '@/db/schema';
import { LOOKUPS, type Outcome } from './labels';
import { GUATEMALA_OFFSET_HOURS } from './time';

export const DASHBOARD_RANGES = {
  '24h': { label: 'Últimas 24 horas', hours: 24, bucket: 'hour' },
  '7d': { label: 'Últimos 7 días', hours: 7 * 24, bucket: 'day' },
  '30d': { label: 'Últimos 30 días', hours: 30 * 24, bucket: 'day' },
} as const;
export type DashboardRange = keyof typeof DASHBOARD_RANGES;

export function parseDashboardRange(value: string | undefined): DashboardRange {
  return value && value in DASHBOARD_RANGES ? (value as DashboardRange) : '24h';
}

/** An integration whose balance covers fewer than this many billed queries counts as low. */
export const LOW_BALANCE_QUERIES = 100;

export interface SeriesBucket {
  /** Guatemalan wall-clock start of the bucket, "YYYY-MM-DDTHH:MI". */
  bucket: string;
  byLookup: Record<LookupKind, number>;
  byOutcome: Record<Outcome, number>;
}

export interface LookupStats {
  lookup: LookupKind;
  total: number;
  success: number;
  p50Ms: number | null;
  p95Ms: number | null;
  chargedCentavos: number;
}

export interface LowBalanceIntegration {
  id: number;
  nombre: string;
  balanceCentavos: number;
  tariffCentavos: number;
}

export interface Dashboard {
  range: DashboardRange;
  series: SeriesBucket[];
  lookups: LookupStats[];
  totals: { total: number; success: number; chargedCentavos: number };
  lowBalance: LowBalanceIntegration[];
}

// Guatemalan wall-clock time of created_at, for grouping by local hour or day.
const localTime = sql.raw(`(created_at at time zone 'UTC' + interval '${GUATEMALA_OFFSET_HOURS} hours')`);

/**
 * Everything the dashboard shows for one range, in three aggregate queries over the records of
 * that range (a range scan of query_records_created_idx) plus one over integrations. Plain SQL
 * that PostgreSQL 15 and PGlite both run: date_trunc, FILTER, percentile_cont.
 */
export async function loadDashboard(range: DashboardRange, now = new Date()): Promise<Dashboard> {
  const { hours, bucket } = DASHBOARD_RANGES[range];
  const since = new Date(now.getTime() - hours * 3_600_000);
  const handle = await database();
  const unit = sql.raw(`'${bucket}'`);

  const seriesRows = await handle.rows<{ bucket: string; lookup: LookupKind; total: number | string; success: number | string; source_error: number | string }>(sql`
    select to_char(date_trunc(${unit}, ${localTime}), 'YYYY-MM-DD"T"HH24:MI') as bucket, lookup,
           count(*) as total,
           count(*) filter (where http_status between 200 and 299) as success,
           count(*) filter (where http_status >= 500) as source_error
    from query_records where created_at >= ${since}
    group by 1, 2`);

  const lookupRows = await handle.rows<{
    lookup: LookupKind;
    total: number | string;
    success: number | string;
    p50: number | string | null;
    p95: number | string | null;
    charged: number | string;
  }>(sql`
    select lookup, count(*) as total,
           count(*) filter (where http_status between 200 and 299) as success,
           percentile_cont(0.5) within group (order by response_time_ms) as p50,
           percentile_cont(0.95) within group (order by response_time_ms) as p95,
           coalesce(sum(charged_centavos), 0) as charged
    from query_records where created_at >= ${since}
    group by lookup`);

  const lowBalanceRows = await handle.rows<{ id: number; nombre: string; balance_centavos: number | string; tariff_centavos: number | string }>(sql`
    select id, nombre, balance_centavos, tariff_centavos from integrations
    where active and (is_cui_nit_enabled or is_rtu_v2_enabled or is_omisos_enabled)
      and balance_centavos < greatest(tariff_centavos * ${LOW_BALANCE_QUERIES}, 1)
    order by balance_centavos, nombre limit 20`);

  const series = emptyBuckets(since, now, bucket);
  const byBucket = new Map(series.map((entry) => [entry.bucket, entry]));
  for (const row of seriesRows) {
    const entry = byBucket.get(row.bucket);
    if (!entry) continue;
    const total = Number(row.total);
    const success = Number(row.success);
    const sourceError = Number(row.source_error);
    entry.byLookup[row.lookup] += total;
    entry.byOutcome.success += success;
    entry.byOutcome.source_error += sourceError;
    entry.byOutcome.client_error += total - success - sourceError;
  }

  const lookups = LOOKUPS.map((lookup): LookupStats => {
    const row = lookupRows.find((candidate) => candidate.lookup === lookup);
    return {
      lookup,
      total: Number(row?.total ?? 0),
      success: Number(row?.success ?? 0),
      p50Ms: row?.p50 == null ? null : Math.round(Number(row.p50)),
      p95Ms: row?.p95 == null ? null : Math.round(Number(row.p95)),
      chargedCentavos: Number(row?.charged ?? 0),
    };
  });

  return {
    range,
    series,
    lookups,
    totals: {
      total: lookups.reduce((sum, entry) => sum + entry.total, 0),
      success: lookups.reduce((sum, entry) => sum + entry.success, 0),
      chargedCentavos: lookups.reduce((sum, entry) => sum + entry.chargedCentavos, 0),
    },
    lowBalance: lowBalanceRows.map((row) => ({
      id: Number(row.id),
      nombre: row.nombre,
      balanceCentavos: Number(row.balance_centavos),
      tariffCentavos: Number(row.tariff_centavos),
    })),
  };
}

/** Every bucket of the range, oldest first, so quiet hours show as zero instead of vanishing. */
function emptyBuckets(since: Date, now: Date, unit: 'hour' | 'day'): SeriesBucket[] {
  const step = unit === 'hour' ? 3_600_000 : 86_400_000;
  const local = (date: Date) => new Date(date.getTime() + GUATEMALA_OFFSET_HOURS * 3_600_000);
  const start = local(since);
  if (unit === 'hour') start.setUTCMinutes(0, 0, 0);
  else start.setUTCHours(0, 0, 0, 0);
  const end = local(now).getTime();
  const buckets: SeriesBucket[] = [];
  for (let time = start.getTime(); time <= end; time += step) {
    buckets.push({
      bucket: new Date(time).toISOString().slice(0, 16),
      byLookup: Object.fromEntries(LOOKUPS.map((lookup) => [lookup, 0])) as Record<LookupKind, number>,
      byOutcome: { success: 0, client_error: 0, source_error: 0 },
    });
  }
  return buckets;
}
