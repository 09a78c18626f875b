// Contract, "Limits" (the per-minute layers, with the contract's own numbers: 30, 50 and one shared
// catalog counter of 30), the 429 rows of "Errors", and the precedence of checks we chose
// (docs/decisions.md), over HTTP against the built app (startApp, through the harness). The
// global per-IP layer has its own file, global-limit.test.ts; here it is out of the way.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEnv } from '@/lib/root/settings';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';
import {
  CATALOG_ROUTES,
  callRepeatedly,
  createTestIntegration,
  expectErrorBody,
  readMoney,
  readRecords,
  ROUTES,
  startGateway,
  type ApiAnswer,
  type Gateway,
  type TestIntegration,
} from './harness';

const REGISTRY_RATE_LIMITED = 'Rate limit exceeded.';
const CATALOG_RATE_LIMITED = 'Demasiadas consultas seguidas. Intenta en un minuto.';
const TARIFF = 50;
const START_BALANCE = 100_000;

let testDb: TestDatabase;
let gateway: Gateway;
const integrations: Record<string, TestIntegration> = {};

beforeAll(async () => {
  testDb = await useTestDatabase();
  for (const name of ['limit-renap', 'limit-rtu', 'limit-catalogs', 'limit-other', 'limit-malformed', 'limit-flags', 'limit-parallel']) {
    integrations[name] = await createTestIntegration(name, {
      tariffCentavos: TARIFF,
      balanceCentavos: START_BALANCE,
      flags: name === 'limit-flags' ? { isCuiNitEnabled: false } : {},
    });
  }
  integrations['Limit-Case'] = await createTestIntegration('Limit-Case', { tariffCentavos: TARIFF, balanceCentavos: START_BALANCE });
  integrations['limit-broke'] = await createTestIntegration('limit-broke', { tariffCentavos: TARIFF, balanceCentavos: 0 });
  // The contract's per-minute numbers are the defaults: this file does not set them.
  gateway = await startGateway(testDb);
});

afterAll(async () => {
  await gateway?.stop();
  await testDb?.cleanup();
});

const as = (name: string) => integrations[name]!;
const statuses = (answers: ApiAnswer[]) => answers.map((answer) => answer.status);
const times = <T>(count: number, value: T) => Array.from({ length: count }, () => value);

function expectNoRetryAfter(answer: ApiAnswer): void {
  expect(answer.headers.get('retry-after')).toBeNull();
}

