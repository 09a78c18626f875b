import { and, eq, gte, lte, sql, sum, type AnyColumn, type SQL } from 'drizzle-orm';
import { db } from '@/db/client';
import {
  LATENCY_BUCKET_COLUMNS,
  queryDailyRollups,
  queryDailyRollupsByIntegration,
  queryHourlyRollups,
  queryHourlyRollupsByIntegration,
  refusalRollups,
  refusalRollupsByIntegration,
  type LookupKind,
  type RefusalReason,
} from '@/db/schema';
import { GUATEMALA_OFFSET_HOURS, startOfGuatemalanDay } from '@/lib/platform/time/guatemala-time';
import type { LatencyHistogram } from './histogram';

/**
 * A span of rollups: whole hours since an hour (hourly tables), or whole Guatemalan days
 * (daily tables, about 1/24 of the rows). Optionally one integration's.
 */
export type RollupSpan =
  | { unit: 'hour'; since: Date; integrationId?: number }
  | { unit: 'day'; sinceDay: string; untilDay?: string; integrationId?: number };

export interface RollupCell {
  /** Start of the hour, or of the Guatemalan day. */
  bucket: Date;
  lookup: LookupKind;
  httpStatus: number;
  queries: number;
  chargedCentavos: number;
  responseTimeMsTotal: number;
  latency: LatencyHistogram;
}

const asNumber = (value: unknown) => Number(value ?? 0);
const histogramSums = sql.raw(LATENCY_BUCKET_COLUMNS.map((column) => `sum(${column})`).join(', '));

/** postgres.js hands bigint[] over as an array of strings, PGlite as numbers or a '{…}' literal. */
function parseNumberArray(value: unknown): number[] {
  if (Array.isArray(value)) return value.map(asNumber);
  if (typeof value === 'string') return value.replace(/[{}]/g, '').split(',').filter(Boolean).map(asNumber);
  return [];
}

/** The rollup table and conditions that answer a span (primary keys lead with the time, or the integration then the time). */
function spanSource(span: RollupSpan) {
  const conditions: SQL[] = [];
  if (span.unit === 'hour') {
    const table = span.integrationId === undefined ? queryHourlyRollups : queryHourlyRollupsByIntegration;
    conditions.push(gte(table.hour, span.since));
    if (span.integrationId !== undefined) conditions.push(eq(queryHourlyRollupsByIntegration.integrationId, span.integrationId));
    return { table, bucket: sql<number>`extract(epoch from ${table.hour})::bigint`, conditions };
  }
  const table = span.integrationId === undefined ? queryDailyRollups : queryDailyRollupsByIntegration;
  conditions.push(gte(table.day, span.sinceDay));
  if (span.untilDay) conditions.push(lte(table.day, span.untilDay));
  if (span.integrationId !== undefined) conditions.push(eq(queryDailyRollupsByIntegration.integrationId, span.integrationId));
  return { table, bucket: sql<string>`${table.day}::text`, conditions };
}

/**
 * Every (bucket, lookup, status) cell of a span with its counts, money and latency histogram:
 * one scan of a primary-key range, a few thousand rows at most for 30 days.
 */
export async function rollupCells(span: RollupSpan): Promise<RollupCell[]> {
  const { table, bucket, conditions } = spanSource(span);
  const rows = await (await db())
    .select({
      bucket,
      lookup: table.lookup,
      httpStatus: table.httpStatus,
      queries: sum(table.queries).mapWith(asNumber),
      chargedCentavos: sum(table.chargedCentavos).mapWith(asNumber),
      responseTimeMsTotal: sum(table.responseTimeMsTotal).mapWith(asNumber),
      latency: sql<LatencyHistogram>`array[${histogramSums}]::bigint[]`.mapWith(parseNumberArray),
    })
    .from(table)
    .where(and(...conditions))
    // By position: PostgreSQL matches a GROUP BY expression to the select list only when even
    // their parameter numbers agree.
    .groupBy(sql.raw('1'), sql.raw('2'), sql.raw('3'));
  return rows.map((row) => ({
    ...row,
    bucket: span.unit === 'hour' ? new Date(Number(row.bucket) * 1000) : startOfGuatemalanDay(String(row.bucket)),
  }));
}

export interface RefusalCell {
  bucket: Date;
  lookup: LookupKind;
  reason: RefusalReason;
  refusals: number;
}

// Day buckets start at Guatemalan midnight: date_bin's origin is a Guatemalan midnight.
const GUATEMALAN_MIDNIGHT = `2000-01-01 00:00:00${GUATEMALA_OFFSET_HOURS < 0 ? '-' : '+'}${String(Math.abs(GUATEMALA_OFFSET_HOURS)).padStart(2, '0')}`;

/** Requests refused before reaching a source since an hour, per hour or Guatemalan day, lookup and reason. */
export async function refusalCells(since: Date, unit: 'hour' | 'day', integrationId?: number): Promise<RefusalCell[]> {
  const table = integrationId === undefined ? refusalRollups : refusalRollupsByIntegration;
  const conditions: SQL[] = [gte(table.hour, since)];
  if (integrationId !== undefined) conditions.push(eq(refusalRollupsByIntegration.integrationId, integrationId));
  const bucket = sql<number>`extract(epoch from date_bin(${unit === 'hour' ? '1 hour' : '1 day'}::interval, ${table.hour as AnyColumn}, ${GUATEMALAN_MIDNIGHT}::timestamptz))::bigint`;
  const rows = await (await db())
    .select({ bucket, lookup: table.lookup, reason: table.reason, refusals: sum(table.refusals).mapWith(asNumber) })
    .from(table)
    .where(and(...conditions))
    .groupBy(sql.raw('1'), sql.raw('2'), sql.raw('3'));
  return rows.map((row) => ({ ...row, bucket: new Date(Number(row.bucket) * 1000) }));
}
