// The pages of signed-in people must not starve the API either (issue 34's portal pages beside
// issue 30, point 1's public ones). A built app on PostgreSQL and Redis: a valid lookup's median
// time alone, then while 100 connections, each from its own address and all with one signed-in
// session per page, keep asking for one page at a time: the portal's Inicio, Recargas, Credenciales and
// Notificaciones, a deposit slip's download, and the console's "Recargas pendientes" for an
// administrator. The lookup's median must stay within twice its median alone, as with the public
// pages (tests/multi-instance/public-pages-flood.test.ts). Rendered as they came, the portal's
// pages took the lookup's median from 8 ms to 590-730 ms, the console's Recargas to 490 ms and a
// slip's download to 190 ms; with their turn in server.mjs, 8 to 14 ms. Each session now has its
// own bound in that turn: the excess is refused at once (one-session-flood.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '@/simulator/index';
import { startApp, type RunningApp } from '../support/app-server';
import type { ConsoleClient } from '../support/console-client';
import { depositDaysAgo } from '../support/deposit-dates';
import { addPortalMember, consoleSignedIn, newConsoleUser, portalSignedIn } from '../support/people';
import { says } from '../support/portal-client';
import { slipPng } from '../support/slip-png';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';
import { CROWD_SETTLE_MS, crowd, type CrowdCounts } from './crowd';
import { medianLookupMs, newIntegration, requiredEnv, servedBy, sourceUrls, type TestIntegration } from './support';

/** Addresses of this run only: Redis keeps the per-IP windows of earlier runs for a minute. */
const RUN = (Math.floor(Math.random() * 0xfff0) + 1).toString(16);
const FLOOD_CONNECTIONS = 100;

let testDatabase: TestDatabase;
let simulator: RunningSimulator;
let app: RunningApp;
let integration: TestIntegration;
/** Each flooded page and the session cookies that open it (whoever may read it). */
let flooded: Array<{ path: string; cookie: string }> = [];

const cookieHeader = (client: ConsoleClient) => [...client.cookies].map(([name, value]) => `${name}=${value}`).join('; ');

beforeAll(async () => {
  requiredEnv('DATABASE_URL');
  simulator = await startSimulator({ port: 0, latencyMs: 0 });
  testDatabase = await useTestDatabase();
  app = await startApp({
    env: {
      ...sourceUrls(simulator),
      REDIS_URL: requiredEnv('REDIS_URL'),
      TRUSTED_PROXY_HOPS: '1',
      RATE_LIMIT_SIGN_IN_PER_MINUTE: '100',
      RATE_LIMIT_GLOBAL_MAX: '100000',
      RATE_LIMIT_RENAP_PER_MINUTE: '100000',
    },
  });
  integration = await newIntegration(1, 10_000);
  const member = { id: integration.id, nombre: integration.headers['x-integracion-login']!, token: integration.headers['x-integracion-token']! };
  await addPortalMember(member, 'duena-avalancha@example.com', 'propietario');
  await addPortalMember(member, 'pagos-avalancha@example.com', 'facturacion');
  await addPortalMember(member, 'dev-avalancha@example.com', 'desarrollador');
  const owner = await portalSignedIn(app.baseUrl, 'duena-avalancha@example.com');
  const billing = await portalSignedIn(app.baseUrl, 'pagos-avalancha@example.com');
  const developer = await portalSignedIn(app.baseUrl, 'dev-avalancha@example.com');
  const admin = await consoleSignedIn(app.baseUrl, await newConsoleUser('admin-avalancha@example.com', 'admin'));
  // A pending deposit with its slip: Recargas lists it, its slip downloads, the console shows it.
  const reported = await billing.serverActionWithFiles(
    '/portal/recargas',
    'reportTopUpAction',
    { banco: 'BI', referencia: `AVAL-${RUN}`, fecha: depositDaysAgo(7), monto: '100.00', envio: crypto.randomUUID() },
    { boleta: new Blob([new Uint8Array(slipPng())], { type: 'image/png' }) },
  );
  expect(says(reported, 'La administración lo revisará'), reported.text.slice(0, 300)).toBe(true);
  const slipPath = /href="(\/portal\/recargas\/\d+\/boleta)"/.exec((await billing.request('/portal/recargas')).text)?.[1];
  expect(slipPath).toBeDefined();
  flooded = [
    { path: '/portal', cookie: cookieHeader(owner) },
    { path: '/portal/recargas', cookie: cookieHeader(billing) },
    { path: '/portal/credenciales', cookie: cookieHeader(developer) },
    { path: '/portal/notificaciones', cookie: cookieHeader(owner) },
    { path: slipPath!, cookie: cookieHeader(billing) },
    { path: '/admin/recargas', cookie: cookieHeader(admin) },
  ];
  // Each page answers its reader (not a redirect to sign-in or to "Sin permiso").
  for (const { path, cookie } of flooded) {
    const answer = await fetch(`${app.baseUrl}${path}`, { headers: { cookie, 'x-forwarded-for': '192.0.2.7' }, redirect: 'manual' });
    await answer.arrayBuffer();
    expect(answer.status, path).toBe(200);
  }
  await servedBy([app], integration);
}, PROCESS_TEST_TIMEOUT_MS);

afterAll(async () => {
  await app?.stop();
  await simulator?.close();
  await testDatabase?.cleanup();
});

describe('a flood of the portal pages and the console\'s Recargas by signed-in people', { timeout: PROCESS_TEST_TIMEOUT_MS * 2 }, () => {
  it('leaves a lookup beside it within twice its median time alone, on each page and on a slip\'s download', async () => {
    await medianLookupMs(app, integration); // warm-up: the app's first answers compile and connect
    const idle = await medianLookupMs(app, integration);
    const results: Record<string, { median: number } & CrowdCounts> = {};
    for (const { path, cookie } of flooded) {
      const running = crowd({ urls: [`${app.baseUrl}${path}`], connections: FLOOD_CONNECTIONS, cookie, addresses: { perConnection: `2001:db8:${RUN}:` } });
      await new Promise((resolve) => setTimeout(resolve, CROWD_SETTLE_MS));
      const median = await medianLookupMs(app, integration);
      results[path] = { median, ...(await running.stop()) };
    }
    console.log(
      `[signed-in pages] lookup p50 idle ${idle.toFixed(1)} ms; ${Object.entries(results)
        .map(([path, result]) => `${path}: ${result.median.toFixed(1)} ms (${JSON.stringify(result.statuses)})`)
        .join('; ')}`,
    );
    for (const [path, result] of Object.entries(results)) {
      // The session is served its pages in its turn and refused the excess; the lookup keeps its pace.
      expect(Object.keys(result.statuses).sort(), path).toEqual(['200', '429']);
      expect(result.answered, path).toBe(FLOOD_CONNECTIONS);
      expect(result.median, path).toBeLessThanOrEqual(2 * idle);
    }
  });
});
