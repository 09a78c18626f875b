// What the app's log holds when the database fails where secrets are at hand: no password, no
// hash, no token; and the failed lookup's line carries its request id.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestIntegration, startGateway, type Gateway } from '../conformance/harness';
import { startAppExpectingExit } from '../support/app-server';
import { LOG_LEVEL, logLines } from '../support/logs';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';

const SECRET_SHAPES = [/scrypt\$/, /tlk_[A-Za-z0-9_-]{20,}/, /\b[0-9a-f]{64}\b/];

let testDatabase: TestDatabase;

beforeAll(async () => {
  testDatabase = await useTestDatabase();
});

afterAll(async () => {
  await testDatabase?.cleanup();
});

/** Makes every insert into `table` fail, as a broken or full database would. */
async function breakInserts(table: string): Promise<void> {
  await testDatabase.use(async (handle) => {
    await handle.rows(sql.raw(`create or replace function gateway_test_refuse() returns trigger language plpgsql as $$
      begin raise exception 'refused by the test'; end $$`));
    await handle.rows(sql.raw(`create trigger gateway_test_refuse before insert on ${table} for each row execute function gateway_test_refuse()`));
  });
}

async function repairInserts(table: string): Promise<void> {
  await testDatabase.use((handle) => handle.rows(sql.raw(`drop trigger if exists gateway_test_refuse on ${table}`)));
}

describe('the log of a failed start', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('says the seed failed without the password hash the failing insert was given', async () => {
    await breakInserts('console_users');
    try {
      const exited = await startAppExpectingExit({ seed: true });
      expect(exited.code).not.toBe(0);
      const fatal = logLines(exited.output).find((line) => line.level === LOG_LEVEL.fatal);
      expect(fatal?.msg).toMatch(/^cannot start: Failed query: insert into "console_users"/);
      expect(fatal?.msg).toContain('refused by the test');
      for (const shape of SECRET_SHAPES) expect(exited.output).not.toMatch(shape);
      expect(exited.output).not.toContain('admin@example.com');
    } finally {
      await repairInserts('console_users');
    }
  });
});

describe('the log of lookups that fail on the database', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  let gateway: Gateway | undefined;

  afterAll(async () => {
    await gateway?.stop();
  });

  it('has a line per failed lookup with its request id, and none of the credentials', async () => {
    const integration = await createTestIntegration('bitacora', { tariffCentavos: 100, balanceCentavos: 10_000 });
    await breakInserts('query_records');
    gateway = await startGateway(testDatabase);
    const answers = [
      await gateway.call('/api/renap/buscar-cui', { as: integration, json: { cui: gateway.sample.individual.cui } }),
      await gateway.call('/api/catalogos/omisos', { as: integration, json: { nit: gateway.sample.individual.nit } }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([500, 500]);
    const errors = logLines(gateway.app.logs()).filter((line) => line.level === LOG_LEVEL.error);
    for (const answer of answers) {
      expect(errors.find((line) => line.requestId === answer.requestId), answer.requestId).toMatchObject({ msg: 'lookup failed' });
    }
    const logs = gateway.app.logs();
    expect(logs).not.toContain(integration.token);
    for (const shape of SECRET_SHAPES) expect(logs).not.toMatch(shape);
    // Repaired once the app has stopped: dropping the trigger takes every partition's exclusive
    // lock, and the running app's journal retries took theirs the other way round (a deadlock in CI).
    const stopping = gateway;
    gateway = undefined;
    await stopping.stop();
    await repairInserts('query_records');
  });
});
