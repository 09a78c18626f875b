// Contract, "Errors: Person registry and RTU by NIT", row by row, over HTTP against the built app
// (startApp, through the harness) with the simulator's fault injection. The 429 row is walked in
// limits.test.ts with the contract's per-minute numbers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAULT_IDENTIFIERS, type FaultName } from '@/simulator';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';
import {
  ALL_FLAGS_ON,
  createTestIntegration,
  expectErrorBody,
  expectUnspecifiedErrorBody,
  readRecords,
  REGISTRY_ROUTES,
  ROUTES,
  startGateway,
  type ApiAnswer,
  type Gateway,
  type TestIntegration,
} from './harness';

let testDb: TestDatabase;
let gateway: Gateway;
let registryUser: TestIntegration;
let registryOff: TestIntegration;

beforeAll(async () => {
  testDb = await useTestDatabase();
  registryUser = await createTestIntegration('registry-errors');
  registryOff = await createTestIntegration('registry-off', { flags: { ...ALL_FLAGS_ON, isRenapEnabled: false, isRtuEnabled: false } });
  gateway = await startGateway(testDb);
});

afterAll(async () => {
  await gateway?.stop();
  await testDb?.cleanup();
});

const renap = (json: unknown, as: TestIntegration | undefined = registryUser) => gateway.call(ROUTES.renap, { as, json });
const rtuNits = (json: unknown, as: TestIntegration | undefined = registryUser) => gateway.call(ROUTES.rtuNits, { as, json });

/** Faults of each registry that are a "failure querying the registry" (docs/sources.md, docs/decisions.md). */
const RENAP_FAILURES: FaultName[] = ['auth_rejected', 'rate_limited', 'server_error', 'unparseable', 'connection_dropped', 'slow'];
const RTU_FAILURES: FaultName[] = ['data_rejected', 'auth_rejected', 'rate_limited', 'server_error', 'unparseable', 'connection_dropped', 'slow'];

