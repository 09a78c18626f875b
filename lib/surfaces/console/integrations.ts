import { asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { db } from '@/db/client';
import { integrationActivity, integrations } from '@/db/schema';
import { toView, type IntegrationView } from '@/lib/flows/integration-management/service';

export type IntegrationListItem = IntegrationView & { lastQueryAt: Date | null; tokenPrefixes: string | null };

/** How the console list can be ordered: by name, by balance, or by the latest query. */
export const INTEGRATION_SORTS = ['nombre', 'saldo', 'ultima'] as const;
export type IntegrationSort = (typeof INTEGRATION_SORTS)[number];
export type SortDirection = 'asc' | 'desc';

export const INTEGRATIONS_PAGE_SIZE = 50;

export interface IntegrationListQuery {
  search?: string;
  sort?: IntegrationSort;
  direction?: SortDirection;
  /** 1-based. */
  page?: number;
  pageSize?: number;
}

export interface IntegrationListPage {
  items: IntegrationListItem[];
  /** Integrations matching the search, on every page. */
  total: number;
  page: number;
  pageCount: number;
}

/**
 * One page of the console's integration list, optionally filtered by name and ordered by name,
 * balance or latest query (as the rollup job last saw it, in integration_activity: a few seconds
 * behind at most, never work over the records). Integrations number in the thousands, not
 * millions: numbered pages over an ordered scan stay a few milliseconds at 10,000
 * (`npm run bench:console -- --integrations 10000`), and people can say "page 3".
 */
export async function listIntegrationsPage(query: IntegrationListQuery = {}): Promise<IntegrationListPage> {
  const term = query.search?.trim();
  const sort = query.sort ?? 'nombre';
  const direction = query.direction ?? (sort === 'nombre' ? 'asc' : 'desc');
  const pageSize = query.pageSize ?? INTEGRATIONS_PAGE_SIZE;
  const where = term ? matching(term) : undefined;
  const handle = await db();
  const [{ total }] = (await handle.select({ total: sql<number>`count(*)::integer` }).from(integrations).where(where)) as [{ total: number }];
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const page = Math.min(Math.max(1, Math.trunc(query.page ?? 1)), pageCount);
  const order = direction === 'asc' ? asc : desc;
  // Every order ends on the id, so rows that tie (the same balance, never queried) keep one place.
  const orderBy =
    sort === 'saldo'
      ? [order(integrations.balanceCentavos), order(integrations.id)]
      : sort === 'ultima'
        ? [direction === 'asc' ? sql`${integrationActivity.lastQueryAt} asc nulls first` : sql`${integrationActivity.lastQueryAt} desc nulls last`, order(integrations.id)]
        : [order(integrations.nombre), order(integrations.id)];
  const rows = await handle
    .select({
      integration: integrations,
      lastQueryAt: integrationActivity.lastQueryAt,
      // The prefixes of the tokens that work now, newest first, so people can tell which one a system uses.
      tokenPrefixes: sql<string | null>`(select string_agg(t.token_prefix || '…', ' · ' order by t.id desc) from integration_tokens t
        where t.integration_id = ${integrations.id} and t.revoked_at is null and (t.expires_at is null or t.expires_at > now()))`,
    })
    .from(integrations)
    .leftJoin(integrationActivity, eq(integrationActivity.integrationId, integrations.id))
    .where(where)
    .orderBy(...orderBy)
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  return {
    items: rows.map(({ integration, lastQueryAt, tokenPrefixes }) => ({ ...toView(integration), lastQueryAt, tokenPrefixes })),
    total,
    page,
    pageCount,
  };
}

/**
 * The integrations people may mean by what they typed: part of the login, the
 * legal name or a contact's e-mail, or the NIT written with or without its hyphen and spaces.
 */
function matching(term: string): SQL {
  const pattern = `%${escapeLike(term)}%`;
  const alternatives = [
    sql`${integrations.nombre} ilike ${pattern} escape '\\'`,
    sql`${integrations.legalName} ilike ${pattern} escape '\\'`,
    sql`${integrations.technicalContactEmail} ilike ${pattern} escape '\\'`,
    sql`${integrations.billingContactEmail} ilike ${pattern} escape '\\'`,
  ];
  // A NIT is digits and perhaps a final K: compared without what people put between them.
  const nitDigits = term.toUpperCase().replace(/[\s-]/g, '');
  if (/^[0-9]+K?$/.test(nitDigits)) alternatives.push(sql`replace(replace(upper(${integrations.nit}), '-', ''), ' ', '') like ${`%${nitDigits}%`}`);
  return sql`(${sql.join(alternatives, sql` or `)})`;
}

export async function integrationName(id: number): Promise<string | undefined> {
  const [row] = await (await db()).select({ nombre: integrations.nombre }).from(integrations).where(eq(integrations.id, id));
  return row?.nombre;
}

/** The names of a few integrations (those on one page of a list), by id. */
export async function integrationNames(ids: Iterable<number>): Promise<Map<number, string>> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return new Map();
  const rows = await (await db()).select({ id: integrations.id, nombre: integrations.nombre }).from(integrations).where(inArray(integrations.id, wanted));
  return new Map(rows.map((row) => [row.id, row.nombre]));
}

/**
 * The integration a person typed in a field that suggests integrations: its number, a suggestion
 * as offered ("Nombre (n.º 12)", see integrationChoiceLabel) or its exact name, in any case.
 * Undefined when none matches; 'ambiguous' when the name belongs to several.
 */
export async function findTypedIntegration(text: string): Promise<{ id: number; nombre: string } | 'ambiguous' | undefined> {
  const byNumber = /^(?:.*\(n\.º\s*)?(\d{1,9})\)?$/.exec(text.trim());
  const handle = await db();
  if (byNumber) {
    const [row] = await handle.select({ id: integrations.id, nombre: integrations.nombre }).from(integrations).where(eq(integrations.id, Number(byNumber[1])));
    if (row) return row;
  }
  const rows = await handle
    .select({ id: integrations.id, nombre: integrations.nombre })
    .from(integrations)
    .where(sql`lower(${integrations.nombre}) = lower(${text.trim()})`)
    .limit(2);
  if (rows.length > 1) return 'ambiguous';
  return rows[0];
}

/**
 * A list's integration filter as typed: the integration's id, or what to tell the person. The
 * lists' fields send what they show (a name, or a suggestion with its number); the URL keeps the id.
 */
export async function resolveIntegrationFilter(typed: string): Promise<{ id: number } | { problem: string }> {
  const found = await findTypedIntegration(typed);
  if (found === 'ambiguous') return { problem: `Varias integraciones se llaman «${typed.trim()}»: elija una de la lista (lleva su número).` };
  if (found === undefined) return { problem: `Ninguna integración se llama «${typed.trim()}»: elija una de la lista o escriba su número.` };
  return { id: found.id };
}

/** Up to `limit` integrations whose name contains what was typed, for a field's suggestions. */
export async function suggestIntegrationsNamed(text: string, limit = 8): Promise<Array<{ id: number; nombre: string }>> {
  if (text.trim() === '') return [];
  const page = await listIntegrationsPage({ search: text, pageSize: limit });
  return page.items.map((item) => ({ id: item.id, nombre: item.nombre }));
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}
