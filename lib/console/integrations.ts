import { asc, eq, sql } from 'drizzle-orm';
import { db } from '@/db/client';
import { integrationActivity, integrations } from '@/db/schema';
import { toView, type IntegrationView } from '@/lib/integrations/service';

export type IntegrationListItem = IntegrationView & { lastQueryAt: Date | null; tokenPrefixes: string | null };

/**
 * Integrations for the console list, optionally filtered by name, each with its latest query as
 * the rollup job last saw it (integration_activity, a few seconds behind at most): a join of two
 * tables of a few hundred rows, never work over the records.
 */
export async function listIntegrationsWithLastQuery(search?: string): Promise<IntegrationListItem[]> {
  const term = search?.trim();
  const rows = await (await db())
    .select({
      integration: integrations,
      lastQueryAt: integrationActivity.lastQueryAt,
      // The prefixes of the tokens that work now, newest first, so people can tell which one a system uses.
      tokenPrefixes: sql<string | null>`(select string_agg(t.token_prefix || '…', ' · ' order by t.id desc) from integration_tokens t
        where t.integration_id = ${integrations.id} and t.revoked_at is null and (t.expires_at is null or t.expires_at > now()))`,
    })
    .from(integrations)
    .leftJoin(integrationActivity, eq(integrationActivity.integrationId, integrations.id))
    .where(term ? sql`${integrations.nombre} ilike ${`%${escapeLike(term)}%`} escape '\\'` : undefined)
    .orderBy(asc(integrations.nombre));
  return rows.map(({ integration, lastQueryAt, tokenPrefixes }) => ({ ...toView(integration), lastQueryAt, tokenPrefixes }));
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