describe('Errors: person registry and RTU by NIT', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  const notRecorded: string[] = [];
  const recordedAs500: ApiAnswer[] = [];

  it("/renap/buscar-cui, 400: `cui` missing gives 'CUI is required' (also null, empty or blank)", async () => {
    for (const body of [{}, { cui: null }, { cui: '' }, { cui: '   ' }, { nit: gateway.sample.individual.nit }]) {
      const answer = await renap(body);
      expectErrorBody(answer, 400, 'error', 'CUI is required');
      notRecorded.push(answer.requestId);
    }
  });

  it("/rtu/nits, 400: `nits` missing, empty or not an array gives 'Array of NITs is required'", async () => {
    const nit = gateway.sample.individual.nit;
    for (const body of [{}, { nits: [] }, { nits: nit }, { nits: null }, { nits: { 0: nit } }, { nit }]) {
      const answer = await rtuNits(body);
      expectErrorBody(answer, 400, 'error', 'Array of NITs is required');
      notRecorded.push(answer.requestId);
    }
  });

  it("/rtu/nits, 400: more than 50 NITs are refused by the RTU client in the envelope shape, with 'Máximo 50 NITs por petición'", async () => {
    const upstreamBefore = gateway.upstream.requests.length;
    const nits = Array.from({ length: 51 }, () => gateway.sample.individual.nit);
    const answer = await rtuNits({ nits });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ success: false, message: 'Máximo 50 NITs por petición', responseCode: 400, data: null });
    // Refused before any network call, so it is not recorded either (docs/decisions.md).
    expect(gateway.upstream.requests.length).toBe(upstreamBefore);
    notRecorded.push(answer.requestId);

    const fifty = await rtuNits({ nits: nits.slice(0, 50) });
    expect(fifty.status).toBe(200);
  });

  it("both, 403: no integration credentials give 'Integration authentication required.'", async () => {
    for (const route of REGISTRY_ROUTES) {
      const answer = await gateway.call(route, { json: route === ROUTES.renap ? { cui: gateway.sample.individual.cui } : { nits: [gateway.sample.individual.nit] } });
      expectErrorBody(answer, 403, 'error', 'Integration authentication required.');
      notRecorded.push(answer.requestId);
    }
  });

  it("403 with the flag off: 'RENAP access not enabled.' and 'RTU access not enabled.'", async () => {
    const renapOff = await renap({ cui: gateway.sample.individual.cui }, registryOff);
    expectErrorBody(renapOff, 403, 'error', 'RENAP access not enabled.');
    const rtuOff = await rtuNits({ nits: [gateway.sample.individual.nit] }, registryOff);
    expectErrorBody(rtuOff, 403, 'error', 'RTU access not enabled.');
    notRecorded.push(renapOff.requestId, rtuOff.requestId);
  });

  it('/renap/buscar-cui, 500: every failure querying the registry is a 500 with an `error` string (its text unspecified)', async () => {
    for (const fault of RENAP_FAILURES) {
      const answer = await renap({ cui: FAULT_IDENTIFIERS[fault].cui });
      expectUnspecifiedErrorBody(answer, 500, 'error');
      recordedAs500.push(answer);
    }
  });

  it('/rtu/nits, 500: every failure querying the registry is a 500 with an `error` string, whatever the other NITs of the batch', async () => {
    for (const fault of RTU_FAILURES) {
      const answer = await rtuNits({ nits: [gateway.sample.individual.nit, FAULT_IDENTIFIERS[fault].nit] });
      expectUnspecifiedErrorBody(answer, 500, 'error');
      recordedAs500.push(answer);
    }
  });

  it('500 also when a registry fails with bytes PostgreSQL text cannot hold (the relay answers instead of the simulator)', async () => {
    gateway.upstream.answerInstead((request) => (request.body as { cui?: string }).cui === '9999999999998', {
      status: 503,
      contentType: 'text/plain',
      body: 'registry\u0000down',
    });
    gateway.upstream.answerInstead((request) => JSON.stringify(request.body).includes('relay-nul'), {
      status: 502,
      contentType: 'text/plain',
      body: 'bad\u0000gateway',
    });
    const renapAnswer = await renap({ cui: '9999999999998' });
    expectUnspecifiedErrorBody(renapAnswer, 500, 'error');
    const rtuAnswer = await rtuNits({ nits: ['relay-nul'] });
    expectUnspecifiedErrorBody(rtuAnswer, 500, 'error');
    recordedAs500.push(renapAnswer, rtuAnswer);
  });

  it('decision: registry statuses about the gateway itself (401, 403, 407, 429), redirects and 5xx are a 500, even with the registry\'s own body', async () => {
    const relayedStatuses = [301, 302, 307, 401, 403, 407, 429, 500, 503];
    for (const [index, status] of relayedStatuses.entries()) {
      const cui = `99999999990${String(index).padStart(2, '0')}`;
      gateway.upstream.answerInstead((request) => (request.body as { cui?: string }).cui === cui, {
        status,
        contentType: 'application/json',
        body: JSON.stringify({ responseCode: status, message: 'Respuesta del registro', data: null }),
      });
      const answer = await renap({ cui });
      expect({ relayed: status, status: answer.status, keys: Object.keys(answer.body as object) }).toEqual({ relayed: status, status: 500, keys: ['error'] });
      recordedAs500.push(answer);
    }
  });

  it('500s reached the registry, so they are recorded with status 500; the refusals before it are not', async () => {
    const records = await gateway.withDatabase((handle) => readRecords(handle, registryUser.id));
    const byRequestId = new Map(records.map((record) => [record.requestId, record]));
    for (const answer of recordedAs500) {
      expect(byRequestId.get(answer.requestId)?.httpStatus, answer.requestId).toBe(500);
    }
    expect(notRecorded.filter((id) => byRequestId.has(id))).toEqual([]);
  });
});
