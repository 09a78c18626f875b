// Contract, "What the service does" 5, "Resources: Integration" (the five flags), "Endpoints"
// (Requires flag) and the flag-off rows of "Errors", over HTTP against the built app (startApp,
// through the harness). Also the operational rule: an administrator's change to an
// integration reaches the running gateway within 5 seconds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IntegrationFlags } from '@/lib/core/integrations/flags';
import { rotateToken, setActive, setFlags } from '@/lib/flows/integration-management/service';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';
import {
  ALL_FLAGS_OFF,
  ALL_ROUTES,
  createTestIntegration,
  eventually,
  readRecords,
  ROUTE_FLAG,
  ROUTES,
  startGateway,
  TEST_ACTOR,
  validRequestBody,
  type ApiAnswer,
  type Gateway,
  type Route,
  type TestIntegration,
} from './harness';

/** The 403 each route answers when its flag is off (contract, Errors). */
const FLAG_OFF_ANSWER: Record<Route, { error: string } | { message: string }> = {
  [ROUTES.renap]: { error: 'RENAP access not enabled.' },
  [ROUTES.rtuNits]: { error: 'RTU access not enabled.' },
  [ROUTES.cuiNit]: { message: 'Esta consulta no esta habilitada para tu integracion.' },
  [ROUTES.catalogRtu]: { message: 'Esta consulta no esta habilitada para tu integracion.' },
  [ROUTES.omisos]: { message: 'Esta consulta no esta habilitada para tu integracion.' },
};

/** The time the issue allows for a change made elsewhere (CLI, console, another instance) to apply. */
const CHANGE_PROPAGATION_LIMIT_MS = 5_000;

let testDb: TestDatabase;
let gateway: Gateway;
/** One integration per route, with only that route's flag on. */
const onlyOne = new Map<Route, TestIntegration>();
let noFlags: TestIntegration;
let switchedOff: TestIntegration;
let deactivatedLater: TestIntegration;
let rotated: TestIntegration;

beforeAll(async () => {
  testDb = await useTestDatabase();
  for (const [index, route] of ALL_ROUTES.entries()) {
    const flags: IntegrationFlags = { ...ALL_FLAGS_OFF, [ROUTE_FLAG[route]]: true };
    onlyOne.set(route, await createTestIntegration(`only-flag-${index}`, { flags, balanceCentavos: 1_000 }));
  }
  noFlags = await createTestIntegration('no-flags', { flags: ALL_FLAGS_OFF, balanceCentavos: 1_000 });
  switchedOff = await createTestIntegration('switched-off', { balanceCentavos: 1_000 });
  deactivatedLater = await createTestIntegration('deactivated-later', { balanceCentavos: 1_000 });
  rotated = await createTestIntegration('rotated-token', { balanceCentavos: 1_000 });
  gateway = await startGateway(testDb);
});

afterAll(async () => {
  await gateway?.stop();
  await testDb?.cleanup();
});

function lookup(route: Route, integration: TestIntegration): Promise<ApiAnswer> {
  return gateway.call(route, { as: integration, json: validRequestBody(route, gateway.sample) });
}