describe('Limits: per-minute layers', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('the defaults are the contract\'s numbers: 100 per 15 minutes per IP, 30 / 50 / 30 per minute', () => {
    const defaults = parseEnv({});
    expect({
      globalMax: defaults.RATE_LIMIT_GLOBAL_MAX,
      globalWindowSeconds: defaults.RATE_LIMIT_GLOBAL_WINDOW_SECONDS,
      renap: defaults.RATE_LIMIT_RENAP_PER_MINUTE,
      rtu: defaults.RATE_LIMIT_RTU_PER_MINUTE,
      catalogs: defaults.RATE_LIMIT_CATALOG_PER_MINUTE,
      sourceCeilingMs: defaults.SOURCE_TIMEOUT_MS,
    }).toEqual({ globalMax: 100, globalWindowSeconds: 900, renap: 30, rtu: 50, catalogs: 30, sourceCeilingMs: 30_000 });
  });

  it("person registry: 30 per minute per integration, then 429 'Rate limit exceeded.' without Retry-After", async () => {
    const body = { json: { cui: gateway.sample.individual.cui }, as: as('limit-renap') };
    expect(statuses(await callRepeatedly(gateway, 30, ROUTES.renap, body))).toEqual(times(30, 200));
    const limited = await gateway.call(ROUTES.renap, body);
    expectErrorBody(limited, 429, 'error', REGISTRY_RATE_LIMITED);
    expectNoRetryAfter(limited);
    // Precedence: past the limit even a malformed body gets the 429.
    expectErrorBody(await gateway.call(ROUTES.renap, { as: as('limit-renap'), json: {} }), 429, 'error', REGISTRY_RATE_LIMITED);

    // Its own counter: the same integration's other lookups and other integrations are untouched.
    expect((await gateway.call(ROUTES.rtuNits, { as: as('limit-renap'), json: { nits: [gateway.sample.individual.nit] } })).status).toBe(200);
    expect((await gateway.call(ROUTES.cuiNit, { as: as('limit-renap'), json: { nit: gateway.sample.individual.nit } })).status).toBe(200);
    expect((await gateway.call(ROUTES.renap, { ...body, as: as('limit-other') })).status).toBe(200);
  });

  it("RTU by NIT: 50 per minute per integration, then 429 'Rate limit exceeded.' without Retry-After", async () => {
    const body = { json: { nits: [gateway.sample.individual.nit] }, as: as('limit-rtu') };
    expect(statuses(await callRepeatedly(gateway, 50, ROUTES.rtuNits, body))).toEqual(times(50, 200));
    const limited = await gateway.call(ROUTES.rtuNits, body);
    expectErrorBody(limited, 429, 'error', REGISTRY_RATE_LIMITED);
    expectNoRetryAfter(limited);
    expect((await gateway.call(ROUTES.renap, { as: as('limit-rtu'), json: { cui: gateway.sample.individual.cui } })).status).toBe(200);
  });

  it("catalogs: one counter of 30 shared by the three; exhausted on any mix, all three answer 429 'Demasiadas consultas seguidas. Intenta en un minuto.'", async () => {
    const integration = as('limit-catalogs');
    const answers: ApiAnswer[] = [];
    for (let i = 0; i < 30; i++) {
      answers.push(await gateway.call(CATALOG_ROUTES[i % 3]!, { as: integration, json: { nit: gateway.sample.individual.nit } }));
    }
    expect(statuses(answers)).toEqual(times(30, 200));
    for (const route of CATALOG_ROUTES) {
      const limited = await gateway.call(route, { as: integration, json: { nit: gateway.sample.individual.nit } });
      expectErrorBody(limited, 429, 'message', CATALOG_RATE_LIMITED);
      expectNoRetryAfter(limited);
    }
    // The registry routes have their own counters; other integrations have theirs.
    expect((await gateway.call(ROUTES.renap, { as: integration, json: { cui: gateway.sample.individual.cui } })).status).toBe(200);
    expect((await gateway.call(ROUTES.omisos, { as: as('limit-other'), json: { nit: gateway.sample.individual.nit } })).status).toBe(200);

    // Rejections at the limit are not recorded and not charged (Limits, rules 7 and 8).
    const state = await gateway.withDatabase(async (handle) => ({ records: await readRecords(handle, integration.id), money: await readMoney(handle, integration.id) }));
    expect(state.records.filter((record) => record.lookup !== 'renap').length).toBe(30);
    expect(state.records.every((record) => record.httpStatus === 200)).toBe(true);
    expect(state.money.balanceCentavos).toBe(START_BALANCE - 30 * TARIFF);
    expect(state.money.ledgerSumCentavos).toBe(state.money.balanceCentavos);
  });

  it('the shared catalog counter holds under concurrency: of 45 simultaneous queries exactly 30 pass', async () => {
    const integration = as('limit-parallel');
    const answers = await Promise.all(
      Array.from({ length: 45 }, (_, index) => gateway.call(CATALOG_ROUTES[index % 3]!, { as: integration, json: { nit: gateway.sample.individual.nit } })),
    );
    expect(answers.filter((answer) => answer.status === 200).length).toBe(30);
    const limited = answers.filter((answer) => answer.status === 429);
    expect(limited.length).toBe(15);
    for (const answer of limited) expect(answer.body).toEqual({ message: CATALOG_RATE_LIMITED });
  });

  it('decision: counters are keyed by the integration name lowercased, as the login header is matched', async () => {
    const integration = as('Limit-Case');
    const spellings = ['limit-case', 'LIMIT-CASE', 'Limit-Case'];
    const answers: ApiAnswer[] = [];
    for (let i = 0; i < 30; i++) {
      answers.push(
        await gateway.call(ROUTES.renap, {
          headers: { 'x-integracion-login': spellings[i % 3]!, 'x-integracion-token': integration.token },
          json: { cui: gateway.sample.individual.cui },
        }),
      );
    }
    expect(statuses(answers)).toEqual(times(30, 200));
    const limited = await gateway.call(ROUTES.renap, {
      headers: { 'x-integracion-login': 'lImIt-CaSe', 'x-integracion-token': integration.token },
      json: { cui: gateway.sample.individual.cui },
    });
    expectErrorBody(limited, 429, 'error', REGISTRY_RATE_LIMITED);
  });
});

