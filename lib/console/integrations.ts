import { asc, eq, sql } from 'drizzle-orm';
import { db } from '@/db/client';
import { integrations, queryRecords } from '@/db/schema';
import { toView, type IntegrationView } from '@/lib/integrations/service';

export type IntegrationListItem = IntegrationView & { lastQueryAt: Date | null };

/**
 * Integrations for the console list, optionally filtered by name, each with its latest query.
 * The latest query is one index probe per integration (query_records_integration_created_idx),
 * never a scan of the records.
 */
export async function listIntegrationsWithLastQuery(search?: string): Promise<IntegrationListItem[]> {
  const term = search?.trim();
  const lastQueryAt = sql<Date | null>`(
    select ${queryRecords.createdAt} from ${queryRecords}
    where ${queryRecords.integrationId} = ${integrations.id}
    order by ${queryRecords.createdAt} desc, ${queryRecords.id} desc limit 1)`.mapWith(queryRecords.createdAt);
  const rows = await (await db())
    .select({ integration: integrations, lastQueryAt })
    .from(integrations)
    .where(term ? sql`${integrations.nombre} ilike ${`%${escapeLike(term)}%`} escape '\\'` : undefined)
    .orderBy(asc(integrations.nombre));
  return rows.map(({ integration, lastQueryAt: last }) => ({ ...toView(integration), lastQueryAt: last ?? null }));
}

/** The integration names for filter menus (id and name only). */
export async function integrationOptions(): Promise<Array<{ id: number; nombre: string }>> {
  return (await db()).select({ id: integrations.id, nombre: integrations.nombre }).from(integrations).orderBy(asc(integrations.nombre));
}

export async function integrationName(id: number): Promise<string | undefined> {
  const [row] = await (await db()).select({ nombre: integrations.nombre }).from(integrations).where(eq(integrations.id, id));
  return row?.nombre;
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}
