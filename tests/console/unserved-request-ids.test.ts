// Every request id support is given leads somewhere true (issue 32, point 1), also for the answers
// the gateway gives without a query record: an instance whose admission queue is full (502 on the
// catalogs, 500 on the registries), a repeat whose Idempotency-Key another request still holds
// (502), an unexpected error before any record (500), a registry whose circuit breaker is open
// (500, never sent), the global per-IP limit (429) and a GET on a lookup (405). Over HTTP against the built app: each answer
// is what the contract says, and its x-request-id typed into the records search as support types
// it reads one sentence: who, which route, the status and why, when, not charged, what to do. On
// the main before this, each of them but the 429 read "Ninguna consulta ni rechazo tiene el id…".
// The answers that leave no trace (the API's paths that are not lookups, the server's own 400 and
// 408) read that, and what such an id may be: before, only "a copy error or not this service's".
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REGISTRY_FAILED_MESSAGE } from '@/lib/surfaces/api/registry-responses';
import { CATALOG_MESSAGES } from '@/lib/contract/messages';
import { idempotencyKeyHash } from '@/lib/core/idempotency/key';
import { GLOBAL_LIMIT_BODY } from '@/lib/core/limits/global-limit-body';
import { untracedAnswersText } from '@/lib/presentation/untraced-answers';
import { createConsoleUser } from '@/lib/flows/auth/users';
import { FAULT_IDENTIFIERS } from '@/simulator/faults';
import {
  createTestIntegration,
  eventually,
  expectErrorBody,
  readMoney,
  readRecords,
  ROUTES,
  startGateway,
  type ApiAnswer,
  type ApiRequest,
  type Gateway,
  type TestIntegration,
} from '../conformance/harness';
import { scrapeMetrics, sampleValue } from '../operations/metrics-support';
import { ConsoleClient } from '../support/console-client';
import { rawRequest, singleHeader } from '../support/raw-http';
import { logLines } from '../support/logs';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';

const START_BALANCE = 100_00;
/** The source ceiling here: a simulated slow source (10 s) holds a lookup's turn this long. */
const SOURCE_TIMEOUT_MS = 3_000;
const METRICS_TOKEN = 'unserved-request-ids-metrics-token';
const BREAKER_FAILURES = 3;
/** The global per-IP limit, low enough to reach; every other request comes from an address of its own. */
const GLOBAL_LIMIT = 2;
/** A key whose stored request was sealed with a personal-data key this deployment no longer has. */
const KEY_SEALED_WITH_A_RETIRED_KEY = 'clave-sellada-con-una-llave-retirada';

let testDatabase: TestDatabase;
let gateway: Gateway;
let coop: TestIntegration;
let support: ConsoleClient;
let nextAddress = 0;

/** The page's text as a reader sees it: no tags, one space between words. */
function text(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}

/** A lookup as coop-ejemplo sends it, from a client address no other request here used. */
function call(route: string, request: ApiRequest): Promise<ApiAnswer> {
  nextAddress++;
  return gateway.call(route, { as: coop, ...request, headers: { 'x-forwarded-for': `198.51.100.${nextAddress}`, ...request.headers } });
}

/** Where support's search for a request id leads, once the instance has written its traces (every ROLLUP_INTERVAL_MS). */
async function searched(requestId: string): Promise<string> {
  let page = '';
  await expect
    .poll(
      async () => {
        const found = await support.request(`/admin/registros?${new URLSearchParams({ identificador: requestId })}`);
        expect(found.status, `search for ${requestId}`).toBe(307);
        page = text((await support.request(found.headers.get('location')!)).text);
        return page;
      },
      { timeout: 15_000, interval: 250 },
    )
    .toContain(`${requestId}: `);
  return page;
}

/** The lookups running and waiting for their turn on the instance, from its metrics. */
async function admission(): Promise<{ running: number; waiting: number }> {
  const { samples } = await scrapeMetrics(gateway.app.baseUrl, METRICS_TOKEN);
  return { running: sampleValue(samples, 'gateway_lookups_running'), waiting: sampleValue(samples, 'gateway_lookups_waiting') };
}

