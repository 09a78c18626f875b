// Issue 14, point 5: SIGTERM while 50 billed lookups wait on a slow source. The instance says it
// is draining (health 503), every lookup still answers its client and settles its hold, and the
// process exits on its own once they are done: nothing is left for the crash sweeper.
// Issue 22, point 1: what lives only in memory between periodic writes (the token's last use, the
// refusal counts) is written before the process exits, so a deployment erases none of it.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { logLines } from '../support/logs';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';
import { callApi, createTestIntegration, readMoney, readRecords, ROUTES, startGateway, type Gateway, type TestIntegration } from '../conformance/harness';

const LOOKUPS = 50;
const TARIFF = 100;
const START_BALANCE = 100_000;
/** Each source call takes this long: the SIGTERM arrives while all of them wait. */
const SOURCE_LATENCY_MS = 3_000;

let testDb: TestDatabase;
let gateway: Gateway;
let acme: TestIntegration;

beforeAll(async () => {
  testDb = await useTestDatabase();
  acme = await createTestIntegration('acme-drain', { tariffCentavos: TARIFF, balanceCentavos: START_BALANCE });
  gateway = await startGateway(testDb, {
    env: {
      SOURCE_TIMEOUT_MS: '20000',
      HOLD_SWEEP_AFTER_SECONDS: '60',
      RATE_LIMIT_CATALOG_PER_MINUTE: '1000',
      SHUTDOWN_DRAIN_TIMEOUT_MS: '15000',
      // Longer than this test: only the write before exit can put them in the database.
      TOKEN_LAST_USE_FLUSH_MS: '60000',
      ROLLUP_INTERVAL_MS: '600000',
    },
    simulator: { latencyMs: SOURCE_LATENCY_MS },
  });
}, PROCESS_TEST_TIMEOUT_MS);

afterAll(async () => {
  await gateway?.stop();
  await testDb?.cleanup();
});

describe('graceful drain on SIGTERM', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('answers and settles every lookup in flight, says 503 meanwhile, and exits with nothing left to sweep', async () => {
    const nit = gateway.sample.individual.nit;
    const lookups = Array.from({ length: LOOKUPS }, () => callApi(gateway.app.baseUrl, ROUTES.omisos, { as: acme, json: { nit } }));
    // Wait until every lookup is waiting on the source (the relay has seen all of them).
    const deadline = Date.now() + 30_000;
    while (gateway.upstream.requestsTo('/catalog/v2/consultas/cumplimiento').length < LOOKUPS) {
      if (Date.now() > deadline) throw new Error('the lookups never reached the source');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const refused = await callApi(gateway.app.baseUrl, ROUTES.omisos, { as: { ...acme, token: 'not-the-token' }, json: { nit } });
    expect(refused.status).toBe(401);
    const pid = gateway.app.pid;
    process.kill(pid, 'SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 200));
    const health = await fetch(`${gateway.app.baseUrl}/api/health`);
    expect({ status: health.status, body: await health.json() }).toEqual({ status: 503, body: { status: 'draining' } });

    const answers = await Promise.all(lookups);
    expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: LOOKUPS }, () => 200));

    // It exits by itself once they are done (no SIGKILL needed).
    const exitDeadline = Date.now() + 15_000;
    while (gateway.app.lastExit() === undefined && isAlive(pid)) {
      if (Date.now() > exitDeadline) throw new Error('the app did not exit after draining');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const lines = logLines(gateway.app.logs());
    expect(lines.some((line) => line.msg === 'drained: no request in flight; exiting')).toBe(true);

    await gateway.withDatabase(async (handle) => {
      const [open] = await handle.rows<{ count: string | number }>(sql`select count(*) as count from ledger_open_holds`);
      expect(Number(open!.count)).toBe(0);
      const records = await readRecords(handle, acme.id);
      expect(records).toHaveLength(LOOKUPS);
      expect(records.every((record) => record.httpStatus === 200 && record.chargedCentavos === TARIFF)).toBe(true);
      const money = await readMoney(handle, acme.id);
      expect(money.balanceCentavos).toBe(START_BALANCE - LOOKUPS * TARIFF);
      expect(money.ledgerSumCentavos).toBe(money.balanceCentavos);
      expect(money.ledger.filter((entry) => entry.kind === 'capture')).toHaveLength(LOOKUPS);
      expect(money.ledger.filter((entry) => entry.kind === 'void')).toHaveLength(0);

      const tokens = await handle.rows<{ last_used_at: Date | string | null }>(
        sql`select last_used_at from integration_tokens where integration_id = ${acme.id}`,
      );
      expect(tokens.map((token) => token.last_used_at !== null)).toEqual([true]);
      const [refusals] = await handle.rows<{ refusals: string | number | null }>(
        sql`select sum(refusals) as refusals from refusal_rollups where lookup = 'omisos' and reason = 'credentials_invalid'`,
      );
      expect(Number(refusals!.refusals)).toBe(1);
    });
  });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
