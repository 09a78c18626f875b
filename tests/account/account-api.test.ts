// The integrator's own account through the API (GET /api/cuenta, GET /api/cuenta/movimientos) and the
// sources' status (GET /api/estado), against the built app on PGlite and on PostgreSQL: every answer
// one the OpenAPI document describes; the balance, threshold, tariff, lookups, limits with this
// minute's use and this month's cost of the integration asking and of no other; its movements as the
// portal lists them, filtered by Guatemalan days and kind and paged by cursor; wrong credentials
// answered as /api/lotes answers them, without a database statement; and the reads' own per-minute
// limit, which spends neither the lookups' per-minute limit nor the global per-IP one.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adjustBalance, topUp } from '@/lib/core/billing/ledger';
import { CATALOG_MESSAGES } from '@/lib/contract/messages';
import { setLowBalanceAlert } from '@/lib/flows/integration-management/service';
import { guatemalanDayBefore, guatemalanToday } from '@/lib/platform/time/guatemala-time';
import { ACCOUNT_MESSAGES } from '@/lib/surfaces/api/account-responses';
import type { AccountBody, MovementsBody } from '@/lib/surfaces/api/account-schemas';
import { expectDocumentedResponse } from '../support/openapi-validator';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';
import { sampleValue, scrapeMetrics } from '../operations/metrics-support';
import { createTestIntegration, credentialHeaders, startGateway, untilCountSettles, TEST_ACTOR, type Gateway, type TestIntegration } from '../conformance/harness';

const TARIFF = 150;
const ACCOUNT_LIMIT = 40;
const CATALOG_LIMIT = 2;
const METRICS_TOKEN = 'metrics-token-for-the-account-test-0123';

let testDb: TestDatabase;
let gateway: Gateway;
let main: TestIntegration;
let other: TestIntegration;
let limited: TestIntegration;
let paging: TestIntegration;
let calendar: TestIntegration;
let nextClient = 0;

/** A client address of its own for each request, so the global per-IP limit (5 here) is reached only where a case means to. */
const freshAddress = () => `10.9.${Math.floor(nextClient / 250)}.${(nextClient++ % 250) + 1}`;

interface Answer {
  status: number;
  body: unknown;
}

/** A GET as an integrator sends it, checked against the OpenAPI document. */
async function get(path: string, headers: Record<string, string>, address = freshAddress()): Promise<Answer> {
  const response = await fetch(`${gateway.app.baseUrl}/api${path}`, { headers: { ...headers, 'x-forwarded-for': address } });
  const text = await response.text();
  const contentType = response.headers.get('content-type');
  const body = contentType?.includes('application/json') ? JSON.parse(text) : text;
  expect(response.headers.get('x-request-id'), `x-request-id of GET ${path}`).toMatch(/^req_[0-9a-f]{20}$/);
  expectDocumentedResponse({ path: path.split('?')[0]!, method: 'get', status: response.status, contentType, body });
  return { status: response.status, body };
}

const account = async (as: TestIntegration, address?: string) => get('/cuenta', credentialHeaders(as), address);
const movements = async (as: TestIntegration, query = '') => get(`/cuenta/movimientos${query}`, credentialHeaders(as));

async function lookup(as: TestIntegration, address = freshAddress()): Promise<number> {
  const answer = await gateway.call('/api/catalogos/omisos', { as, json: { nit: gateway.sample.individual.nit }, headers: { 'x-forwarded-for': address } });
  return answer.status;
}

