import { and, desc, eq, type SQL } from 'drizzle-orm';
import { db } from '@/db/client';
import { integrations, queryRecords, type LookupKind, type QueryRecord } from '@/db/schema';

export type QueryRecordRow = QueryRecord & { integrationNombre: string };

export interface RecentRecordsFilter {
  integrationId?: number;
  lookup?: LookupKind;
  limit?: number;
}

/** Newest query records first, with the integration's name. */
export async function listRecentRecords(filter: RecentRecordsFilter = {}): Promise<QueryRecordRow[]> {
  const conditions: SQL[] = [];
  if (filter.integrationId !== undefined) conditions.push(eq(queryRecords.integrationId, filter.integrationId));
  if (filter.lookup) conditions.push(eq(queryRecords.lookup, filter.lookup));
  const rows = await (await db())
    .select({ record: queryRecords, integrationNombre: integrations.nombre })
    .from(queryRecords)
    .innerJoin(integrations, eq(integrations.id, queryRecords.integrationId))
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(queryRecords.createdAt), desc(queryRecords.id))
    .limit(Math.min(Math.max(filter.limit ?? 20, 1), 1000));
  return rows.map(({ record, integrationNombre }) => ({ ...record, integrationNombre }));
}
