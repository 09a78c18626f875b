// Several tokens per integration against the built app, on the database this run uses (issue 22,
// point 1): each token works on every route, an old token keeps working inside its rotation
// window, an expired or revoked token gets exactly the unknown-credentials answer of each route
// (contract, Errors) and is never recorded, and a token's last use reaches the database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken, revokeToken, type TokenView } from '@/lib/flows/integration-management/tokens';
import { rotateToken } from '@/lib/flows/integration-management/service';
import {
  ALL_ROUTES,
  CATALOG_ROUTES,
  createTestIntegration,
  eventually,
  expectErrorBody,
  readRecords,
  REGISTRY_ROUTES,
  startGateway,
  TEST_ACTOR,
  validRequestBody,
  type Gateway,
  type Route,
  type TestIntegration,
} from '../conformance/harness';
import { runCli } from '../support/cli';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';

/** The contract's answers for credentials that match no integration. */
const REGISTRY_AUTHENTICATION_REQUIRED = 'Integration authentication required.';
const CATALOG_INTEGRATION_NOT_FOUND = 'Integración no encontrada con estas credenciales.';
/** A change made by another process (here, this test) reaches the app within this time. */
const CHANGE_LIMIT_MS = 5_000;

let testDb: TestDatabase;
let gateway: Gateway;
let acme: TestIntegration;
let second: { token: string; view: TokenView };
let rotatedOld: TestIntegration;
let rotatedNew: TestIntegration;
let expired: TestIntegration;

const withToken = (integration: TestIntegration, token: string): TestIntegration => ({ ...integration, token });

beforeAll(async () => {
  testDb = await useTestDatabase();
  acme = await createTestIntegration('acme-tokens', { balanceCentavos: 10_000 });
  const created = await createToken(TEST_ACTOR, acme.id, { label: 'Servidor nuevo' });
  if (!created.ok) throw new Error(created.error.message);
  second = created.value;

  rotatedOld = await createTestIntegration('rotated-tokens', { balanceCentavos: 10_000 });
  const rotated = await rotateToken(TEST_ACTOR, rotatedOld.id, { overlap: '1h' });
  if (!rotated.ok) throw new Error(rotated.error.message);
  rotatedNew = withToken(rotatedOld, rotated.value.token);

  // Expires a moment from now: long before the app has started.
  const expiring = await createTestIntegration('expired-tokens', { balanceCentavos: 10_000 });
  const short = await createToken(TEST_ACTOR, expiring.id, { label: 'Corto', expiresAt: new Date(Date.now() + 500) });
  if (!short.ok) throw new Error(short.error.message);
  expired = withToken(expiring, short.value.token);

  gateway = await startGateway(testDb, { env: { TOKEN_LAST_USE_FLUSH_MS: '200' } });
});

afterAll(async () => {
  await gateway?.stop();
  await testDb?.cleanup();
});

async function lookup(route: Route, as: TestIntegration) {
  return gateway.call(route, { as, json: validRequestBody(route, gateway.sample) });
}

function expectUnknownCredentials(route: Route, answer: Awaited<ReturnType<typeof lookup>>): void {
  if ((REGISTRY_ROUTES as readonly string[]).includes(route)) expectErrorBody(answer, 403, 'error', REGISTRY_AUTHENTICATION_REQUIRED);
  else expectErrorBody(answer, 401, 'message', CATALOG_INTEGRATION_NOT_FOUND);
}

describe('several tokens per integration, over HTTP', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('answers each of an integration\'s tokens on all five routes', async () => {
    for (const route of ALL_ROUTES) {
      expect((await lookup(route, acme)).status, route).toBe(200);
      expect((await lookup(route, withToken(acme, second.token))).status, route).toBe(200);
    }
  });

  it('keeps a rotated token working inside its overlap window, beside the new one', async () => {
    for (const route of [REGISTRY_ROUTES[0], CATALOG_ROUTES[0]]) {
      expect((await lookup(route, rotatedOld)).status, route).toBe(200);
      expect((await lookup(route, rotatedNew)).status, route).toBe(200);
    }
  });

  it('answers an expired token like credentials that match no integration, on every route, and records nothing', async () => {
    for (const route of ALL_ROUTES) expectUnknownCredentials(route, await lookup(route, expired));
    expect(await gateway.withDatabase((handle) => readRecords(handle, expired.id))).toEqual([]);
  });

  it('writes each token\'s last use from memory, a flush interval later', async () => {
    const before = Date.now();
    expect((await lookup(CATALOG_ROUTES[0], withToken(acme, second.token))).status).toBe(200);
    // Read through the CLI, as an operator would, while the app runs (on PGlite through the app's
    // socket): stopping the app to read would lose what it has not flushed yet.
    const listed = async () => {
      const result = await runCli(['integrations:tokens', String(acme.id), '--json'], testDb.env);
      if (result.code !== 0) throw new Error(result.stderr);
      return result.json<Array<{ id: number; lastUsedAt: string | null }>>().find((token) => token.id === second.view.id)!;
    };
    // Each CLI start takes seconds on a loaded machine: the bound is the flush (200 ms) plus those.
    const used = await eventually(listed, (token) => token.lastUsedAt !== null && Date.parse(token.lastUsedAt) >= before - 1_000, 60_000, 'last use written');
    expect(Date.parse(used.lastUsedAt!)).toBeLessThanOrEqual(Date.now());
  });

  it('refuses a revoked token on every route while the integration\'s other token keeps working', async () => {
    const revoked = await gateway.withDatabase(() => revokeToken(TEST_ACTOR, acme.id, second.view.id));
    if (!revoked.ok) throw new Error(revoked.error.message);
    const revokedToken = withToken(acme, second.token);
    await eventually(() => lookup(CATALOG_ROUTES[0], revokedToken), (answer) => answer.status === 401, CHANGE_LIMIT_MS, 'revoked token refused');
    for (const route of ALL_ROUTES) {
      expectUnknownCredentials(route, await lookup(route, revokedToken));
      expect((await lookup(route, acme)).status, route).toBe(200);
    }
  });
});
