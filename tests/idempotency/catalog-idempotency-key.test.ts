// Idempotency-Key on the three catalogs, over HTTP against the built app and the simulator (issue
// 25, point 2): a repeat gets the first answer again, marked as a replay, without a second charge
// or a second source call, concurrent repeats included; another body with the same key gets the
// contract's 400; an invalid key is refused before anything runs; only final answers are kept.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOG_MESSAGES } from '@/lib/contract/messages';
import { FAULT_IDENTIFIERS } from '@/simulator';
import { logLines } from '../support/logs';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';
import {
  CATALOG_UPSTREAM_PATHS,
  createTestIntegration,
  expectErrorBody,
  readMoney,
  readRecords,
  ROUTES,
  startGateway,
  type ApiAnswer,
  type CatalogRoute,
  type Gateway,
  type TestIntegration,
} from '../conformance/harness';

const TARIFF = 250;
const BALANCE = 100 * TARIFF;
const CONCURRENT_REPEATS = 20;
const REPLAYED = 'idempotency-replayed';

let testDb: TestDatabase;
let gateway: Gateway;
// One per test that reads the money afterwards: each starts with BALANCE and a top-up, so a test
// reads the database once, at its end (on PGlite each read stops the app meanwhile).
let integration: TestIntegration;
let concurrent: TestIntegration;
let refused: TestIntegration;

beforeAll(async () => {
  testDb = await useTestDatabase();
  integration = await createTestIntegration('idempotente', { tariffCentavos: TARIFF, balanceCentavos: BALANCE });
  concurrent = await createTestIntegration('idempotente-concurrente', { tariffCentavos: TARIFF, balanceCentavos: BALANCE });
  refused = await createTestIntegration('idempotente-rechazos', { tariffCentavos: TARIFF, balanceCentavos: BALANCE });
  gateway = await startGateway(testDb, {
    // The per-minute limit is spent by every request, repeats included: this file sends more than 30.
    // A source that takes a moment on `actualizado: true`, so concurrent repeats find the first running;
    // and the contract's 30-second ceiling, not the tests' short one, on a loaded machine.
    env: { RATE_LIMIT_CATALOG_PER_MINUTE: '1000', SOURCE_TIMEOUT_MS: '30000' },
    simulator: { onlineLatencyMs: 400 },
  });
});

afterAll(async () => {
  await gateway?.stop();
  await testDb?.cleanup();
});

let keys = 0;
function freshKey(): string {
  keys += 1;
  return `pedido-${keys}-${Date.now()}`;
}

/** The 200s `refused` got: the only lookups of that integration that may be charged or recorded. */
const servedToRefused: string[] = [];

async function call(route: CatalogRoute, json: unknown, key?: string, as: TestIntegration = integration): Promise<ApiAnswer> {
  const answer = await gateway.call(route, { as, json, headers: key === undefined ? {} : { 'idempotency-key': key } });
  if (as === refused && answer.status === 200) servedToRefused.push(answer.requestId);
  return answer;
}

function sourceCalls(route: CatalogRoute): number {
  return gateway.upstream.requestsTo(CATALOG_UPSTREAM_PATHS[route]).length;
}

/** The integration's money and records (its first ledger entry is the top-up of BALANCE), and its stored keys as text. */
async function money(of: TestIntegration) {
  return gateway.withDatabase(async (handle) => ({
    money: await readMoney(handle, of.id),
    records: await readRecords(handle, of.id),
    storedKeys: JSON.stringify(await handle.rows(sql`select * from idempotency_keys where integration_id = ${of.id}::integer`)),
  }));
}

/** The lookup's log line (lib/surfaces/api/route.ts) for a request id: its outcome and its database round trips. */
function lookupLine(requestId: string) {
  const line = logLines(gateway.app.logs()).find((candidate) => candidate.msg === 'lookup' && candidate.requestId === requestId);
  if (!line) throw new Error(`no lookup line for ${requestId}`);
  return line;
}

