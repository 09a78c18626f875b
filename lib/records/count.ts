import { and, eq, gte, lte, sum, type SQL } from 'drizzle-orm';
import { db } from '@/db/client';
import { queryDailyRollups, queryDailyRollupsByIntegration } from '@/db/schema';
import { guatemalanToday } from '@/lib/format/guatemala-time';
import { retentionCutoff } from '@/lib/retention/policy';
import type { RecordFilters } from './filters';
import { statusFilter } from './outcomes';

/**
 * How many records match the filters, read from the daily rollups instead of counting records:
 * at most a few rows per day kept, whatever the table's size. Exact but for the records of the
 * last few seconds (ROLLUP_INTERVAL_MS) and, on the day of the retention cutoff, records already
 * purged or about to be. Undefined for an identifier search, which rollups do not cover.
 */
export async function countMatchingRecords(filters: RecordFilters, now = new Date()): Promise<number | undefined> {
  if (filters.identificador) return undefined;
  const table = filters.integracion === undefined ? queryDailyRollups : queryDailyRollupsByIntegration;
  const firstKeptDay = guatemalanToday(retentionCutoff(now));
  const conditions: SQL[] = [gte(table.day, filters.desde && filters.desde > firstKeptDay ? filters.desde : firstKeptDay)];
  if (filters.hasta) conditions.push(lte(table.day, filters.hasta));
  if (filters.integracion !== undefined) conditions.push(eq(queryDailyRollupsByIntegration.integrationId, filters.integracion));
  if (filters.consulta) conditions.push(eq(table.lookup, filters.consulta));
  if (filters.estado) conditions.push(statusFilter(table.httpStatus, filters.estado));
  const [row] = await (await db())
    .select({ total: sum(table.queries).mapWith(Number) })
    .from(table)
    .where(and(...conditions));
  return row?.total ?? 0;
}
