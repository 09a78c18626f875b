// server.mjs answers a POST to a lookup's exact path itself, with the route's own code, once Next
// has loaded the route (lib/surfaces/api/direct-lookups.ts; the app loads all five at start). Any other
// form of the path (here a bare `?`) still goes through Next's router to the same code. Both must
// answer alike as an integrator sees it: status, body, headers, what is charged and recorded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';
import {
  ALL_ROUTES,
  CATALOG_ROUTES,
  createTestIntegration,
  eventually,
  readMoney,
  readRecords,
  startGateway,
  validRequestBody,
  type ApiAnswer,
  type Gateway,
  type Route,
  type TestIntegration,
} from './harness';

const TARIFF_CENTAVOS = 125;
// What the connection and the framing decide, not the lookup: the rest of the headers must match.
const TRANSPORT_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length', 'vary', 'x-request-id']);

let testDb: TestDatabase;
let gateway: Gateway;
let integration: TestIntegration;

beforeAll(async () => {
  testDb = await useTestDatabase();
  integration = await createTestIntegration('direct-lookups', { tariffCentavos: TARIFF_CENTAVOS, balanceCentavos: 100_000 });
  gateway = await startGateway(testDb);
  await eventually(async () => gateway.app.logs(), (logs) => logs.includes('lookups answered before Next'), 30_000, 'the app says it answers the lookups itself');
}, PROCESS_TEST_TIMEOUT_MS);

afterAll(async () => {
  await gateway?.stop();
  await testDb?.cleanup();
});

/** The same request to the exact path (server.mjs) and through Next (`?`). */
async function bothWays(route: Route, request: Parameters<Gateway['call']>[1]): Promise<{ direct: ApiAnswer; throughNext: ApiAnswer }> {
  const direct = await gateway.call(route, request);
  const throughNext = await gateway.call(`${route}?`, request);
  return { direct, throughNext };
}

function lookupHeaders(answer: ApiAnswer): Record<string, string> {
  return Object.fromEntries([...answer.headers].filter(([name]) => !TRANSPORT_HEADERS.has(name)));
}

function withoutConsultationTime(body: unknown): unknown {
  if (!body || typeof body !== 'object' || !('data' in body) || !body.data || typeof body.data !== 'object') return body;
  const data: Record<string, unknown> = { ...(body.data as Record<string, unknown>) };
  delete data.fechaConsulta;
  return { ...body, data };
}

describe('a lookup answered by server.mjs and through Next', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  for (const route of ALL_ROUTES) {
    it(`${route}: the same status, body and headers either way; the exact path's answer comes whole, with its Content-Length`, async () => {
      const { direct, throughNext } = await bothWays(route, { as: integration, json: validRequestBody(route, gateway.sample) });
      expect(direct.status).toBe(200);
      expect({ status: direct.status, body: withoutConsultationTime(direct.body), headers: lookupHeaders(direct) }).toEqual({
        status: throughNext.status,
        body: withoutConsultationTime(throughNext.body),
        headers: lookupHeaders(throughNext),
      });
      // Proof of the path each took: Next streams its answer (chunked, with its router's Vary).
      expect(direct.headers.get('content-length')).toBe(String(Buffer.byteLength(direct.text)));
      expect(direct.headers.get('vary')).toBeNull();
      expect(throughNext.headers.get('transfer-encoding')).toBe('chunked');
      expect(direct.requestId).not.toBe(throughNext.requestId);
    });

    it(`${route}: refusals are the same either way (no credentials, malformed JSON, not JSON)`, async () => {
      const refusals: Array<Parameters<Gateway['call']>[1]> = [
        { json: validRequestBody(route, gateway.sample) },
        { as: integration, rawBody: '{"nit": ' },
        { as: integration, contentType: 'text/plain', rawBody: 'nit=1' },
      ];
      for (const request of refusals) {
        const { direct, throughNext } = await bothWays(route, request);
        expect({ status: direct.status, text: direct.text, headers: lookupHeaders(direct) }).toEqual({
          status: throughNext.status,
          text: throughNext.text,
          headers: lookupHeaders(throughNext),
        });
        expect(direct.status).toBeGreaterThanOrEqual(400);
      }
    });
  }

  it('a catalog lookup is charged once and recorded under its request id either way', async () => {
    const before = await gateway.withDatabase((handle) => readMoney(handle, integration.id));
    const answers: ApiAnswer[] = [];
    for (const route of CATALOG_ROUTES) {
      const { direct, throughNext } = await bothWays(route, { as: integration, json: validRequestBody(route, gateway.sample) });
      answers.push(direct, throughNext);
    }
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
    const { money, records } = await gateway.withDatabase(async (handle) => ({ money: await readMoney(handle, integration.id), records: await readRecords(handle, integration.id) }));
    expect(before.balanceCentavos - money.balanceCentavos).toBe(answers.length * TARIFF_CENTAVOS);
    expect(money.balanceCentavos).toBe(money.ledgerSumCentavos);
    for (const answer of answers) {
      const record = records.find((row) => row.requestId === answer.requestId);
      expect(record, `the record of ${answer.requestId}`).toMatchObject({ httpStatus: 200, chargedCentavos: TARIFF_CENTAVOS });
    }
  });
});
