// The integrator's reads of its own account and records, flooded as an attacker would try them. Two
// built instances on PostgreSQL and Redis. GET /api/cuenta and /api/cuenta/movimientos spend no
// global per-IP limit (an integrator polling its balance keeps its lookups' budget): 100
// connections, each from its own address, asking them and GET /api/consultas(/{request_id}) with
// missing, partial and wrong credentials must each be answered 401 or 403 in the documented shape
// without a database statement, and a lookup beside them must stay within twice its median time
// alone (as in public-pages-flood.test.ts). Then one integration asking for its account over 50
// connections (each from its own address) with its valid token gets exactly ACCOUNT_API_PER_MINUTE
// answers and 429 for the rest,
// and another integration's lookups keep the same bound. Answered by Next with nothing before it,
// the first took the lookup's median from 8 ms to 814 ms and the second from 9 ms to 541 ms; the
// reads now take a turn in server.mjs (lib/root/server/page-turns.mjs).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOG_MESSAGES } from '@/lib/contract/messages';
import { startSimulator, type RunningSimulator } from '@/simulator/index';
import { sampleValue, scrapeMetrics } from '../operations/metrics-support';
import { startApp, type RunningApp } from '../support/app-server';
import { expectDocumentedResponse } from '../support/openapi-validator';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';
import { CROWD_SETTLE_MS, crowd } from './crowd';
import { medianLookupMs, newIntegration, requiredEnv, servedBy, twoInstanceEnv, type TestIntegration, withinOneLimitMinute } from './support';

/** Addresses of this run only: Redis keeps the per-IP windows of earlier runs for a minute. */
const RUN = (Math.floor(Math.random() * 0xfff0) + 1).toString(16);
const FLOOD_CONNECTIONS = 100;
const HAMMER_CONNECTIONS = 50;
/** The account reads' own per-minute limit (ACCOUNT_API_PER_MINUTE), its default. */
const ACCOUNT_PER_MINUTE = 60;
const METRICS_TOKEN = 'account-api-flood-metrics-token-0123456';
/** How long the wrong credentials keep coming: long enough for thousands of them. */
const FLOOD_MS = 14_000;
/** A window of the flood without any lookup beside it, in which no statement may be sent. */
const QUIET_WINDOW_MS = 2_000;
/** The reads flooded: the account's two, outside the global per-IP limit, and the records' two, inside it. */
const FLOODED_PATHS = ['/api/cuenta', '/api/cuenta/movimientos', '/api/consultas', '/api/consultas/req_0123456789abcdef0123'];

let testDatabase: TestDatabase;
let simulator: RunningSimulator;
let instances: RunningApp[] = [];
let app: RunningApp;
/** Whose lookups are measured. */
let looking: TestIntegration;
/** Whose login the wrong tokens carry, and who then hammers its own account. */
let hammering: TestIntegration;
let idleLookupMs: number;

beforeAll(async () => {
  requiredEnv('DATABASE_URL');
  simulator = await startSimulator({ port: 0, latencyMs: 0 });
  testDatabase = await useTestDatabase();
  const env = twoInstanceEnv(testDatabase, simulator, {
    METRICS_TOKEN,
    ACCOUNT_API_PER_MINUTE: String(ACCOUNT_PER_MINUTE),
    // A token's last use written within 0.1 s of the lookups, not in the flood's windows.
    TOKEN_LAST_USE_FLUSH_MS: '100',
    // Fewer background statements in the flood's windows: the rollups and the holds' sweep once a minute.
    ROLLUP_INTERVAL_MS: '60000',
    HOLD_SWEEP_INTERVAL_SECONDS: '60',
  });
  instances = await Promise.all([0, 1].map(() => startApp({ env })));
  app = instances[0]!;
  looking = await newIntegration(0, 0);
  hammering = await newIntegration(1, 10_000);
  await servedBy(instances, looking);
  await servedBy(instances, hammering);
  await medianLookupMs(app, looking); // warm-up: the app's first answers compile and connect
  idleLookupMs = await medianLookupMs(app, looking);
}, PROCESS_TEST_TIMEOUT_MS);

afterAll(async () => {
  await Promise.all(instances.map((instance) => instance.stop()));
  await simulator?.close();
  await testDatabase?.cleanup();
});

interface StatementCount {
  /** Statements sent by both instances (the app's own count). */
  statements: number;
  /** Each instance's credentials copy's age: a reload (a few statements of its own) resets it. */
  copyAgesS: number[];
}

async function statementCount(): Promise<StatementCount> {
  const scrapes = await Promise.all(instances.map(async (instance) => (await scrapeMetrics(instance.baseUrl, METRICS_TOKEN)).samples));
  return {
    statements: scrapes.reduce((sum, samples) => sum + sampleValue(samples, 'gateway_database_round_trips_total'), 0),
    copyAgesS: scrapes.map((samples) => sampleValue(samples, 'gateway_integration_cache_age_seconds')),
  };
}

/**
 * The fewest statements both instances sent over a window of `windowMs` before `deadline` in which
 * neither reloaded its credentials copy; the first window with none ends the search. A background
 * job's tick (its lease, a few statements) may land in a window whatever the flood does; a refused
 * read that cost a statement would show in every one, with hundreds of them in each.
 */
async function fewestStatementsOverAWindow(windowMs: number, deadline: number): Promise<number> {
  let fewest = Infinity;
  while (Date.now() < deadline && fewest > 0) {
    const before = await statementCount();
    await new Promise((resolve) => setTimeout(resolve, windowMs));
    const after = await statementCount();
    if (after.copyAgesS.every((age, index) => age >= before.copyAgesS[index]! + windowMs / 1000)) fewest = Math.min(fewest, after.statements - before.statements);
  }
  return fewest;
}

