import { and, desc, eq, gte, lte, min, sum, type SQL } from 'drizzle-orm';
import { db } from '@/db/client';
import { queryDailyRollups, queryDailyRollupsByIntegration, queryRollupQueue } from '@/db/schema';
import { guatemalanToday, startOfGuatemalanDay, startOfNextGuatemalanDay } from '@/lib/platform/time/guatemala-time';
import { retentionCutoff } from '@/lib/core/records/retention-cutoff';
import type { RecordFilters } from './filters';
import { statusFilter } from './outcomes';

// A record's statement may still be committing this long after its created_at (and its queue row
// is not visible until then): days after this margin are never taken from the rollups alone.
const COMMIT_MARGIN_MS = 5 * 60_000;

/**
 * What the daily rollups know of the records matching some filters (not an identifier search,
 * which rollups do not cover): how many match on each Guatemalan day, exactly, for every day
 * before `unsettledFrom`; from that day on, records may still be on their way to the rollups.
 */
export interface MatchingDays {
  /** Matches per day, newest day first. */
  days: Array<{ day: string; records: number }>;
  /** The first day whose rollups may still be missing records (the rollup queue, recent writes). */
  unsettledFrom: string;
  /** Matches in the days records are kept (rollups outlive purged records): the count shown above the list. */
  total: number;
}

/**
 * Matches per day from the daily rollups (per integration when filtered by one): one row per
 * day, whatever the size of query_records. Undefined for an identifier or request-id search. Days whose
 * records were purged still count in the rollups; a range bound drawn from them only reaches
 * further back than needed, never past a record.
 */
export async function matchingDays(filters: RecordFilters, now = new Date()): Promise<MatchingDays | undefined> {
  if (filters.identificador || filters.solicitud) return undefined;
  const table = filters.integracion === undefined ? queryDailyRollups : queryDailyRollupsByIntegration;
  const conditions: SQL[] = [];
  if (filters.desde) conditions.push(gte(table.day, filters.desde));
  if (filters.hasta) conditions.push(lte(table.day, filters.hasta));
  if (filters.integracion !== undefined) conditions.push(eq(queryDailyRollupsByIntegration.integrationId, filters.integracion));
  if (filters.consulta) conditions.push(eq(table.lookup, filters.consulta));
  if (filters.estado) conditions.push(statusFilter(table.httpStatus, filters.estado));
  const database = await db();
  const [days, [queued]] = await Promise.all([
    database
      .select({ day: table.day, records: sum(table.queries).mapWith(Number) })
      .from(table)
      .where(conditions.length ? and(...conditions) : undefined)
      .groupBy(table.day)
      .orderBy(desc(table.day)),
    // The queue is a handful of rows when the rollup job keeps up.
    database.select({ oldest: min(queryRollupQueue.createdAt) }).from(queryRollupQueue),
  ]);
  const settledUntil = Math.min(queued?.oldest?.getTime() ?? Number.POSITIVE_INFINITY, now.getTime() - COMMIT_MARGIN_MS);
  const firstKeptDay = guatemalanToday(retentionCutoff(now));
  return {
    days,
    unsettledFrom: guatemalanToday(new Date(settledUntil)),
    total: days.filter(({ day }) => day >= firstKeptDay).reduce((total, day) => total + day.records, 0),
  };
}

/** How many records match the filters (from the rollups); undefined for an identifier search. */
export async function countMatchingRecords(filters: RecordFilters, now = new Date()): Promise<number | undefined> {
  return (await matchingDays(filters, now))?.total;
}

/**
 * The narrowest created_at range that still holds the next `needed` matches beyond a cursor
 * (newest first: "older"; or "newer" when paging back), from the exact daily counts. Without it,
 * a rare combination of filters ("this integration, this lookup, 404") makes the index scan walk
 * every row of the most selective filter to find a few matches, or none; with it, the scan
 * starts and stops at days known to hold them. Days whose rollups may be incomplete are always
 * read in full, so the page is exactly what an unbounded query would return.
 */
export function scanRange(
  matching: MatchingDays,
  cursorInstant: string | undefined,
  direction: 'older' | 'newer',
  needed: number,
): { from?: Date; until?: Date } {
  const cursorDay = cursorInstant ? guatemalanToday(new Date(cursorInstant)) : undefined;
  if (direction === 'older') {
    // The cursor's own day (partly read already) and every unsettled day are read in full.
    const readFrom = cursorDay && cursorDay < matching.unsettledFrom ? cursorDay : matching.unsettledFrom;
    let found = 0;
    let oldestWithMatches: string | undefined;
    for (const { day, records } of matching.days) {
      if (day >= readFrom || records === 0) continue;
      found += records;
      oldestWithMatches = day;
      if (found >= needed) break;
    }
    return { from: startOfGuatemalanDay(oldestWithMatches ?? readFrom) };
  }
  if (!cursorDay || cursorDay >= matching.unsettledFrom) return {};
  let found = 0;
  for (const { day, records } of [...matching.days].reverse()) {
    if (day <= cursorDay || records === 0) continue;
    if (day >= matching.unsettledFrom) return {};
    found += records;
    if (found >= needed) return { until: startOfNextGuatemalanDay(day) };
  }
  return {};
}
