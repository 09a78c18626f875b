// Contract, "Limits" (the global layer: per IP, the limiter's default body, both layers spent),
// "Errors" rules 5 and 6 and the global row of "Body shapes", and docs/decisions.md "Limits" (the
// client IP, TRUSTED_PROXY_HOPS), over HTTP against the built app (startApp, through the harness).
// Every request of a test run comes from 127.0.0.1, so each app here starts fresh.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STATUS_API_LIMIT_MESSAGE } from '@/lib/presentation/status-limit';
import { FAULT_IDENTIFIERS } from '@/simulator';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';
import { createTestIntegration, expectErrorBody, ROUTES, startGateway, type ApiAnswer, type Gateway, type TestIntegration } from './harness';

const LIMITER_BODY = 'Too many requests, please try again later.';

let testDb: TestDatabase;
let integration: TestIntegration;

beforeAll(async () => {
  testDb = await useTestDatabase();
  integration = await createTestIntegration('global-limit', { tariffCentavos: 0, balanceCentavos: 100 });
});

afterAll(async () => {
  await testDb?.cleanup();
});

/** The global limiter's answer: 429, plain text (not JSON), no Retry-After. */
function expectGlobalLimit(answer: ApiAnswer): void {
  expect({ status: answer.status, text: answer.text }).toEqual({ status: 429, text: LIMITER_BODY });
  expect(answer.contentType).toMatch(/^text\/plain/);
  expect(answer.body).toBeUndefined();
  expect(answer.headers.get('retry-after')).toBeNull();
}

describe('global per-IP limit, small (RATE_LIMIT_GLOBAL_MAX=7), no trusted proxy', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  let gateway: Gateway;

  beforeAll(async () => {
    gateway = await startGateway(testDb, {
      // The global limit's windows are aligned to the clock (a sliding window): one that ended mid-test
      // would give a request back (docs/decisions.md, "Limits"). A year-long window keeps the test exact.
      env: {
        RATE_LIMIT_GLOBAL_MAX: '7',
        RATE_LIMIT_GLOBAL_WINDOW_SECONDS: '31536000',
        TRUSTED_PROXY_HOPS: '0',
        RATE_LIMIT_CATALOG_PER_MINUTE: '2',
        RATE_LIMIT_STATUS_API_PER_MINUTE: '3',
      },
    });
  });

  afterAll(async () => {
    await gateway?.stop();
  });

  it('every request spends from the global counter, whatever the route and whatever the per-minute layer answered; three distinct 429 on catalogs', async () => {
    const { individual } = gateway.sample;
    const answers = [
      await gateway.call(ROUTES.cuiNit, { as: integration, json: { nit: individual.nit } }),
      await gateway.call(ROUTES.omisos, { as: integration, json: { nit: FAULT_IDENTIFIERS.rate_limited.nit } }),
      await gateway.call(ROUTES.catalogRtu, { as: integration, json: { nit: individual.nit } }),
      await gateway.call(ROUTES.renap, { json: { cui: individual.cui } }),
      await gateway.call(ROUTES.rtuNits, { as: integration, json: { nits: [individual.nit] } }),
      await gateway.call(ROUTES.renap, { as: integration, rawBody: 'not json' }),
      await gateway.call('/api/no-such-route', { as: integration, json: {} }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 429, 429, 403, 200, 400, 404]);
    // Catalog 429 number one: the source is limiting; number two: the shared per-minute counter.
    expectErrorBody(answers[1]!, 429, 'message', 'Demasiadas consultas seguidas. Intenta de nuevo en unos minutos.');
    expectErrorBody(answers[2]!, 429, 'message', 'Demasiadas consultas seguidas. Intenta en un minuto.');

    // Number three: the global per-IP limit, on every route, catalogs included.
    for (const route of [ROUTES.cuiNit, ROUTES.catalogRtu, ROUTES.omisos, ROUTES.renap, ROUTES.rtuNits, '/api/no-such-route']) {
      expectGlobalLimit(await gateway.call(route, { as: integration, json: { nit: individual.nit } }));
    }
  });

  it('with TRUSTED_PROXY_HOPS=0 forwarding headers cannot pick another IP', async () => {
    const forgeries: Array<Record<string, string>> = [
      { 'x-forwarded-for': '198.51.100.23' },
      { 'x-forwarded-for': '198.51.100.24, 198.51.100.25' },
      { 'x-gateway-peer-ip': '198.51.100.26' },
      { 'x-real-ip': '198.51.100.27', forwarded: 'for=198.51.100.27' },
    ];
    for (const headers of forgeries) {
      expectGlobalLimit(await gateway.call(ROUTES.cuiNit, { as: integration, headers, json: { nit: gateway.sample.individual.nit } }));
    }
  });

  it('decision (issue 32, point 8): a client past the lookups\' limit still reads GET /api/estado, which has a per-IP limit of its own', async () => {
    // This client (127.0.0.1) spent the global limit above: its lookups are refused...
    expectGlobalLimit(await gateway.call(ROUTES.renap, { as: integration, json: { cui: gateway.sample.individual.cui } }));
    // ...and it can still see whether the sources answer, RATE_LIMIT_STATUS_API_PER_MINUTE times a minute.
    const readStatus = async () => {
      const response = await fetch(`${gateway.app.baseUrl}/api/estado`);
      return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, unknown> };
    };
    for (let read = 0; read < 3; read++) {
      const answer = await readStatus();
      expect(answer.status).toBe(200);
      expect(answer.body).toHaveProperty('fuentes');
    }
    // Past its own limit: a Spanish JSON answer a dashboard can read from any origin, never cached.
    const refused = await readStatus();
    expect({ status: refused.status, body: refused.body }).toEqual({ status: 429, body: { message: STATUS_API_LIMIT_MESSAGE } });
    expect(refused.headers.get('retry-after')).toBe('60');
    expect(refused.headers.get('access-control-allow-origin')).toBe('*');
    expect(refused.headers.get('cache-control')).toBe('no-store');
    expect(refused.headers.get('x-request-id')).toMatch(/^req_/);
  });

  it('decision: /api/health (load balancers poll it) and /api/auth/* (the console sign-in) stay outside the limit', async () => {
    for (const path of ['/api/health', '/api/auth/csrf', '/api/auth/providers']) {
      const response = await fetch(`${gateway.app.baseUrl}${path}`);
      await response.arrayBuffer();
      expect({ path, status: response.status }).toEqual({ path, status: 200 });
    }
  });
});