describe('a flood of the account and records reads', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('answers missing, partial and wrong credentials 401 or 403 in the documented shape, without a database statement, and leaves a lookup within twice its time alone', async () => {
    const login = hammering.headers['x-integracion-login']!;
    const token = hammering.headers['x-integracion-token']!;
    const credentials: Array<Record<string, string>> = [
      {},
      { 'x-integracion-login': login },
      { 'x-integracion-token': token },
      { 'x-integracion-login': login, 'x-integracion-token': `${token}x` },
      { 'x-integracion-login': `nadie-${RUN}`, 'x-integracion-token': token },
    ];
    // Each kind on each path, once: the answer the OpenAPI document describes.
    for (const path of FLOODED_PATHS) {
      for (const headers of credentials) {
        const response = await fetch(`${app.baseUrl}${path}`, { headers: { ...headers, 'x-forwarded-for': `2001:db8:${RUN}::1` } });
        const text = await response.text();
        expect([401, 403], `${path} ${JSON.stringify(headers)}`).toContain(response.status);
        expectDocumentedResponse({ path: path.replace(/^\/api/, '').replace(/req_[0-9a-f]+$/, '{request_id}'), method: 'get', status: response.status, contentType: response.headers.get('content-type'), body: JSON.parse(text) });
      }
    }

    // Five kinds of credentials over four paths on two instances: every combination among 100 connections.
    const urls = instances.flatMap((instance) => FLOODED_PATHS.map((path) => `${instance.baseUrl}${path}`));
    const floodStarted = Date.now();
    const flood = crowd({ urls, connections: FLOOD_CONNECTIONS, headers: credentials, countTexts: true, addresses: { perConnection: `2001:db8:${RUN}:` } });
    await new Promise((resolve) => setTimeout(resolve, CROWD_SETTLE_MS));
    const loadedLookupMs = await medianLookupMs(app, looking);
    // Then the flood alone: once the lookups' own statements are written (their records, their
    // token's last use, within 0.1 s), none while it goes on.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const statements = await fewestStatementsOverAWindow(QUIET_WINDOW_MS, floodStarted + FLOOD_MS);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, FLOOD_MS - (Date.now() - floodStarted))));
    const counts = await flood.stop();
    const answers = Object.values(counts.statuses).reduce((sum, count) => sum + count, 0);
    console.log(`[account flood] lookup p50 idle ${idleLookupMs.toFixed(1)} ms, beside the refused reads ${loadedLookupMs.toFixed(1)} ms; ${answers} refused in ${((Date.now() - floodStarted) / 1000).toFixed(1)} s (${JSON.stringify(counts.statuses)}); fewest statements over ${QUIET_WINDOW_MS / 1000} s of it ${statements}`);

    expect(counts.answered).toBe(FLOOD_CONNECTIONS);
    expect(answers).toBeGreaterThan(2_000);
    expect(counts.texts).toEqual({
      [`403 ${JSON.stringify({ message: CATALOG_MESSAGES.credentialsRequired })}`]: expect.any(Number),
      [`401 ${JSON.stringify({ message: CATALOG_MESSAGES.integrationNotFound })}`]: expect.any(Number),
    });
    expect(statements).toBe(0);
    expect(loadedLookupMs).toBeLessThanOrEqual(2 * idleLookupMs);
  });

  it("refuses one integration's own account reads past ACCOUNT_API_PER_MINUTE with 429, and leaves another integration's lookups within twice their time alone", async () => {
    await withinOneLimitMinute(10_000);
    const urls = instances.map((instance) => `${instance.baseUrl}/api/cuenta`);
    // Each connection from an address of its own (the integration's several machines): what refuses
    // them is the integration's per-minute counter alone, not one address's turn and its pause.
    const hammer = crowd({ urls, connections: HAMMER_CONNECTIONS, headers: [hammering.headers], countTexts: true, addresses: { perConnection: `2001:db9:${RUN}:` } });
    await new Promise((resolve) => setTimeout(resolve, CROWD_SETTLE_MS));
    const loadedLookupMs = await medianLookupMs(app, looking);
    // The other integration's own account reads have their own counter.
    const otherAccount = await fetch(`${app.baseUrl}/api/cuenta`, { headers: { ...looking.headers, 'x-forwarded-for': '192.0.2.1' } });
    await otherAccount.arrayBuffer();
    const counts = await hammer.stop();
    console.log(`[account hammer] lookup p50 idle ${idleLookupMs.toFixed(1)} ms, beside ${HAMMER_CONNECTIONS} connections on one integration's account ${loadedLookupMs.toFixed(1)} ms (${JSON.stringify(counts.statuses)})`);

    expect(counts.answered).toBe(HAMMER_CONNECTIONS);
    expect(counts.statuses[200]).toBe(ACCOUNT_PER_MINUTE);
    expect(Object.keys(counts.statuses).sort()).toEqual(['200', '429']);
    // Not a contract route: the 429 says when the minute's window ends (docs/decisions.md).
    expect(counts.refusal).toEqual({ status: 429, retryAfter: expect.stringMatching(/^([1-9]|[1-5]\d|60)$/), text: JSON.stringify({ message: CATALOG_MESSAGES.rateLimited }) });
    expect(otherAccount.status).toBe(200);
    expect(loadedLookupMs).toBeLessThanOrEqual(2 * idleLookupMs);
  });
});
