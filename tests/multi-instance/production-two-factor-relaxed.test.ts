// Issue 22, point 3 (and issue 30, point 3): two-factor sign-in is required of every console user in production; the setting
// that relaxes it (CONSOLE_TWO_FACTOR_REQUIRED=false) makes every start say so in the log,
// where operators and log alerts see it. Production runs on PostgreSQL only, hence this suite.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type RunningApp } from '../support/app-server';
import { logLines } from '../support/logs';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';
import { TEST_PRODUCTION_SETTINGS } from '../support/production-settings';

const PRODUCTION_SETTINGS = TEST_PRODUCTION_SETTINGS;
const WARNING = 'console users may sign in with a password alone: two-factor sign-in is not required in production';

let testDatabase: TestDatabase;
let required: RunningApp | undefined;
let relaxed: RunningApp | undefined;

beforeAll(async () => {
  testDatabase = await useTestDatabase();
}, PROCESS_TEST_TIMEOUT_MS);

afterAll(async () => {
  await required?.stop();
  await relaxed?.stop();
  await testDatabase?.cleanup();
});

describe('a production start', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('warns when two-factor sign-in is not required of console users, and only then', async () => {
    required = await startApp({ env: PRODUCTION_SETTINGS });
    expect(logLines(required.logs()).filter((line) => line.msg === WARNING)).toEqual([]);
    await required.stop();
    required = undefined;

    relaxed = await startApp({ env: { ...PRODUCTION_SETTINGS, CONSOLE_TWO_FACTOR_REQUIRED: 'false' } });
    expect(logLines(relaxed.logs()).filter((line) => line.msg === WARNING)).toEqual([
      expect.objectContaining({ level: 40, setting: 'CONSOLE_TWO_FACTOR_REQUIRED' }),
    ]);
  });
});
