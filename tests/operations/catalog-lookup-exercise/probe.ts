// What an integrator, an administrator and the server see of a catalog lookup that was only
// declared (tests/operations/catalog-lookup-exercise.test.ts runs this, as probe.test.ts, in a
// copy of the tree where that declaration was added; here it is never run). Everything below
// names the catalog by the variables that follow, so this file compiles in the tree as it is.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import type { LookupKind } from '@/db/schema';
import { CATALOG_MESSAGES } from '@/lib/contract/messages';
import { FLAG_LOOKUP, FLAG_NAMES } from '@/lib/core/integrations/flags';
import { parseRecordFilters } from '@/lib/presentation/record-filters';
import { SERVER_BRIDGES } from '@/lib/platform/runtime/server-bridges.mjs';
import { SIMULATOR_DEV_CREDENTIALS } from '@/lib/sources/settings';
import { announceLookupPaths } from '@/lib/surfaces/api/direct-lookups';
import { buildOpenApiDocument } from '@/lib/surfaces/openapi/document';
import { LOOKUP_CATALOGUE, LOOKUP_LIMITED_ROUTES, LOOKUPS } from '@/lib/vocabulary/lookups';
import { RecordsFilterForm } from '@/components/records/records-filter-form';
import { credentialHeaders, createTestIntegration, type TestIntegration } from '@/tests/conformance/harness';
import { resetEnvCache, useTestDatabase, type TestDatabase } from '@/tests/support/test-database';
import { DEFAULT_SIMULATOR_SEED, samplePopulation, startSimulator, type RunningSimulator } from '@/simulator';

/** The declared catalog, as the exercise names it (its key in the catalogue, its path's name). */
const CATALOG = (process.env.EXERCISE_CATALOG ?? 'widgets') as LookupKind;
const PATH_NAME = process.env.EXERCISE_PATH_NAME ?? 'widgets';
/** What its source stub answers besides the NIT it was asked. */
const STUB_ANSWER = JSON.parse(process.env.EXERCISE_STUB_ANSWER ?? '{"widgets":7}') as Record<string, unknown>;
const TARIFF_CENTAVOS = 125;
const PER_MINUTE = 3;

let testDatabase: TestDatabase;
let simulator: RunningSimulator;
let enabled: TestIntegration;
let disabled: TestIntegration;
const nit = samplePopulation({ seed: DEFAULT_SIMULATOR_SEED }).individual.nit;

type Route = { POST: (request: Request, context: { params: Promise<{ catalogo: string }> }) => Promise<Response> };

async function ask(integration: TestIntegration): Promise<Response> {
  const route = (await import('@/app/api/catalogos/[catalogo]/route')) as Route;
  const request = new Request(`http://gateway.test/api/catalogos/${PATH_NAME}`, {
    method: 'POST',
    headers: { ...credentialHeaders(integration), 'content-type': 'application/json' },
    body: JSON.stringify({ nit }),
  });
  return route.POST(request, { params: Promise.resolve({ catalogo: PATH_NAME }) });
}

async function balanceOf(integration: TestIntegration): Promise<number> {
  const [row] = await (await database()).rows<{ balance: string }>(sql`select balance_centavos as balance from integrations where id = ${integration.id}`);
  return Number(row!.balance);
}

beforeAll(async () => {
  simulator = await startSimulator({ port: 0 });
  Object.assign(process.env, {
    CATALOG_BASE_URL: `${simulator.url}/catalog`,
    CATALOG_CLIENT_ID: SIMULATOR_DEV_CREDENTIALS.catalogClientId,
    CATALOG_CLIENT_SECRET: SIMULATOR_DEV_CREDENTIALS.catalogClientSecret,
    RATE_LIMIT_CATALOG_PER_MINUTE: String(PER_MINUTE),
  });
  resetEnvCache();
  testDatabase = await useTestDatabase();
  const flag = FLAG_NAMES.find((name) => FLAG_LOOKUP[name] === CATALOG)!;
  enabled = await createTestIntegration('con-el-catalogo', { tariffCentavos: TARIFF_CENTAVOS, balanceCentavos: 10_000 });
  disabled = await createTestIntegration('sin-el-catalogo', { tariffCentavos: TARIFF_CENTAVOS, balanceCentavos: 10_000, flags: { [flag]: false } });
});

