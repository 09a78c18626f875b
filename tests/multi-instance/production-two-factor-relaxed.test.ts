// Issue 22, point 3: two-factor sign-in is required of administrators in production; the setting
// that relaxes it (CONSOLE_ADMIN_TWO_FACTOR_REQUIRED=false) makes every start say so in the log,
// where operators and log alerts see it. Production runs on PostgreSQL only, hence this suite.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type RunningApp } from '../support/app-server';
import { logLines } from '../support/logs';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';

const PRODUCTION_SETTINGS = {
  APP_ENV: 'production',
  NEXTAUTH_URL: 'https://consola.example.test',
  RENAP_BASE_URL: 'https://renap.example.test/api',
  RENAP_API_KEY: 'renap-key',
  RTU_BASE_URL: 'https://rtu.example.test/api',
  RTU_API_KEY: 'rtu-key',
  CATALOG_BASE_URL: 'https://catalogos.example.test/api',
  CATALOG_CLIENT_ID: 'catalog-client',
  CATALOG_CLIENT_SECRET: 'catalog-secret',
  SUPPORT_CONTACT_EMAIL: 'soporte@example.test',
};
const WARNING = 'console administrators may sign in with a password alone: two-factor sign-in is not required in production';

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
  it('warns when two-factor sign-in is not required of administrators, and only then', async () => {
    required = await startApp({ env: PRODUCTION_SETTINGS });
    expect(logLines(required.logs()).filter((line) => line.msg === WARNING)).toEqual([]);
    await required.stop();
    required = undefined;

    relaxed = await startApp({ env: { ...PRODUCTION_SETTINGS, CONSOLE_ADMIN_TWO_FACTOR_REQUIRED: 'false' } });
    expect(logLines(relaxed.logs()).filter((line) => line.msg === WARNING)).toEqual([
      expect.objectContaining({ level: 40, setting: 'CONSOLE_ADMIN_TWO_FACTOR_REQUIRED' }),
    ]);
  });
});