const TIME = String.raw`\d\d/\d\d/\d{4},? \d\d:\d\d:\d\d`;

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  coop = await createTestIntegration('coop-ejemplo', { tariffCentavos: 150, balanceCentavos: START_BALANCE });
  const created = await createConsoleUser({ kind: 'system', name: 'test' }, { email: 'soporte-sin-atender@example.com', name: 'Soporte', role: 'support', mustChangePassword: false });
  if (!created.ok) throw new Error(created.error.message);
  // As after a key rotation whose previous key was dropped within the key's 24 hours: the stored
  // request cannot be opened, and the lookup fails closed with a 500 (docs/decisions.md).
  const retired = `pd1:0badc0de:${'A'.repeat(43)}`;
  await testDatabase.use((handle) =>
    handle.rows(sql`
      insert into idempotency_keys (integration_id, key_hash, request_sealed, owner_request_id, state, answer_status, answer_sealed)
      values (${coop.id}, ${idempotencyKeyHash(KEY_SEALED_WITH_A_RETIRED_KEY)}, ${retired}, 'req_00000000000000000000', 'done', 200, ${retired})`),
  );
  gateway = await startGateway(testDatabase, {
    env: {
      // One lookup runs at a time and one more may wait: a third is shed.
      LOOKUP_CONCURRENCY: '1',
      LOOKUP_QUEUE_MAX: '1',
      SOURCE_TIMEOUT_MS: String(SOURCE_TIMEOUT_MS),
      // Traces are written every interval: the searches below find them sooner than at the 2 s default.
      ROLLUP_INTERVAL_MS: '300',
      SOURCE_BREAKER_FAILURES: String(BREAKER_FAILURES),
      SOURCE_BREAKER_COOLDOWN_MS: '600000',
      METRICS_TOKEN,
      TRUSTED_PROXY_HOPS: '1',
      RATE_LIMIT_GLOBAL_MAX: String(GLOBAL_LIMIT),
    },
  });
  support = new ConsoleClient(gateway.app.baseUrl);
  expect(await support.signIn('soporte-sin-atender@example.com', created.value.password)).toBeNull();
}, PROCESS_TEST_TIMEOUT_MS);

afterAll(async () => {
  await gateway?.stop();
  await testDatabase?.cleanup();
});

