// Without an https public URL (development on http://localhost) browsers must not be told to
// insist on https.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type RunningApp } from '../support/app-server';
import { rawRequest, singleHeader } from '../support/raw-http';
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
    // Pages and the API (proxy.ts), and answers Next writes without it: a 404, a redirect, the benchmark route.
    for (const path of ['/admin/login', '/api/health', '/favicon.ico', '/admin/login/', '/api/bench/no-such-route']) {
      const response = await fetch(`${app.baseUrl}${path}`, { redirect: 'manual' });
      await response.arrayBuffer();
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(response.headers.get('x-frame-options'), path).toBe('DENY');
      expect(response.headers.get('strict-transport-security'), path).toBeNull();
    }
  });

  it('with no public URL configured (development), an absolute-form target must name the Host it was sent to', async () => {
    const local = `127.0.0.1:${app.port}`;
    const served = await rawRequest(app.port, 'GET', `http://${local}/api/health`, { host: local });
    expect(served.status).toBe(200);
    expect(JSON.parse(served.text)).toMatchObject({ status: 'ok' });
    for (const [target, host] of [
      ['http://evil.example/admin/login', local],
      [`http://127.0.0.1:${app.port + 1}/admin/login`, local],
    ] as const) {
      const refused = await rawRequest(app.port, 'GET', target, { host });
      expect(refused.status, target).toBe(400);
      expect(singleHeader(refused, 'location'), target).toBeUndefined();
      expect(singleHeader(refused, 'x-content-type-options'), target).toBe('nosniff');
      expect(singleHeader(refused, 'strict-transport-security'), target).toBeUndefined();
    }
  });
});