beforeAll(async () => {
  testDb = await useTestDatabase();
  main = await createTestIntegration('cuenta-principal', { tariffCentavos: TARIFF, balanceCentavos: 15_000, flags: { isRenapEnabled: false } });
  await setLowBalanceAlert(TEST_ACTOR, main.id, 20_000);
  await topUp(TEST_ACTOR, main.id, 2_000, 'Depósito BI 778899');
  await adjustBalance(TEST_ACTOR, main.id, -500, 'Corrección de cobro');
  other = await createTestIntegration('cuenta-otra', { tariffCentavos: 200, balanceCentavos: 7_777 });
  await topUp(TEST_ACTOR, other.id, 1_234, 'Nota de la otra integración');
  limited = await createTestIntegration('cuenta-limitada', { tariffCentavos: TARIFF, balanceCentavos: 10 * TARIFF });
  paging = await createTestIntegration('cuenta-paginas', { tariffCentavos: TARIFF, balanceCentavos: 100 });
  for (let index = 1; index <= 54; index++) await topUp(TEST_ACTOR, paging.id, index, `Recarga ${index}`);
  calendar = await createTestIntegration('cuenta-calendario', { tariffCentavos: TARIFF, balanceCentavos: 100 });
  // 23:30 of 9 March in Guatemala (UTC-6), already 10 March in UTC.
  await testDb.use((handle) => handle.rows(sql`update ledger_entries set created_at = '2026-03-10T05:30:00Z' where integration_id = ${calendar.id}`));
  gateway = await startGateway(testDb, {
    env: {
      ACCOUNT_API_PER_MINUTE: String(ACCOUNT_LIMIT),
      RATE_LIMIT_CATALOG_PER_MINUTE: String(CATALOG_LIMIT),
      // Each request brings its own client address (one trusted hop); a year-long window cannot end mid-test.
      TRUSTED_PROXY_HOPS: '1',
      RATE_LIMIT_GLOBAL_MAX: '5',
      RATE_LIMIT_GLOBAL_WINDOW_SECONDS: '31536000',
      METRICS_TOKEN,
      // Background work that would query the database while the wrong tokens are counted, out of the way.
      ROLLUP_INTERVAL_MS: '600000',
      HOLD_SWEEP_INTERVAL_SECONDS: '600',
      INTEGRATION_CACHE_REFRESH_MS: '10000',
      BULK_POLL_MS: '600000',
    },
  });
  // Two charged lookups this month.
  expect([await lookup(main), await lookup(main)]).toEqual([200, 200]);
}, PROCESS_TEST_TIMEOUT_MS);

afterAll(async () => {
  await gateway?.stop();
  await testDb?.cleanup();
});

