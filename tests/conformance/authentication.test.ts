// Contract, "Authentication" and the credential rows of "Errors" (403 and 401), walked over HTTP
// against the built app (startApp, through the harness) and the simulator. Texts are quoted from
// the contract on purpose: a changed message must fail here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setActive } from '@/lib/flows/integration-management/service';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';
import {
  ALL_ROUTES,
  CATALOG_ROUTES,
  createTestIntegration,
  expectErrorBody,
  readRecords,
  REGISTRY_ROUTES,
  startGateway,
  TEST_ACTOR,
  validRequestBody,
  type Gateway,
  type Route,
  type TestIntegration,
} from './harness';

const REGISTRY_AUTHENTICATION_REQUIRED = 'Integration authentication required.';
const CATALOG_CREDENTIALS_REQUIRED = 'Se requieren credenciales de integracion.';
const CATALOG_INTEGRATION_NOT_FOUND = 'Integración no encontrada con estas credenciales.';

let testDb: TestDatabase;
let gateway: Gateway;
/** Stored as 'Acme-Auth'; the login header is matched lowercased. */
let acme: TestIntegration;
let retired: TestIntegration;

beforeAll(async () => {
  testDb = await useTestDatabase();
  acme = await createTestIntegration('Acme-Auth', { tariffCentavos: 0, balanceCentavos: 100 });
  retired = await createTestIntegration('retired-auth', { tariffCentavos: 0, balanceCentavos: 100 });
  const deactivated = await setActive(TEST_ACTOR, retired.id, false);
  if (!deactivated.ok) throw new Error(deactivated.error.message);
  gateway = await startGateway(testDb);
});

afterAll(async () => {
  await gateway?.stop();
  await testDb?.cleanup();
});

function call(route: Route, headers: Record<string, string>, extra: { json?: unknown } = {}) {
  return gateway.call(route, { headers, json: extra.json ?? validRequestBody(route, gateway.sample) });
}

/** Every way to present credentials that do not identify an active integration. */
function wrongCredentialVariants(): Array<{ case: string; headers: Record<string, string> }> {
  return [
    { case: 'only x-integracion-login', headers: { 'x-integracion-login': acme.nombre } },
    { case: 'only x-integracion-token', headers: { 'x-integracion-token': acme.token } },
    { case: 'an unknown login', headers: { 'x-integracion-login': 'nobody-here', 'x-integracion-token': acme.token } },
    { case: 'a wrong token', headers: { 'x-integracion-login': acme.nombre, 'x-integracion-token': `${acme.token}x` } },
    { case: 'another integration\'s token', headers: { 'x-integracion-login': acme.nombre, 'x-integracion-token': retired.token } },
    { case: 'a deactivated integration', headers: { 'x-integracion-login': retired.nombre, 'x-integracion-token': retired.token } },
  ];
}

