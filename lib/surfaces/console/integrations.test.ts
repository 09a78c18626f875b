// Issue 24, defect 14: the console's integration list is paged, searchable and sortable, so it
// stays one page of 50 however many integrations there are.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { createTestIntegration } from '@/tests/conformance/harness';
import { useTestDatabase, type TestDatabase } from '@/tests/support/test-database';
import { integrationNames, listIntegrationsPage, resolveIntegrationFilter, suggestIntegrationsNamed } from './integrations';

let testDatabase: TestDatabase;
const COUNT = 120;
/** lista-000 … lista-119, balances in a scrambled order, every third one queried at its own time. */
const names = Array.from({ length: COUNT }, (_, index) => `lista-${String(index).padStart(3, '0')}`);
const balanceOf = (index: number) => ((index * 37) % COUNT) * 100;
const ids = new Map<string, number>();

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  for (const [index, nombre] of names.entries()) {
    const created = await createTestIntegration(nombre, { balanceCentavos: balanceOf(index) });
    ids.set(nombre, created.id);
  }
  const handle = await database();
  for (const [index, nombre] of names.entries()) {
    if (index % 3 !== 0) continue;
    const at = new Date(Date.UTC(2026, 10, 1) + index * 60_000).toISOString();
    await handle.rows(sql`insert into integration_activity (integration_id, last_query_at) values (${ids.get(nombre)!}, ${at}::timestamptz)`);
  }
}, 120_000);

afterAll(async () => {
  await testDatabase?.cleanup();
});

const namesOf = (page: Awaited<ReturnType<typeof listIntegrationsPage>>) => page.items.map((item) => item.nombre);

describe('the integration list', () => {
  it('comes in pages of 50 by name, with the total, and a page past the end shows the last one', async () => {
    const first = await listIntegrationsPage({ search: 'lista-' });
    expect({ total: first.total, page: first.page, pageCount: first.pageCount }).toEqual({ total: COUNT, page: 1, pageCount: 3 });
    expect(namesOf(first)).toEqual(names.slice(0, 50));
    expect(namesOf(await listIntegrationsPage({ search: 'lista-', page: 2 }))).toEqual(names.slice(50, 100));
    const beyond = await listIntegrationsPage({ search: 'lista-', page: 99 });
    expect({ page: beyond.page, names: namesOf(beyond) }).toEqual({ page: 3, names: names.slice(100) });
    expect(namesOf(await listIntegrationsPage({ search: 'lista-', direction: 'desc', pageSize: 3 }))).toEqual(['lista-119', 'lista-118', 'lista-117']);
  });

  it('finds by part of the name, case aside, and takes % and _ literally', async () => {
    const found = await listIntegrationsPage({ search: 'LISTA-11' });
    expect(namesOf(found)).toEqual(['lista-110', 'lista-111', 'lista-112', 'lista-113', 'lista-114', 'lista-115', 'lista-116', 'lista-117', 'lista-118', 'lista-119']);
    expect((await listIntegrationsPage({ search: 'lista%' })).total).toBe(0);
    expect((await listIntegrationsPage({ search: 'lista_000' })).total).toBe(0);
  });

  it('sorts by balance either way, ties broken by id, across pages', async () => {
    const byBalance = [...names].sort((a, b) => balanceOf(names.indexOf(a)) - balanceOf(names.indexOf(b)) || ids.get(a)! - ids.get(b)!);
    const lowest = await listIntegrationsPage({ search: 'lista-', sort: 'saldo', direction: 'asc' });
    const next = await listIntegrationsPage({ search: 'lista-', sort: 'saldo', direction: 'asc', page: 2 });
    expect([...namesOf(lowest), ...namesOf(next)]).toEqual(byBalance.slice(0, 100));
    expect(namesOf(await listIntegrationsPage({ search: 'lista-', sort: 'saldo', pageSize: 5 }))).toEqual([...byBalance].reverse().slice(0, 5));
  });

  it('sorts by the latest query, the most recent first and never-queried last (or first, turned around)', async () => {
    const queried = names.filter((_, index) => index % 3 === 0);
    const recent = await listIntegrationsPage({ search: 'lista-', sort: 'ultima' });
    expect(namesOf(recent).slice(0, queried.length)).toEqual([...queried].reverse());
    expect(recent.items.slice(queried.length).every((item) => item.lastQueryAt === null)).toBe(true);
    const oldest = await listIntegrationsPage({ search: 'lista-', sort: 'ultima', direction: 'asc', page: 3 });
    expect(namesOf(oldest).slice(-queried.length + 20)).toEqual(queried.slice(20));
  });
});

describe('the integration filters of the lists (typed, never a menu of every integration)', () => {
  it('resolve a name in any case, a suggestion "Nombre (n.º 12)" or a number to the id, and say when no integration has that name', async () => {
    const id = ids.get('lista-007')!;
    expect(await resolveIntegrationFilter('LISTA-007')).toEqual({ id });
    expect(await resolveIntegrationFilter(`lista-007 (n.º ${id})`)).toEqual({ id });
    expect(await resolveIntegrationFilter(` ${id} `)).toEqual({ id });
    expect(await resolveIntegrationFilter('lista-0')).toEqual({ problem: 'Ninguna integración se llama «lista-0»: elija una de la lista o escriba su número.' });
  });

  it('suggest at most 8 names containing what was typed, and name only the integrations asked for', async () => {
    const suggested = await suggestIntegrationsNamed('lista-1');
    expect(suggested.map((item) => item.nombre)).toEqual(['lista-100', 'lista-101', 'lista-102', 'lista-103', 'lista-104', 'lista-105', 'lista-106', 'lista-107']);
    expect(await suggestIntegrationsNamed('  ')).toEqual([]);
    const named = await integrationNames([ids.get('lista-003')!, ids.get('lista-004')!, ids.get('lista-003')!]);
    expect(named).toEqual(new Map([[ids.get('lista-003')!, 'lista-003'], [ids.get('lista-004')!, 'lista-004']]));
    expect(await integrationNames([])).toEqual(new Map());
  });
});

describe('the integration list is searched the way people name an integration (issue 32, point 4)', () => {
  it('finds one by its legal name, its NIT with or without the hyphen, and its contacts\' e-mail', async () => {
    const created = await createTestIntegration('coop-buscada');
    await (await database()).rows(sql`
      update integrations set legal_name = 'Cooperativa El Ejemplo, R.L.', nit = '576937-K',
             technical_contact_email = 'ti@ejemplo.com.gt', billing_contact_email = 'pagos@ejemplo.com.gt'
       where id = ${created.id}`);
    for (const typed of ['El Ejemplo', 'cooperativa el ejemplo', '576937-K', '576937k', '576937 K', 'ti@ejemplo', 'PAGOS@EJEMPLO.COM.GT']) {
      expect(namesOf(await listIntegrationsPage({ search: typed })), typed).toEqual(['coop-buscada']);
    }
    const [found] = (await listIntegrationsPage({ search: '576937K' })).items;
    expect(found).toMatchObject({ legalName: 'Cooperativa El Ejemplo, R.L.', nit: '576937-K' });
    // Another NIT, or a pattern character, finds nothing.
    expect((await listIntegrationsPage({ search: '576938' })).total).toBe(0);
    expect((await listIntegrationsPage({ search: 'ejemplo%' })).total).toBe(0);
  });
});