describe('GET /api/cuenta', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it("answers the integration's balance, threshold, tariff, lookups, limits with this minute's use and this month's cost", async () => {
    const answer = await account(main);
    expect(answer.status).toBe(200);
    const body = answer.body as AccountBody;
    // 150.00 + 20.00 - 5.00, less two lookups at 1.50.
    expect(body).toMatchObject({
      integracion: 'cuenta-principal',
      activa: true,
      moneda: 'GTQ',
      saldo_centavos: 16_200,
      saldo: '162.00',
      umbral_saldo_bajo_centavos: 20_000,
      umbral_saldo_bajo: '200.00',
      umbral_saldo_bajo_propio: true,
      saldo_bajo: true,
      sin_saldo: false,
      consultas_que_paga: 108,
      tarifa_centavos: TARIFF,
      tarifa: '1.50',
    });
    expect(body.consultas.map((lookup) => [lookup.ruta, lookup.habilitada, lookup.cobrada])).toEqual([
      ['/renap/buscar-cui', false, false],
      ['/rtu/nits', true, false],
      ['/catalogos/cui-nit', true, true],
      ['/catalogos/rtu', true, true],
      ['/catalogos/omisos', true, true],
    ]);
    const limits = Object.fromEntries(body.limites.map((limit) => [limit.limite, [limit.por_minuto, limit.usadas_este_minuto]]));
    // The two lookups spent the catalogs' limit; this read spent the account's, and nothing else did.
    expect(limits).toEqual({ renap: [30, 0], rtu_nits: [50, 0], catalogos: [CATALOG_LIMIT, 2], lotes: [60, 0], cuenta: [ACCOUNT_LIMIT, 1] });
    const month = guatemalanToday().slice(0, 7);
    expect(body.gasto.mes_en_curso).toMatchObject({ mes: month, gasto_centavos: 2 * TARIFF, gasto: '3.00' });
    expect(body.gasto.mes_anterior).toMatchObject({ gasto_centavos: 0, gasto: '0.00' });
    expect(body.gasto.mes_anterior.mes < month).toBe(true);
  });

  it("shows another integration its own account, never this one's", async () => {
    const answer = await account(other);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ integracion: 'cuenta-otra', saldo_centavos: 7_777 + 1_234, tarifa_centavos: 200, umbral_saldo_bajo_propio: false });
    expect(JSON.stringify(answer.body)).not.toContain('cuenta-principal');
  });

  it('answers missing and wrong credentials as /api/lotes does, and a wrong token costs no database statement', async () => {
    for (const path of ['/cuenta', '/cuenta/movimientos']) {
      expect(await get(path, {})).toEqual({ status: 403, body: { message: CATALOG_MESSAGES.credentialsRequired } });
      expect(await get(path, { 'x-integracion-login': main.nombre })).toEqual({ status: 401, body: { message: CATALOG_MESSAGES.integrationNotFound } });
      expect(await get(path, { 'x-integracion-login': main.nombre, 'x-integracion-token': `${main.token}x` })).toEqual({ status: 401, body: { message: CATALOG_MESSAGES.integrationNotFound } });
      // Another integration's login with this one's token.
      expect(await get(path, { 'x-integracion-login': other.nombre, 'x-integracion-token': main.token })).toEqual({ status: 401, body: { message: CATALOG_MESSAGES.integrationNotFound } });
    }

    const statementsSent = async () => sampleValue((await scrapeMetrics(gateway.app.baseUrl, METRICS_TOKEN)).samples, 'gateway_database_round_trips_total');
    /** The statements the instance sent while 20 wrong tokens were answered, once its count settled. */
    const statementsBesideWrongTokens = async () => {
      await untilCountSettles(statementsSent, 'the statement count settles');
      const before = await statementsSent();
      const wrong = await Promise.all(
        Array.from({ length: 20 }, (_, index) =>
          fetch(`${gateway.app.baseUrl}/api/cuenta${index % 2 ? '/movimientos' : ''}`, {
            headers: { 'x-integracion-login': main.nombre, 'x-integracion-token': `tlk_wrong${index}`, 'x-forwarded-for': freshAddress() },
          }).then(async (response) => (await response.arrayBuffer(), response.status)),
        ),
      );
      expect(wrong.every((status) => status === 401)).toBe(true);
      return (await statementsSent()) - before;
    };
    // Up to three tries, one of them without a statement: the instance's periodic jobs (the rollups,
    // the sweeper) may send theirs during a try (once in CI, on PostgreSQL beside the image's build),
    // while a wrong token that cost a statement would cost it in every try.
    const sent: number[] = [];
    while (sent.length < 3 && !sent.includes(0)) sent.push(await statementsBesideWrongTokens());
    expect(sent).toContain(0);
  });

  it("has its own per-minute limit, answered 429, which spends neither the lookups' limit nor the global per-IP one", async () => {
    const address = '192.0.2.50';
    const statuses: number[] = [];
    for (let index = 0; index <= ACCOUNT_LIMIT; index++) statuses.push((await account(limited, address)).status);
    expect(statuses.slice(0, ACCOUNT_LIMIT).every((status) => status === 200)).toBe(true);
    const refused = await account(limited, address);
    expect(statuses.at(-1)).toBe(429);
    expect(refused).toEqual({ status: 429, body: { message: CATALOG_MESSAGES.rateLimited } });
    expect((await movements(limited)).status).toBe(429);
    // Not a contract route: its 429 says when the minute's window ends (the sixth review found none).
    const retryAfter = (await fetch(`${gateway.app.baseUrl}/api/cuenta`, { headers: { ...credentialHeaders(limited), 'x-forwarded-for': address } })).headers.get('retry-after');
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(retryAfter)).toBeLessThanOrEqual(60);
    // From the same address, past 42 account reads: the global limit is 5 and the catalogs' 2, both untouched.
    expect([await lookup(limited, address), await lookup(limited, address), await lookup(limited, address)]).toEqual([200, 200, 429]);
  });
});