describe('Authentication', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('rule 3: the person registry and RTU-by-NIT routes answer 403 "Integration authentication required." without credentials', async () => {
    for (const route of REGISTRY_ROUTES) {
      expectErrorBody(await call(route, {}), 403, 'error', REGISTRY_AUTHENTICATION_REQUIRED);
    }
  });

  it('decision: on those two routes partial, unknown, wrong and deactivated credentials get the same 403 (their only authentication error)', async () => {
    for (const route of REGISTRY_ROUTES) {
      for (const variant of wrongCredentialVariants()) {
        const answer = await call(route, variant.headers);
        expect({ route, case: variant.case, status: answer.status, body: answer.body }).toEqual({
          route,
          case: variant.case,
          status: 403,
          body: { error: REGISTRY_AUTHENTICATION_REQUIRED },
        });
      }
    }
  });

  it('rule 4: the catalogs answer 403 "Se requieren credenciales de integracion." without credentials', async () => {
    for (const route of CATALOG_ROUTES) {
      expectErrorBody(await call(route, {}), 403, 'message', CATALOG_CREDENTIALS_REQUIRED);
    }
  });

  it('decision: empty credential headers count as absent (403 on every route)', async () => {
    const empty = { 'x-integracion-login': '', 'x-integracion-token': '' };
    for (const route of REGISTRY_ROUTES) expectErrorBody(await call(route, empty), 403, 'error', REGISTRY_AUTHENTICATION_REQUIRED);
    for (const route of CATALOG_ROUTES) expectErrorBody(await call(route, empty), 403, 'message', CATALOG_CREDENTIALS_REQUIRED);
  });

  it('rules 1 and 4: on the catalogs one header alone, or credentials that match no (active) integration, give 401', async () => {
    for (const route of CATALOG_ROUTES) {
      for (const variant of wrongCredentialVariants()) {
        const answer = await call(route, variant.headers);
        expect({ route, case: variant.case, status: answer.status, body: answer.body }).toEqual({
          route,
          case: variant.case,
          status: 401,
          body: { message: CATALOG_INTEGRATION_NOT_FOUND },
        });
      }
    }
  });

  it('Resources, Integration.nombre: the login header is compared lowercased, so any spelling of the name authenticates', async () => {
    for (const login of ['acme-auth', 'ACME-AUTH', 'Acme-Auth', 'aCmE-aUtH']) {
      for (const route of ALL_ROUTES) {
        const answer = await call(route, { 'x-integracion-login': login, 'x-integracion-token': acme.token });
        expect({ login, route, status: answer.status }).toEqual({ login, route, status: 200 });
      }
    }
  });

  it('the token must match exactly: another case, a prefix or surrounding characters are refused', async () => {
    const near = [acme.token.toUpperCase(), acme.token.slice(0, -1), `${acme.token}x`, `x${acme.token}`];
    for (const token of near) {
      const catalog = await call(CATALOG_ROUTES[0], { 'x-integracion-login': acme.nombre, 'x-integracion-token': token });
      expect(catalog.status).toBe(401);
      const registry = await call(REGISTRY_ROUTES[0], { 'x-integracion-login': acme.nombre, 'x-integracion-token': token });
      expect(registry.status).toBe(403);
    }
  });

  it('the token is read only from its header: sent in the query string or in the body it does not authenticate', async () => {
    const inQuery = await gateway.call(`${CATALOG_ROUTES[0]}?x-integracion-token=${encodeURIComponent(acme.token)}`, {
      headers: { 'x-integracion-login': acme.nombre },
      json: validRequestBody(CATALOG_ROUTES[0], gateway.sample),
    });
    expectErrorBody(inQuery, 401, 'message', CATALOG_INTEGRATION_NOT_FOUND);
    const inBody = await gateway.call(CATALOG_ROUTES[0], {
      headers: { 'x-integracion-login': acme.nombre },
      json: { ...validRequestBody(CATALOG_ROUTES[0], gateway.sample), 'x-integracion-token': acme.token, token: acme.token },
    });
    expectErrorBody(inBody, 401, 'message', CATALOG_INTEGRATION_NOT_FOUND);
  });

  it('rule 2 and "What the service does" 4: x-user-nit and x-user neither authenticate nor change an answer', async () => {
    for (const route of ALL_ROUTES) {
      const plain = await call(route, { 'x-integracion-login': acme.nombre, 'x-integracion-token': acme.token });
      const withUserHeaders = await call(route, {
        'x-integracion-login': acme.nombre,
        'x-integracion-token': acme.token,
        'x-user-nit': '12345678',
        'x-user': 'someone@example.com',
      });
      expect(plain.status).toBe(200);
      expect({ status: withUserHeaders.status, body: withUserHeaders.body }).toEqual({ status: plain.status, body: plain.body });

      const userHeadersAlone = await call(route, { 'x-user-nit': '12345678', 'x-user': 'someone@example.com' });
      expect(userHeadersAlone.status).toBe(403);
    }
  });

  it('refused credentials reach no source and are not recorded; accepted ones are', async () => {
    const upstreamBefore = gateway.upstream.requests.length;
    const refusedIds: string[] = [];
    for (const route of ALL_ROUTES) {
      refusedIds.push((await call(route, {})).requestId);
      for (const variant of wrongCredentialVariants()) refusedIds.push((await call(route, variant.headers)).requestId);
    }
    expect(gateway.upstream.requests.length).toBe(upstreamBefore);

    const accepted = await call(CATALOG_ROUTES[0], { 'x-integracion-login': 'ACME-AUTH', 'x-integracion-token': acme.token });
    expect(accepted.status).toBe(200);
    const records = await gateway.withDatabase(async (handle) => [...(await readRecords(handle, acme.id)), ...(await readRecords(handle, retired.id))]);
    const recordedIds = new Set(records.map((record) => record.requestId));
    expect(refusedIds.filter((id) => recordedIds.has(id))).toEqual([]);
    expect(recordedIds.has(accepted.requestId)).toBe(true);
    expect(records.every((record) => record.integrationId === acme.id)).toBe(true);
  });
});
