// An integration's IP allow-list against the built app, on the database this run uses (issue 22,
// point 2): the right credentials from outside the list get exactly each route's answer for
// credentials that match no integration, are never recorded, are counted as their own refusal
// reason, and the address shows up for the integration; from inside the list the lookup works.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setAllowedNetworks } from '@/lib/flows/integration-management/service';
import {
  ALL_ROUTES,
  createTestIntegration,
  eventually,
  expectErrorBody,
  readRecords,
  RECORDED_LOOKUP,
  REGISTRY_ROUTES,
  startGateway,
  TEST_ACTOR,
  validRequestBody,
  type Gateway,
  type Route,
  type TestIntegration,
} from '../conformance/harness';
import { scrapeMetrics, sampleValue } from '../operations/metrics-support';
import { runCli } from '../support/cli';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';

const REGISTRY_AUTHENTICATION_REQUIRED = 'Integration authentication required.';
const CATALOG_INTEGRATION_NOT_FOUND = 'Integración no encontrada con estas credenciales.';
const METRICS_TOKEN = 'metrics-token-for-the-allow-list-tests-0123';
const INSIDE = '203.0.113.5';
const OUTSIDE = '198.51.100.7';

let testDb: TestDatabase;
let gateway: Gateway;
let listed: TestIntegration;
let open: TestIntegration;

beforeAll(async () => {
  testDb = await useTestDatabase();
  listed = await createTestIntegration('listed-ips', { balanceCentavos: 10_000 });
  const saved = await setAllowedNetworks(TEST_ACTOR, listed.id, '203.0.113.0/24, 2001:db8::/32');
  if (!saved.ok) throw new Error(saved.error.message);
  open = await createTestIntegration('open-ips', { balanceCentavos: 10_000 });
  // One trusted proxy: the client address is the last X-Forwarded-For entry, which the test writes.
  gateway = await startGateway(testDb, { env: { TRUSTED_PROXY_HOPS: '1', TOKEN_LAST_USE_FLUSH_MS: '200', METRICS_TOKEN } });
});

afterAll(async () => {
  await gateway?.stop();
  await testDb?.cleanup();
});

function lookupFrom(route: Route, as: TestIntegration, address: string) {
  return gateway.call(route, { as, json: validRequestBody(route, gateway.sample), headers: { 'x-forwarded-for': address } });
}

describe('an IP allow-list, over HTTP', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('answers the right credentials from inside the list on every route; an integration without a list from anywhere', async () => {
    for (const route of ALL_ROUTES) {
      expect((await lookupFrom(route, listed, INSIDE)).status, route).toBe(200);
      expect((await lookupFrom(route, open, OUTSIDE)).status, route).toBe(200);
    }
  });

  it('answers the right credentials from outside the list like unknown credentials on each route, records nothing, and counts its own reason', async () => {
    const before = await gateway.withDatabase((handle) => readRecords(handle, listed.id));
    for (const route of ALL_ROUTES) {
      const refused = await lookupFrom(route, listed, OUTSIDE);
      const wrongToken = await lookupFrom(route, { ...listed, token: `${listed.token}x` }, INSIDE);
      expect({ status: refused.status, body: refused.text }).toEqual({ status: wrongToken.status, body: wrongToken.text });
      if ((REGISTRY_ROUTES as readonly string[]).includes(route)) expectErrorBody(refused, 403, 'error', REGISTRY_AUTHENTICATION_REQUIRED);
      else expectErrorBody(refused, 401, 'message', CATALOG_INTEGRATION_NOT_FOUND);
    }
    const { samples } = await scrapeMetrics(gateway.app.baseUrl, METRICS_TOKEN);
    const counted = ALL_ROUTES.map((route) => sampleValue(samples, 'gateway_lookup_refusals_total', { lookup: RECORDED_LOOKUP[route], reason: 'ip_not_allowed' }));
    expect(counted).toEqual([1, 1, 1, 1, 1]);

    // The address shows for the integration (read through the CLI while the app runs).
    const refusedAddresses = await eventually(
      async () => {
        const result = await runCli(['integrations:allowed-ips', String(listed.id), '--json'], testDb.env);
        if (result.code !== 0) throw new Error(result.stderr);
        return result.json<{ allowedNetworks: string[]; refused: Array<{ address: string; refusals: number; lastRefusedAt: string }> }>();
      },
      (shown) => shown.refused.length > 0,
      60_000,
      'refused address written',
    );
    expect(refusedAddresses.allowedNetworks).toEqual(['203.0.113.0/24', '2001:db8::/32']);
    expect(refusedAddresses.refused).toEqual([{ address: OUTSIDE, refusals: 5, lastRefusedAt: expect.any(String) }]);
    expect(await gateway.withDatabase((handle) => readRecords(handle, listed.id))).toEqual(before);
  });
});
