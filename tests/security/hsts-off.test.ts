// Without an https public URL (development on http://localhost) browsers must not be told to
// insist on https.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type RunningApp } from '../support/app-server';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';

let testDatabase: TestDatabase;
let app: RunningApp;

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  app = await startApp();
}, PROCESS_TEST_TIMEOUT_MS);

afterAll(async () => {
  await app?.stop();
  await testDatabase?.cleanup();
});

describe('a deployment served over http', () => {
  it('sends the other security headers but no Strict-Transport-Security', async () => {
    for (const path of ['/admin/login', '/api/health']) {
      const response = await fetch(`${app.baseUrl}${path}`);
      await response.arrayBuffer();
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('strict-transport-security')).toBeNull();
    }
  });
});