describe('Precedence of checks (docs/decisions.md: credentials, flag, limit, body, balance, source)', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('the limit comes before body validation: malformed requests spend quota, and past the limit a malformed request gets 429', async () => {
    const integration = as('limit-malformed');
    const malformed = await callRepeatedly(gateway, 30, ROUTES.cuiNit, { as: integration, json: { nit: '' } });
    expect(statuses(malformed)).toEqual(times(30, 400));
    expectErrorBody(await gateway.call(ROUTES.omisos, { as: integration, json: { nit: gateway.sample.individual.nit } }), 429, 'message', CATALOG_RATE_LIMITED);
    expectErrorBody(await gateway.call(ROUTES.catalogRtu, { as: integration, rawBody: '{not json', contentType: 'application/json' }), 429, 'message', CATALOG_RATE_LIMITED);
  });

  it('the flag comes before the limit: a disabled lookup spends nothing and still says 403 once the counter is exhausted', async () => {
    const integration = as('limit-flags');
    const disabled = await callRepeatedly(gateway, 30, ROUTES.cuiNit, { as: integration, json: { nit: gateway.sample.individual.nit } });
    expect(statuses(disabled)).toEqual(times(30, 403));
    const enabled = await callRepeatedly(gateway, 30, ROUTES.omisos, { as: integration, json: { nit: gateway.sample.individual.nit } });
    expect(statuses(enabled)).toEqual(times(30, 200));
    expect((await gateway.call(ROUTES.omisos, { as: integration, json: { nit: gateway.sample.individual.nit } })).status).toBe(429);
    expectErrorBody(
      await gateway.call(ROUTES.cuiNit, { as: integration, json: { nit: gateway.sample.individual.nit } }),
      403,
      'message',
      'Esta consulta no esta habilitada para tu integracion.',
    );
  });

  it('the limit comes before the balance: requests refused with 402 spend quota, and past the limit the answer is 429', async () => {
    const integration = as('limit-broke');
    const refused = await callRepeatedly(gateway, 30, ROUTES.cuiNit, { as: integration, json: { nit: gateway.sample.individual.nit } });
    expect(statuses(refused)).toEqual(times(30, 402));
    expectErrorBody(await gateway.call(ROUTES.cuiNit, { as: integration, json: { nit: gateway.sample.individual.nit } }), 429, 'message', CATALOG_RATE_LIMITED);
  });

  it('credentials come first: without them every route says 403 whatever else is wrong', async () => {
    // limit-malformed's catalog counter is exhausted; without valid credentials that never shows.
    const integration = as('limit-malformed');
    expectErrorBody(await gateway.call(ROUTES.cuiNit, { rawBody: 'nope', contentType: 'text/plain' }), 403, 'message', 'Se requieren credenciales de integracion.');
    expectErrorBody(
      await gateway.call(ROUTES.cuiNit, { headers: { 'x-integracion-login': integration.nombre }, rawBody: 'nope', contentType: 'text/plain' }),
      401,
      'message',
      'Integración no encontrada con estas credenciales.',
    );
    expectErrorBody(await gateway.call(ROUTES.renap, { rawBody: 'nope', contentType: 'text/plain' }), 403, 'error', 'Integration authentication required.');
  });
});