describe('flags per lookup', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('each lookup needs its own flag, and enabling one does not enable the others (403 with the route\'s text)', async () => {
    const refusedIds: string[] = [];
    for (const enabledRoute of ALL_ROUTES) {
      const integration = onlyOne.get(enabledRoute)!;
      for (const route of ALL_ROUTES) {
        const answer = await lookup(route, integration);
        if (route === enabledRoute) {
          expect({ enabledRoute, route, status: answer.status }).toEqual({ enabledRoute, route, status: 200 });
        } else {
          expect({ enabledRoute, route, status: answer.status, body: answer.body }).toEqual({ enabledRoute, route, status: 403, body: FLAG_OFF_ANSWER[route] });
          refusedIds.push(answer.requestId);
        }
      }
    }
    for (const route of ALL_ROUTES) {
      const answer = await lookup(route, noFlags);
      expect({ route, status: answer.status, body: answer.body }).toEqual({ route, status: 403, body: FLAG_OFF_ANSWER[route] });
    }

    // Limits, rule 8: "catalog not enabled" is a rejection before the query: never recorded.
    const recorded = await gateway.withDatabase(async (handle) => {
      const ids = new Set<string>();
      for (const integration of [...onlyOne.values(), noFlags]) for (const record of await readRecords(handle, integration.id)) ids.add(record.requestId);
      return ids;
    });
    expect(recorded.size).toBe(ALL_ROUTES.length);
    expect(refusedIds.filter((id) => recorded.has(id))).toEqual([]);
  });

  it(`a flag switched off through lib/core/integrations (as the console and CLI do) applies to the running gateway within ${CHANGE_PROPAGATION_LIMIT_MS / 1000} s`, async () => {
    expect((await lookup(ROUTES.omisos, switchedOff)).status).toBe(200);
    expect((await lookup(ROUTES.renap, switchedOff)).status).toBe(200);

    // On PostgreSQL the app keeps running and must pick the change up from its credential cache;
    // on PGlite only one process may open the database, so the app is stopped while it changes.
    await gateway.withDatabase(async () => {
      const changed = await setFlags(TEST_ACTOR, switchedOff.id, { isOmisosEnabled: false, isRenapEnabled: false });
      if (!changed.ok) throw new Error(changed.error.message);
    });
    const omisos = await eventually(() => lookup(ROUTES.omisos, switchedOff), (answer) => answer.status !== 200, CHANGE_PROPAGATION_LIMIT_MS, 'omisos flag off');
    expect(omisos.status).toBe(403);
    expect(omisos.body).toEqual(FLAG_OFF_ANSWER[ROUTES.omisos]);
    expect(await lookup(ROUTES.renap, switchedOff).then((answer) => answer.body)).toEqual(FLAG_OFF_ANSWER[ROUTES.renap]);
    // The other lookups keep working.
    expect((await lookup(ROUTES.cuiNit, switchedOff)).status).toBe(200);
  });

  it(`a deactivated integration stops authenticating within ${CHANGE_PROPAGATION_LIMIT_MS / 1000} s (401 on catalogs, 403 on the registries)`, async () => {
    expect((await lookup(ROUTES.cuiNit, deactivatedLater)).status).toBe(200);
    await gateway.withDatabase(async () => {
      const changed = await setActive(TEST_ACTOR, deactivatedLater.id, false);
      if (!changed.ok) throw new Error(changed.error.message);
    });
    const catalog = await eventually(() => lookup(ROUTES.cuiNit, deactivatedLater), (answer) => answer.status !== 200, CHANGE_PROPAGATION_LIMIT_MS, 'deactivation');
    expect({ status: catalog.status, body: catalog.body }).toEqual({ status: 401, body: { message: 'Integración no encontrada con estas credenciales.' } });
    const registry = await lookup(ROUTES.rtuNits, deactivatedLater);
    expect({ status: registry.status, body: registry.body }).toEqual({ status: 403, body: { error: 'Integration authentication required.' } });
  });

  it(`a rotated token replaces the old one within ${CHANGE_PROPAGATION_LIMIT_MS / 1000} s`, async () => {
    expect((await lookup(ROUTES.omisos, rotated)).status).toBe(200);
    const newToken = await gateway.withDatabase(async () => {
      const changed = await rotateToken(TEST_ACTOR, rotated.id);
      if (!changed.ok) throw new Error(changed.error.message);
      return changed.value.token;
    });
    const withNewToken = { ...rotated, token: newToken };
    await eventually(() => lookup(ROUTES.omisos, withNewToken), (answer) => answer.status === 200, CHANGE_PROPAGATION_LIMIT_MS, 'new token accepted');
    expect((await lookup(ROUTES.omisos, rotated)).status).toBe(401);
  });
});