afterAll(async () => {
  await testDatabase?.cleanup();
  await simulator?.close();
});

describe('a catalog lookup only declared', () => {
  it('is a catalog of the catalogue, spending the catalogs’ limit', () => {
    expect(LOOKUPS).toContain(CATALOG);
    expect(LOOKUP_CATALOGUE[CATALOG].path).toBe(`/api/catalogos/${PATH_NAME}`);
    expect(LOOKUP_LIMITED_ROUTES[CATALOG]).toBe('catalogs');
  });

  it('answers its source’s record, charges the tariff once and records the query', async () => {
    const before = await balanceOf(enabled);
    const answer = await ask(enabled);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ data: { nit: expect.any(String), ...STUB_ANSWER } });
    expect(await balanceOf(enabled)).toBe(before - TARIFF_CENTAVOS);
    const requestId = answer.headers.get('x-request-id');
    const records = await (await database()).rows<{ lookup: string; http_status: number }>(
      sql`select lookup, http_status from query_records where request_id = ${requestId}`,
    );
    expect(records).toEqual([{ lookup: CATALOG, http_status: 200 }]);
  });

  it('is refused with the contract’s 403 to an integration without its flag, and nothing is charged or recorded', async () => {
    const before = await balanceOf(disabled);
    const answer = await ask(disabled);
    expect(answer.status).toBe(403);
    expect(await answer.json()).toEqual({ message: CATALOG_MESSAGES.catalogNotEnabled });
    expect(await balanceOf(disabled)).toBe(before);
    const [count] = await (await database()).rows<{ n: string }>(sql`select count(*) as n from query_records where integration_id = ${disabled.id}`);
    expect(Number(count!.n)).toBe(0);
  });

  it('shares the catalogs’ per-minute limit: past it, the contract’s 429', async () => {
    // One lookup above already spent one of the minute's PER_MINUTE.
    for (let spent = 1; spent < PER_MINUTE; spent++) expect((await ask(enabled)).status).toBe(200);
    const refused = await ask(enabled);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ message: CATALOG_MESSAGES.rateLimited });
  });

  it('is answered by the server before Next, once its route is loaded', () => {
    announceLookupPaths();
    const global = globalThis as Record<symbol, unknown>;
    expect(global[SERVER_BRIDGES.lookupPaths]).toContain(`/api/catalogos/${PATH_NAME}`);
    expect((global[SERVER_BRIDGES.directLookups] as Map<string, unknown>).has(`/api/catalogos/${PATH_NAME}`)).toBe(true);
  });

  it('is in the OpenAPI document, with its operation and its answer’s schema', () => {
    const document = buildOpenApiDocument('https://gateway.example.com/api');
    const operation = (document.paths[`/catalogos/${PATH_NAME}`] as { post: { operationId: string; responses: Record<string, unknown> } }).post;
    expect(operation.operationId).toBe(LOOKUP_CATALOGUE[CATALOG].operationId);
    expect(JSON.stringify(operation.responses['200'])).toContain('#/components/schemas/');
  });

  it('is one of the console’s and the portal’s record filters, by its label', () => {
    const form = renderToStaticMarkup(
      createElement(RecordsFilterForm, {
        action: '/admin/registros/buscar',
        listPath: '/admin/registros',
        narrowed: false,
        search: { label: 'Buscar', placeholder: '', hint: '', value: '' },
        filters: { consulta: CATALOG },
        hasta: undefined,
        hastaProblem: undefined,
        applied: new URLSearchParams(),
      }),
    );
    expect(form).toContain(`<option value="${CATALOG}" selected="">${LOOKUP_CATALOGUE[CATALOG].label}</option>`);
    expect(parseRecordFilters({ consulta: CATALOG }).filters.consulta).toBe(CATALOG);
  });
});
