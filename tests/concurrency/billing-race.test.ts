// The concurrency requirement, over HTTP against the built app (startApp, through the
// conformance harness): 200 billed lookups at once against a balance that covers exactly 37. The
// hold is one conditional UPDATE, so whatever the interleaving (PGlite in one process, PostgreSQL
// with a pool of connections) exactly 37 win, the rest get 402, and no money is created or lost.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOG_MESSAGES } from '@/lib/contract/messages';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';
import { CATALOG_UPSTREAM_PATHS, createTestIntegration, readMoney, readRecords, ROUTES, startGateway, type Gateway, type TestIntegration } from '../conformance/harness';

const PARALLEL_REQUESTS = 200;
const AFFORDABLE = 37;
const TARIFF = 150;

let testDb: TestDatabase;
let gateway: Gateway;
let racer: TestIntegration;

beforeAll(async () => {
  testDb = await useTestDatabase();
  racer = await createTestIntegration('billing-race', { tariffCentavos: TARIFF, balanceCentavos: AFFORDABLE * TARIFF });
  // Neither the shared catalog limit (30 per minute) nor the global per-IP limit may get in the way,
  // nor the tests' short source ceiling (1.5 s): 200 lookups at once on a loaded 2-core machine can
  // wait longer than that for the simulator, and a 502 is not what this test is about.
  gateway = await startGateway(testDb, { env: { RATE_LIMIT_CATALOG_PER_MINUTE: String(PARALLEL_REQUESTS * 2), SOURCE_TIMEOUT_MS: '30000' } });
});

afterAll(async () => {
  await gateway?.stop();
  await testDb?.cleanup();
});

describe(`${PARALLEL_REQUESTS} parallel billed lookups against a balance of exactly ${AFFORDABLE} tariffs`, { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it(`captures exactly ${AFFORDABLE}, refuses the other ${PARALLEL_REQUESTS - AFFORDABLE} with 402, and leaves a balance of zero equal to the ledger`, async () => {
    const answers = await Promise.all(
      Array.from({ length: PARALLEL_REQUESTS }, () => gateway.call(ROUTES.cuiNit, { as: racer, json: { nit: gateway.sample.individual.nit } })),
    );
    const served = answers.filter((answer) => answer.status === 200);
    const refused = answers.filter((answer) => answer.status === 402);
    // Every status, and the body of any other answer, so a failure says what the clients got.
    const statuses = answers.reduce<Record<number, number>>((count, answer) => ({ ...count, [answer.status]: (count[answer.status] ?? 0) + 1 }), {});
    const others = answers.filter((answer) => answer.status !== 200 && answer.status !== 402).map((answer) => `${answer.status} ${JSON.stringify(answer.body)}`);
    expect({ statuses, others: [...new Set(others)] }).toEqual({ statuses: { 200: AFFORDABLE, 402: PARALLEL_REQUESTS - AFFORDABLE }, others: [] });
    for (const answer of served) expect(Object.keys(answer.body as object)).toEqual(['data']);
    for (const answer of refused) expect(answer.body).toEqual({ message: CATALOG_MESSAGES.balanceExhausted });
    // A 402 never reaches the source.
    expect(gateway.upstream.requestsTo(CATALOG_UPSTREAM_PATHS[ROUTES.cuiNit]).length).toBe(AFFORDABLE);

    const { records, money } = await gateway.withDatabase(async (handle) => ({
      records: await readRecords(handle, racer.id),
      money: await readMoney(handle, racer.id),
    }));
    expect(money.balanceCentavos).toBe(0);
    expect(money.ledgerSumCentavos).toBe(0);
    const kinds = money.ledger.reduce<Record<string, number>>((count, entry) => ({ ...count, [entry.kind]: (count[entry.kind] ?? 0) + 1 }), {});
    expect(kinds).toEqual({ top_up: 1, hold: AFFORDABLE, capture: AFFORDABLE });

    const servedIds = served.map((answer) => answer.requestId).sort();
    expect(records.length).toBe(AFFORDABLE);
    expect(records.every((record) => record.httpStatus === 200 && record.chargedCentavos === TARIFF && record.tariffCentavos === TARIFF)).toBe(true);
    expect(records.map((record) => record.requestId).sort()).toEqual(servedIds);
    expect(money.ledger.filter((entry) => entry.kind === 'capture').map((entry) => entry.requestId).sort()).toEqual(servedIds);
  });
});