describe("global per-IP limit at the contract's 100 per 15 minutes, behind one trusted proxy", { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  let gateway: Gateway;
  const clientA = '198.51.100.10';
  const clientB = '198.51.100.11';

  beforeAll(async () => {
    // RATE_LIMIT_GLOBAL_MAX and RATE_LIMIT_GLOBAL_WINDOW_SECONDS left at their defaults.
    gateway = await startGateway(testDb, { env: { RATE_LIMIT_GLOBAL_MAX: undefined, TRUSTED_PROXY_HOPS: '1' } });
  });

  afterAll(async () => {
    await gateway?.stop();
  });

  const fromClient = (forwardedFor: string | undefined) =>
    gateway.call(ROUTES.renap, { headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor }, json: { cui: gateway.sample.individual.cui } });

  it('100 requests from one client pass the global layer; the 101st gets the limiter\'s plain-text 429', async () => {
    const WINDOW_MS = 15 * 60_000;
    const startedInWindow = Math.floor(Date.now() / WINDOW_MS);
    const statuses: number[] = [];
    for (let i = 0; i < 100; i++) statuses.push((await fromClient(clientA)).status);
    expect(statuses).toEqual(Array.from({ length: 100 }, () => 403));
    let next = await fromClient(clientA);
    if (Math.floor(Date.now() / WINDOW_MS) !== startedInWindow) {
      // The 100 straddled a boundary of the clock-aligned windows (a run in a few hundred): the
      // sliding window's rounding gives one request back, and its weighting one more per 9 s
      // since the boundary (docs/decisions.md, "Limits"); past those the limit answers.
      const boundaryMs = (startedInWindow + 1) * WINDOW_MS;
      for (let extra = 1; next.status !== 429; extra++) {
        expect(next.status).toBe(403);
        expect(extra).toBeLessThanOrEqual(1 + Math.floor((100 * (Date.now() - boundaryMs)) / WINDOW_MS));
        next = await fromClient(clientA);
      }
    }
    expectGlobalLimit(next);
  });

  it('the address the trusted proxy appended is the client: another client keeps its quota, and a forged entry in front changes nothing', async () => {
    expect((await fromClient(clientB)).status).toBe(403);
    expectGlobalLimit(await fromClient(`203.0.113.7, ${clientA}`));
    expect((await fromClient(`${clientA}, ${clientB}`)).status).toBe(403);
    // Without the header the proxy's own address (the socket's, 127.0.0.1) is the client.
    expect((await fromClient(undefined)).status).toBe(403);
  });
});