describe('a catalog lookup repeated with its Idempotency-Key', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('gets the first answer again, marked as a replay, charged once and sent to the source once', async () => {
    const callsBefore = sourceCalls(ROUTES.cuiNit);
    const key = freshKey();
    const body = { nit: gateway.sample.individual.nit };
    const first = await call(ROUTES.cuiNit, body, key);
    expect(first.status, first.text).toBe(200);
    expect(first.headers.get(REPLAYED)).toBeNull();
    // Same request, its fields in another order and the default written out: the same request.
    const repeats = [await call(ROUTES.cuiNit, body, key), await call(ROUTES.cuiNit, { actualizado: false, ...body }, key)];
    for (const repeat of repeats) {
      expect({ status: repeat.status, text: repeat.text, contentType: repeat.contentType }).toEqual({ status: 200, text: first.text, contentType: first.contentType });
      expect(repeat.headers.get(REPLAYED)).toBe('true');
      expect(repeat.requestId).not.toBe(first.requestId);
    }
    expect(sourceCalls(ROUTES.cuiNit) - callsBefore).toBe(1);

    // What it cost: the first lookup three statements (claim, hold, settlement with the answer), a replay one.
    expect(lookupLine(first.requestId)).toMatchObject({ status: 200, outcome: 'success', dbRoundTrips: 3 });
    expect(lookupLine(repeats[0]!.requestId)).toMatchObject({ status: 200, outcome: 'idempotent_replay', dbRoundTrips: 1 });

    const after = await money(integration);
    expect(after.money.balanceCentavos).toBe(BALANCE - TARIFF);
    expect(after.money.ledgerSumCentavos).toBe(after.money.balanceCentavos);
    expect(after.money.ledger.map((entry) => [entry.kind, entry.requestId])).toEqual([
      ['top_up', null],
      ['hold', first.requestId],
      ['capture', first.requestId],
    ]);
    // One record: the replays never reached the source, so there is nothing to record of them.
    expect(after.records.map((record) => [record.requestId, record.httpStatus, record.chargedCentavos])).toEqual([[first.requestId, 200, TARIFF]]);
    // The stored answer is personal data: encrypted, and the key itself only as a hash.
    expect(after.storedKeys).toContain('pd1:');
    for (const clear of [key, body.nit, '"data"', 'nombre']) expect(after.storedKeys).not.toContain(clear);
  });

  it('costs a lookup without the header nothing: two statements, as before', async () => {
    const plain = await call(ROUTES.omisos, { nit: gateway.sample.individual.nit });
    expect(plain.status).toBe(200);
    expect(plain.headers.get(REPLAYED)).toBeNull();
    expect(lookupLine(plain.requestId)).toMatchObject({ status: 200, outcome: 'success', dbRoundTrips: 2 });
  });

  it(`answers ${CONCURRENT_REPEATS} concurrent repeats with one charge, one source call and one answer`, async () => {
    const callsBefore = sourceCalls(ROUTES.catalogRtu);
    const key = freshKey();
    // actualizado: the source takes its online latency, so the repeats arrive while the first runs.
    const body = { nit: gateway.sample.legalEntity.nit, actualizado: true };
    const answers = await Promise.all(Array.from({ length: CONCURRENT_REPEATS }, () => call(ROUTES.catalogRtu, body, key, concurrent)));
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
    expect(new Set(answers.map((answer) => answer.text)).size).toBe(1);
    expect(answers.filter((answer) => answer.headers.get(REPLAYED) === 'true')).toHaveLength(CONCURRENT_REPEATS - 1);
    expect(sourceCalls(ROUTES.catalogRtu) - callsBefore).toBe(1);
    const after = await money(concurrent);
    expect(after.money.balanceCentavos).toBe(BALANCE - TARIFF);
    expect(after.money.ledger.map((entry) => entry.kind)).toEqual(['top_up', 'hold', 'capture']);
    expect(after.records.map((record) => record.chargedCentavos)).toEqual([TARIFF]);
    expect(after.money.ledgerSumCentavos).toBe(after.money.balanceCentavos);
  });

  it("refuses the same key with another body with the contract's 400, running nothing", async () => {
    const key = freshKey();
    expect((await call(ROUTES.cuiNit, { nit: gateway.sample.individual.nit }, key, refused)).status).toBe(200);
    const callsBefore = gateway.upstream.requests.length;
    for (const [route, body] of [
      [ROUTES.cuiNit, { nit: gateway.sample.legalEntity.nit }],
      [ROUTES.cuiNit, { nit: gateway.sample.individual.nit, actualizado: true }],
      // The same body on another catalog is another request.
      [ROUTES.omisos, { nit: gateway.sample.individual.nit }],
    ] as const) {
      const answer = await call(route, body, key, refused);
      expectErrorBody(answer, 400, 'message', CATALOG_MESSAGES.sourceRejectedData);
      expect(answer.headers.get(REPLAYED)).toBeNull();
      // The body is the contract's; the header tells support and the integrator which 400 it was (issue 30, point 7).
      expect(answer.headers.get('x-motivo-rechazo')).toBe('idempotency-key-reused');
    }
    expect(gateway.upstream.requests.length).toBe(callsBefore);
  });

  it("refuses an empty, too long or non-printable key with the contract's 400, before anything runs", async () => {
    const callsBefore = gateway.upstream.requests.length;
    for (const key of ['', 'k'.repeat(256), 'con\ttabulador', 'acentuada-\u00e9']) {
      const answer = await call(ROUTES.cuiNit, { nit: gateway.sample.individual.nit }, key, refused);
      expectErrorBody(answer, 400, 'message', CATALOG_MESSAGES.sourceRejectedData);
      expect(answer.headers.get('x-motivo-rechazo')).toBe('idempotency-key-invalid');
    }
    // A 400 for anything else carries no such header.
    const malformed = await call(ROUTES.cuiNit, { nit: '' }, freshKey(), refused);
    expect(malformed.status).toBe(400);
    expect(malformed.headers.get('x-motivo-rechazo')).toBeNull();
    // 255 printable characters are a key.
    expect((await call(ROUTES.cuiNit, { nit: gateway.sample.individual.nit }, '~'.repeat(255), refused)).status).toBe(200);
    expect(gateway.upstream.requests.length - callsBefore).toBe(1);

    // This integration's refusals, here and in the test before, were neither charged nor recorded:
    // its records and charges are exactly its 200s.
    const after = await money(refused);
    expect(after.money.balanceCentavos).toBe(BALANCE - servedToRefused.length * TARIFF);
    expect(after.money.ledgerSumCentavos).toBe(after.money.balanceCentavos);
    expect(after.records.map((record) => [record.requestId, record.httpStatus, record.chargedCentavos]).sort()).toEqual(
      servedToRefused.map((requestId) => [requestId, 200, TARIFF]).sort(),
    );
  });

  it("replays the source's final 404, and lets a 502 be tried again", async () => {
    const callsBefore = sourceCalls(ROUTES.omisos);
    const notFoundKey = freshKey();
    const notFound = { nit: FAULT_IDENTIFIERS.not_found.nit };
    const first404 = await call(ROUTES.omisos, notFound, notFoundKey);
    expectErrorBody(first404, 404, 'message', CATALOG_MESSAGES.notFound);
    const repeat404 = await call(ROUTES.omisos, notFound, notFoundKey);
    expectErrorBody(repeat404, 404, 'message', CATALOG_MESSAGES.notFound);
    expect(repeat404.headers.get(REPLAYED)).toBe('true');
    expect(sourceCalls(ROUTES.omisos) - callsBefore).toBe(1);

    // "A 502 means the query was not resolved and not charged; retrying is safe": the retry runs.
    const failingKey = freshKey();
    const failing = { nit: FAULT_IDENTIFIERS.server_error.nit };
    const first502 = await call(ROUTES.omisos, failing, failingKey);
    expectErrorBody(first502, 502, 'message', CATALOG_MESSAGES.sourceUnavailable);
    const retry502 = await call(ROUTES.omisos, failing, failingKey);
    expectErrorBody(retry502, 502, 'message', CATALOG_MESSAGES.sourceUnavailable);
    expect(retry502.headers.get(REPLAYED)).toBeNull();
    expect(sourceCalls(ROUTES.omisos) - callsBefore).toBe(3);
  });
});
