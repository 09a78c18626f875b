// The built app as a load balancer and an operator see it: health, the first-start seed, the
// global per-IP limit, and restarts that keep the data.
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type RunningApp } from '../support/app-server';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';

let testDb: TestDatabase;
let app: RunningApp | undefined;

beforeAll(async () => {
  testDb = await useTestDatabase();
});

afterEach(async () => {
  await app?.stop();
  app = undefined;
});

afterAll(async () => {
  await testDb?.cleanup();
});

describe('the built app', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('answers GET /api/health with 200 and the database kind while the database is up', async () => {
    app = await startApp();
    const response = await fetch(`${app.baseUrl}/api/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok', database: testDb.kind });
  });

  it('seeds an admin and a demo integration on first start, prints their secrets once, and keeps them across restarts', async () => {
    app = await startApp({ seed: true });
    const firstStart = app.logs();
    expect(firstStart).toMatch(/email: admin@example\.com\s+password: [A-Za-z0-9]{18}/);
    expect(firstStart).toMatch(/x-integracion-login: demo\s+x-integracion-token: tlk_[A-Za-z0-9_-]{43}/);

    const seeded = await app.withDatabase(() =>
      testDb.use(async (handle) => ({
        users: await handle.rows<{ email: string; role: string }>(sql`select email, role from console_users`),
        integrations: await handle.rows<{ nombre: string; balance: string | number }>(
          sql`select nombre, balance_centavos as balance from integrations`,
        ),
      })),
    );
    expect(seeded.users).toEqual([{ email: 'admin@example.com', role: 'admin' }]);
    expect(seeded.integrations.map((row) => [row.nombre, Number(row.balance)])).toEqual([['demo', 50_000]]);

    await app.restart();
    const afterRestart = app.logs().slice(firstStart.length);
    expect(afterRestart).not.toMatch(/password:|x-integracion-token/);
    const health = await fetch(`${app.baseUrl}/api/health`);
    expect(health.status).toBe(200);
    await health.arrayBuffer();
  });

  it('applies the global per-IP limit to the API, which forged forwarding headers cannot dodge', async () => {
    // The global limit's windows are aligned to the clock (a sliding window): one that ended mid-test
    // would give a request back (docs/decisions.md, "Limits"). A year-long window keeps the test exact.
    app = await startApp({ env: { RATE_LIMIT_GLOBAL_MAX: '3', RATE_LIMIT_GLOBAL_WINDOW_SECONDS: '31536000', TRUSTED_PROXY_HOPS: '0' } });
    const statuses = [];
    for (let i = 0; i < 3; i++) {
      const response = await fetch(`${app.baseUrl}/api/no-such-route`, { method: 'POST' });
      await response.arrayBuffer();
      statuses.push(response.status);
    }
    expect(statuses).not.toContain(429);

    const limited = await fetch(`${app.baseUrl}/api/no-such-route`, { method: 'POST' });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(limited.headers.get('retry-after')).toBeNull();
    // The contract promises only "the limiter's default body": plain text, not JSON.
    expect(await limited.text()).toMatch(/too many requests/i);

    const forgeries: Array<Record<string, string>> = [
      { 'x-forwarded-for': '198.51.100.23' },
      { 'x-gateway-peer-ip': '198.51.100.24' },
      { 'x-forwarded-for': '198.51.100.25', 'x-gateway-peer-ip': '198.51.100.25', 'x-real-ip': '198.51.100.25' },
    ];
    for (const headers of forgeries) {
      const dodge = await fetch(`${app.baseUrl}/api/no-such-route`, { method: 'POST', headers });
      await dodge.arrayBuffer();
      expect(dodge.status).toBe(429);
    }

    // Load balancers keep polling health while a client is limited.
    const health = await fetch(`${app.baseUrl}/api/health`);
    expect(health.status).toBe(200);
    await health.arrayBuffer();
  });

  it('stops gracefully on SIGTERM and frees its port', async () => {
    app = await startApp();
    const health = await fetch(`${app.baseUrl}/api/health`);
    await health.arrayBuffer();
    const { baseUrl } = app;
    await app.stop();
    expect(app.lastExit()).toEqual({ code: 0, signal: null });
    await expect(fetch(`${baseUrl}/api/health`)).rejects.toThrow();
  });
});