describe('GET /api/cuenta/movimientos', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it("lists the integration's top-ups, adjustments and charged lookups, newest first, with the balance each left and the portal's words", async () => {
    const answer = await movements(main);
    expect(answer.status).toBe(200);
    const body = answer.body as MovementsBody;
    expect(body.movimientos.map((row) => [row.tipo, row.monto_centavos, row.saldo_despues_centavos, row.origen, row.nota])).toEqual([
      ['consulta_cobrada', -TARIFF, 16_200, 'Consulta a la API', null],
      ['consulta_cobrada', -TARIFF, 16_350, 'Consulta a la API', null],
      ['ajuste', -500, 16_500, 'Sistema', 'Corrección de cobro'],
      ['recarga', 2_000, 17_000, 'Sistema', 'Depósito BI 778899'],
      ['recarga', 15_000, 15_000, 'Sistema', 'Saldo inicial'],
    ]);
    expect(body.movimientos[0]).toMatchObject({ descripcion: 'Consulta cobrada', monto: '-1.50', saldo_despues: '162.00' });
    expect(body).toMatchObject({ moneda: 'GTQ', retenido: { consultas: 0, monto_centavos: 0 }, siguiente: null });
    expect(JSON.stringify(body)).not.toContain('Nota de la otra');
  });

  it('filters by kind and by Guatemalan days, both included', async () => {
    const today = guatemalanToday();
    const kinds = async (query: string) => ((await movements(main, query)).body as MovementsBody).movimientos.map((row) => row.tipo);
    expect(await kinds('?tipo=consulta_cobrada')).toEqual(['consulta_cobrada', 'consulta_cobrada']);
    expect(await kinds('?tipo=recarga')).toEqual(['recarga', 'recarga']);
    expect(await kinds(`?desde=${today}&hasta=${today}`)).toHaveLength(5);
    expect(await kinds(`?hasta=${guatemalanDayBefore(today, 1)}`)).toEqual([]);
    const inCalendar = async (query: string) => ((await movements(calendar, query)).body as MovementsBody).movimientos.map((row) => row.fecha);
    // 05:30 UTC on 10 March is still 9 March in Guatemala.
    expect(await inCalendar('?desde=2026-03-09&hasta=2026-03-09')).toEqual(['2026-03-10T05:30:00.000Z']);
    expect(await inCalendar('?desde=2026-03-10&hasta=2026-03-10')).toEqual([]);
  });

  it('pages by cursor, 50 at a time, without repeating or skipping one', async () => {
    const first = (await movements(paging)).body as MovementsBody;
    expect(first.movimientos).toHaveLength(50);
    expect(first.siguiente).toEqual(expect.any(String));
    const second = (await movements(paging, `?cursor=${encodeURIComponent(first.siguiente!)}`)).body as MovementsBody;
    expect(second.siguiente).toBeNull();
    const amounts = [...first.movimientos, ...second.movimientos].map((row) => row.monto_centavos);
    // 54 top-ups of 1 to 54 centavos, newest first, after the initial balance.
    expect(amounts).toEqual([...Array.from({ length: 54 }, (_, index) => 54 - index), 100]);
    // Another integration's cursor lists only its own movements.
    const foreign = (await movements(other, `?cursor=${encodeURIComponent(first.siguiente!)}`)).body as MovementsBody;
    expect(foreign.movimientos.every((row) => row.nota === null || !row.nota.startsWith('Recarga '))).toBe(true);
  });

  it('answers 400 with what is wrong for a bad date, a reversed range, an unknown kind or a cursor it never gave', async () => {
    expect(await movements(main, '?desde=2026-13-01')).toEqual({ status: 400, body: { message: ACCOUNT_MESSAGES.desde } });
    expect(await movements(main, '?hasta=ayer')).toEqual({ status: 400, body: { message: ACCOUNT_MESSAGES.hasta } });
    expect(await movements(main, '?desde=2026-11-10&hasta=2026-11-09')).toEqual({ status: 400, body: { message: ACCOUNT_MESSAGES.range } });
    expect(await movements(main, '?tipo=capture')).toEqual({ status: 400, body: { message: ACCOUNT_MESSAGES.tipo } });
    expect(await movements(main, '?cursor=no-es-un-cursor')).toEqual({ status: 400, body: { message: ACCOUNT_MESSAGES.cursor } });
  });
});

describe('GET /api/estado', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('answers without credentials, as the OpenAPI document describes it', async () => {
    const answer = await get('/estado', {});
    expect(answer.status).toBe(200);
    expect((answer.body as { fuentes: unknown[] }).fuentes).toHaveLength(3);
  });
});

describe('/docs', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('shows the three operations in a section of their own, linked from the top, GET /estado without credentials', async () => {
    const response = await fetch(`${gateway.app.baseUrl}/docs`, { headers: { 'x-forwarded-for': freshAddress() } });
    expect(response.status).toBe(200);
    const html = await response.text();
    const start = html.indexOf('<section id="cuenta"');
    expect(start).toBeGreaterThan(0);
    // The account's section ends where the next of the page's top-level sections begins.
    const section = html.slice(start, html.indexOf('<section id="historial"', start));
    for (const [operationId, path] of [['getAccount', '/cuenta'], ['listAccountMovements', '/cuenta/movimientos'], ['getSourcesStatus', '/estado']]) {
      expect(section).toContain(`<section id="${operationId}"`);
      expect(section).toContain(`<span class="method">GET</span> <code>${path}</code>`);
      expect(html).toContain(`href="#${operationId}"`);
    }
    const status = section.slice(section.indexOf('<section id="getSourcesStatus"'));
    expect(status).toContain('Sin credenciales.');
    expect(status).not.toContain('siempre juntas');
  });
});