describe('a request id the gateway answered without a record, as support searches it', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('explains a shed lookup (502 on a catalog, 500 on RENAP) and a repeat whose Idempotency-Key was still in use, none of them charged', async () => {
    // A person registry lookup the simulated registry answers slowly holds the one turn...
    const holdingTheTurn = call(ROUTES.renap, { json: { cui: FAULT_IDENTIFIERS.slow.cui } });
    await eventually(admission, (now) => now.running === 1, 10_000, 'the slow lookup running');
    // ...a catalog lookup with a key, slow too, claims its key and waits for the turn...
    const headers = { 'idempotency-key': `pedido-${Date.now()}` };
    const keyOwner = call(ROUTES.cuiNit, { json: { nit: FAULT_IDENTIFIERS.slow.nit }, headers });
    await eventually(admission, (now) => now.waiting === 1, 10_000, 'the lookup with the key waiting');
    // ...so its repeat waits for the key as long as the source's ceiling, and is answered before the key is free.
    const repeat = call(ROUTES.cuiNit, { json: { nit: FAULT_IDENTIFIERS.slow.nit }, headers });

    // The queue is full: the next lookups are shed at once, with each route family's "unavailable".
    const shedCatalog = await call(ROUTES.omisos, { json: { nit: gateway.sample.omiso.nit } });
    expectErrorBody(shedCatalog, 502, 'message', CATALOG_MESSAGES.sourceUnavailable);
    const shedRegistry = await call(ROUTES.renap, { json: { cui: gateway.sample.individual.cui } });
    expectErrorBody(shedRegistry, 500, 'error', REGISTRY_FAILED_MESSAGE);

    const keyInUse = await repeat;
    expectErrorBody(keyInUse, 502, 'message', CATALOG_MESSAGES.sourceUnavailable);
    // The two that held the turn and the key reached their (slow) sources: recorded, as before.
    expect((await holdingTheTurn).status).toBe(500);
    expect((await keyOwner).status).toBe(502);

    const catalogPage = await searched(shedCatalog.requestId);
    expect(catalogPage).toMatch(
      new RegExp(`${shedCatalog.requestId}: coop-ejemplo, /api/catalogos/omisos, 502 servicio saturado, ${TIME}, sin cobro: reintente en unos segundos`),
    );
    expect(catalogPage).toContain(
      'El servicio no pudo atenderla: la instancia tenía su cola de consultas llena y la respondió al momento, sin consultar ninguna fuente. No es una consulta registrada y no se cobró.',
    );
    expect(catalogPage).toContain('Ver la integración coop-ejemplo');
    expect(catalogPage).not.toContain('Ninguna consulta ni rechazo');

    expect(await searched(shedRegistry.requestId)).toMatch(
      new RegExp(`${shedRegistry.requestId}: coop-ejemplo, /api/renap/buscar-cui, 500 servicio saturado, ${TIME}, sin cobro: reintente en unos segundos`),
    );

    const keyPage = await searched(keyInUse.requestId);
    expect(keyPage).toMatch(
      new RegExp(
        `${keyInUse.requestId}: coop-ejemplo, /api/catalogos/cui-nit, 502 Idempotency-Key en uso por una solicitud aún en curso, ${TIME}, sin cobro: reintente con la misma Idempotency-Key`,
      ),
    );
    expect(keyPage).toContain('otra solicitud con la misma Idempotency-Key seguía en curso cuando esta dejó de esperarla');

    // True: none of them has a record, and the balance moved for none of them (the key's owner ended in 502, released).
    await gateway.withDatabase(async (handle) => {
      const recorded = (await readRecords(handle, coop.id)).map((record) => record.requestId);
      expect(recorded).not.toContain(shedCatalog.requestId);
      expect(recorded).not.toContain(shedRegistry.requestId);
      expect(recorded).not.toContain(keyInUse.requestId);
      const money = await readMoney(handle, coop.id);
      expect(money.balanceCentavos).toBe(START_BALANCE);
      expect(money.ledger.filter((entry) => entry.kind === 'capture')).toEqual([]);
    });
  });

  it('explains an unexpected error before any record (500), whose log line carries the same id', async () => {
    const failed = await call(ROUTES.cuiNit, { json: { nit: gateway.sample.individual.nit }, headers: { 'idempotency-key': KEY_SEALED_WITH_A_RETIRED_KEY } });
    expectErrorBody(failed, 500, 'message', CATALOG_MESSAGES.unhandled);
    const page = await searched(failed.requestId);
    expect(page).toMatch(
      new RegExp(`${failed.requestId}: coop-ejemplo, /api/catalogos/cui-nit, 500 error interno del servicio, ${TIME}, sin cobro: reintente; si vuelve a fallar, avísenos`),
    );
    expect(page).toContain('falló por un error interno antes de registrar la consulta; el registro de la aplicación tiene el error con este id');
    // What support would hand to an operator: the error's line under that request id.
    expect(logLines(gateway.app.logs()).some((line) => line.requestId === failed.requestId && line.msg === 'lookup failed')).toBe(true);
  });

  it('explains a registry lookup its open circuit breaker never sent (500)', async () => {
    for (let index = 0; index < BREAKER_FAILURES; index++) {
      expect((await call(ROUTES.rtuNits, { json: { nits: [FAULT_IDENTIFIERS.server_error.nit] } })).status).toBe(500);
    }
    const sentBefore = gateway.upstream.requests.length;
    const notSent = await call(ROUTES.rtuNits, { json: { nits: [gateway.sample.individual.nit] } });
    expectErrorBody(notSent, 500, 'error', REGISTRY_FAILED_MESSAGE);
    expect(gateway.upstream.requests.length).toBe(sentBefore);
    expect(await searched(notSent.requestId)).toMatch(
      new RegExp(`${notSent.requestId}: coop-ejemplo, /api/rtu/nits, 500 fuente fuera de servicio o sin capacidad, no consultada, ${TIME}, sin cobro: reintente en unos minutos`),
    );
  });

  it("explains the global per-IP limit's 429, which names no integration", async () => {
    const sameClient = { 'x-forwarded-for': '203.0.113.77' };
    for (let index = 0; index < GLOBAL_LIMIT; index++) await call(ROUTES.omisos, { json: { nit: gateway.sample.omiso.nit }, headers: sameClient });
    const limited = await call(ROUTES.omisos, { json: { nit: gateway.sample.omiso.nit }, headers: sameClient });
    expect({ status: limited.status, text: limited.text }).toEqual({ status: 429, text: GLOBAL_LIMIT_BODY });
    expect(await searched(limited.requestId)).toMatch(
      new RegExp(`${limited.requestId}: sin integración identificada, /api/catalogos/omisos, 429 límite global por IP, ${TIME}, sin cobro`),
    );
  });

  it('says what an id that leaves no trace may be: the global 429 on an API path that is not a lookup, and the server\'s own 400', async () => {
    const REQUEST_ID = /^req_[0-9a-f]{20}$/;
    const sameClient = { 'x-forwarded-for': '203.0.113.90' };
    const openapi = () => fetch(`${gateway.app.baseUrl}/api/openapi.json`, { headers: sameClient });
    for (let index = 0; index < GLOBAL_LIMIT; index++) {
      const served = await openapi();
      await served.arrayBuffer();
      expect(served.status).toBe(200);
    }
    const limited = await openapi();
    expect({ status: limited.status, text: await limited.text() }).toEqual({ status: 429, text: GLOBAL_LIMIT_BODY });
    const limitedId = limited.headers.get('x-request-id')!;
    expect(limitedId).toMatch(REQUEST_ID);

    // Answered by server.mjs before the app: a request naming another host.
    const port = Number(new URL(gateway.app.baseUrl).port);
    const misdirected = await rawRequest(port, 'GET', 'http://evil.example/admin/login', { host: `127.0.0.1:${port}` });
    expect(misdirected.status).toBe(400);
    const misdirectedId = singleHeader(misdirected, 'x-request-id')!;
    expect(misdirectedId).toMatch(REQUEST_ID);

    for (const requestId of [limitedId, misdirectedId]) {
      const found = await support.request(`/admin/registros?${new URLSearchParams({ identificador: requestId })}`);
      expect(found.status, requestId).toBe(307);
      const page = text((await support.request(found.headers.get('location')!)).text);
      expect(page, requestId).toContain(`Ninguna consulta ni rechazo tiene el id de solicitud ${requestId}`);
      // The default REQUEST_RECEIVE_TIMEOUT_MS: 30 s.
      expect(page, requestId).toContain(untracedAnswersText(30_000));
      expect(page, requestId).toContain('(como /api/openapi.json, /api/estado o una ruta que no existe), incluido el 429 de su límite por IP');
      expect(page, requestId).toContain('400 si estaba mal formada o nombraba otro servidor');
    }
  });

  it('explains a lookup asked with GET (405), which names no integration', async () => {
    const answer = await fetch(`${gateway.app.baseUrl}${ROUTES.cuiNit}`, { headers: { 'x-forwarded-for': '203.0.113.78' } });
    await answer.arrayBuffer();
    expect({ status: answer.status, allow: answer.headers.get('allow') }).toEqual({ status: 405, allow: 'POST, OPTIONS' });
    const requestId = answer.headers.get('x-request-id')!;
    expect(requestId).toMatch(/^req_[0-9a-f]{20}$/);
    const page = await searched(requestId);
    expect(page).toMatch(
      new RegExp(`${requestId}: sin integración identificada, /api/catalogos/cui-nit, 405 método no permitido: las consultas son POST, ${TIME}, sin cobro`),
    );
    expect(page).toContain('El servicio la rechazó antes de consultar ninguna fuente (Método no permitido: las consultas son POST (405))');
  });
});
