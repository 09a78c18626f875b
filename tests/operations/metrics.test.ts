// Issue 14, points 1 and 2: GET /api/metrics (bearer METRICS_TOKEN) counts lookups by outcome,
// refusals by reason, stage latencies, upstream calls and database round trips; no label carries
// a token, a NIT or a CUI; and every lookup writes one JSON log line with the same figures.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logLines } from '../support/logs';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';
import { createTestIntegration, ROUTES, startGateway, type Gateway, type TestIntegration } from '../conformance/harness';
import { sampleValue, scrapeMetrics } from './metrics-support';

const METRICS_TOKEN = 'metrics-token-for-the-tests-0123456789';
const TARIFF = 150;

let testDb: TestDatabase;
let gateway: Gateway;
let acme: TestIntegration;

beforeAll(async () => {
  testDb = await useTestDatabase();
  acme = await createTestIntegration('acme-metrics', { tariffCentavos: TARIFF, balanceCentavos: 10_000 });
  gateway = await startGateway(testDb, { env: { METRICS_TOKEN } });
}, PROCESS_TEST_TIMEOUT_MS);

afterAll(async () => {
  await gateway?.stop();
  await testDb?.cleanup();
});

describe('GET /api/metrics', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('answers only with the bearer token', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token-of-the-same-length-xxxxx', `Basic ${METRICS_TOKEN}`]) {
      const response = await fetch(`${gateway.app.baseUrl}/api/metrics`, { headers: authorization ? { authorization } : {} });
      await response.text();
      expect(response.status).toBe(401);
    }
  });

  it('counts lookups by outcome, refusals by reason, stages, upstream calls and two database round trips per billed lookup', async () => {
    const nit = gateway.sample.individual.nit;
    // Warm the credential copy: a cold lookup reads the integration's row once.
    expect((await gateway.call(ROUTES.cuiNit, { as: acme, json: { nit } })).status).toBe(200);
    const before = (await scrapeMetrics(gateway.app.baseUrl, METRICS_TOKEN)).samples;

    const answer = await gateway.call(ROUTES.cuiNit, { as: acme, json: { nit } });
    expect(answer.status).toBe(200);
    const refused = await gateway.call(ROUTES.cuiNit, { as: { ...acme, token: 'tlk_not-the-right-token-at-all' }, json: { nit } });
    expect(refused.status).toBe(401);
    const invalid = await gateway.call(ROUTES.omisos, { as: acme, json: {} });
    expect(invalid.status).toBe(400);

    const { text, samples: after } = await scrapeMetrics(gateway.app.baseUrl, METRICS_TOKEN);
    const delta = (name: string, labels: Record<string, string> = {}) => sampleValue(after, name, labels) - sampleValue(before, name, labels);

    expect(delta('gateway_lookup_requests_total', { lookup: 'cui_nit', outcome: 'success', status: '200' })).toBe(1);
    expect(delta('gateway_lookup_requests_total', { lookup: 'cui_nit', outcome: 'credentials_invalid', status: '401' })).toBe(1);
    expect(delta('gateway_lookup_requests_total', { lookup: 'omisos', outcome: 'invalid_request', status: '400' })).toBe(1);
    expect(delta('gateway_lookup_refusals_total', { lookup: 'cui_nit', reason: 'credentials_invalid' })).toBe(1);
    expect(delta('gateway_lookup_refusals_total', { lookup: 'omisos', reason: 'invalid_request' })).toBe(1);
    // Both cui_nit lookups checked credentials; only the accepted one went on.
    expect(delta('gateway_lookup_stage_seconds_count', { lookup: 'cui_nit', stage: 'auth' })).toBe(2);
    for (const stage of ['queue', 'hold', 'source', 'settle']) {
      expect(delta('gateway_lookup_stage_seconds_count', { lookup: 'cui_nit', stage }), stage).toBe(1);
    }
    expect(delta('gateway_upstream_calls_total', { source: 'catalog', result: 'ok' })).toBe(1);
    // The design's budget: a warm billed lookup is two statements (hold; settle + record). The
    // refused one costs none: credentials are checked against the in-memory copy only.
    expect(delta('gateway_lookup_database_round_trips_sum', { lookup: 'cui_nit' })).toBe(2);
    expect(delta('gateway_lookup_database_round_trips_count', { lookup: 'cui_nit' })).toBe(2);
    expect(delta('gateway_lookup_database_round_trips_sum', { lookup: 'omisos' })).toBe(0);
    expect(sampleValue(after, 'gateway_upstream_breaker_state', { source: 'catalog' })).toBe(0);
    expect(sampleValue(after, 'gateway_limiter_store', { store: 'memory' })).toBe(1);
    expect(sampleValue(after, 'gateway_holds_open')).toBe(0);
    expect(sampleValue(after, 'gateway_integration_cache_age_seconds')).toBeLessThan(10);
    expect(sampleValue(after, 'gateway_database_round_trips_total')).toBeGreaterThan(0);

    // Labels never carry identifiers or secrets, and the integration only behind its setting.
    expect(text).not.toContain(nit);
    expect(text).not.toContain(acme.token);
    expect(text).not.toContain(acme.nombre);
  });

  it('writes one JSON log line per lookup with its outcome, stage timings, upstream result and round trips', async () => {
    const nit = gateway.sample.individual.nit;
    const answer = await gateway.call(ROUTES.omisos, { as: acme, json: { nit } });
    expect(answer.status).toBe(200);
    const lines = logLines(gateway.app.logs()).filter((line) => line.requestId === answer.requestId && line.msg === 'lookup');
    expect(lines).toHaveLength(1);
    const line = lines[0]!;
    expect(line).toMatchObject({
      component: 'lookup',
      integration: acme.nombre,
      lookup: 'omisos',
      status: 200,
      outcome: 'success',
      upstream: 'ok',
      dbRoundTrips: 2,
    });
    expect(Object.keys(line.stagesMs as object).sort()).toEqual(['auth', 'hold', 'queue', 'settle', 'source']);
    expect(JSON.stringify(line)).not.toContain(nit);
  });
});
