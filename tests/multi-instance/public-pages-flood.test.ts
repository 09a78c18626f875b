// The public pages and the sign-in pages must not starve the API (issue 30, point 1). A built app
// on PostgreSQL and Redis: a valid lookup's median time alone, then while 100 connections keep
// asking for /docs, for /estado, for the console's /admin/login and for the portal's
// /portal/ingresar (one page at a time), each connection from its own address (a crowd, not one
// client: one client meets the pages' own per-IP limit first, tested below). Rendered per request,
// ten connections on /docs took the lookup's median from 9 ms to 578 ms and a hundred to 6.8 s; a
// hundred on either sign-in page took it from about 9 ms to about 350 ms.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '@/simulator/index';
import { SHOWCASE_MEMBER } from '@/simulator/population';
import { startApp, type RunningApp } from '../support/app-server';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';
import { medianLookupMs, newIntegration, requiredEnv, servedBy, sourceUrls, type TestIntegration, withinOneLimitMinute } from './support';

/** Addresses of this run only: Redis keeps the per-IP windows of earlier runs for a minute. */
const RUN = (Math.floor(Math.random() * 0xfff0) + 1).toString(16);
const FLOOD_CONNECTIONS = 100;

let testDatabase: TestDatabase;
let simulator: RunningSimulator;
let app: RunningApp;
let integration: TestIntegration;

beforeAll(async () => {
  requiredEnv('DATABASE_URL');
  requiredEnv('REDIS_URL');
  simulator = await startSimulator({ port: 0, latencyMs: 0 });
  testDatabase = await useTestDatabase();
  app = await startApp({
    env: {
      ...sourceUrls(simulator),
      REDIS_URL: requiredEnv('REDIS_URL'),
      TRUSTED_PROXY_HOPS: '1',
      RATE_LIMIT_GLOBAL_MAX: '100000',
      RATE_LIMIT_RENAP_PER_MINUTE: '100000',
    },
  });
  integration = await newIntegration(0, 0);
  // Created after the app started: the app hears of it a moment later (a 403 until then).
  await servedBy([app], integration);
}, PROCESS_TEST_TIMEOUT_MS);

afterAll(async () => {
  await app?.stop();
  await simulator?.close();
  await testDatabase?.cleanup();
});

/**
 * Keeps `connections` requests for `path` in flight, each connection from its own address, until
 * stopped; in a process of its own, as a crowd of clients would be: in this one, its callbacks
 * would delay the measured lookups' own. Resolves to the count of answers by status.
 */
const FLOOD_SCRIPT = `
const [url, connections, run] = process.argv.slice(1);
let running = true;
const statuses = {};
process.on('message', () => { running = false; });
await Promise.all(Array.from({ length: Number(connections) }, async (_, index) => {
  while (running) {
    const response = await fetch(url, { headers: { 'x-forwarded-for': '2001:db8:' + run + ':' + index.toString(16) + '::1' } }).catch(() => undefined);
    if (!response) continue;
    await response.arrayBuffer();
    statuses[response.status] = (statuses[response.status] ?? 0) + 1;
  }
}));
process.send(statuses, () => process.exit(0));
`;

function flood(path: string, connections: number) {
  const child = spawn(process.execPath, ['--input-type=module', '-e', FLOOD_SCRIPT, `${app.baseUrl}${path}`, String(connections), RUN], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const result = new Promise<Record<number, number>>((resolve, reject) => {
    child.once('message', (statuses) => resolve(statuses as Record<number, number>));
    child.once('exit', (code) => reject(new Error(`the flood exited (${code}) without its counts`)));
  });
  return {
    async stop(): Promise<Record<number, number>> {
      child.send('stop');
      return result;
    },
  };
}

/** Each flooded in turn: the public pages and the signed-out sign-in pages (no cookie, no query). */
const FLOODED_PAGES = ['/docs', '/estado', '/admin/login', '/portal/ingresar'];

describe('a flood of the public pages and the sign-in pages', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('leaves a lookup beside it within twice its median time alone, on /docs, /estado, /admin/login and /portal/ingresar', async () => {
    await medianLookupMs(app, integration); // warm-up: the app's first answers compile and connect
    const idle = await medianLookupMs(app, integration);
    const results: Record<string, { median: number; statuses: Record<number, number> }> = {};
    for (const path of FLOODED_PAGES) {
      const running = flood(path, FLOOD_CONNECTIONS);
      // Let every connection be under way before measuring.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const median = await medianLookupMs(app, integration);
      results[path] = { median, statuses: await running.stop() };
    }
    console.log(`[public pages] lookup p50 idle ${idle.toFixed(1)} ms; ${Object.entries(results).map(([path, result]) => `${path}: ${result.median.toFixed(1)} ms (${JSON.stringify(result.statuses)})`).join('; ')}`);
    for (const [path, result] of Object.entries(results)) {
      expect(result.statuses[200], path).toBeGreaterThan(FLOOD_CONNECTIONS);
      expect(result.median, path).toBeLessThanOrEqual(2 * idle);
    }
  });

  it('from one address is refused past the pages\' own per-IP limit, shared by the public and the sign-in pages, with a Spanish answer and Retry-After', async () => {
    const statuses: number[] = [];
    let refusal: Response | undefined;
    await withinOneLimitMinute(10_000);
    for (let index = 0; index < 70; index++) {
      // One budget for all of them: a client refused /estado gets no sign-in page renders instead.
      const path = ['/estado', '/admin/login', '/portal/ingresar'][index % 3]!;
      const response = await fetch(`${app.baseUrl}${path}`, { headers: { 'x-forwarded-for': `2001:db8:${RUN}:ffff::9` } });
      statuses.push(response.status);
      if (response.status === 429) refusal ??= response;
      else await response.arrayBuffer();
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(60);
    expect(statuses.filter((status) => status === 429)).toHaveLength(10);
    expect(refusal!.headers.get('retry-after')).toBe('60');
    expect(await refusal!.text()).toBe('Demasiadas solicitudes desde su dirección. Espere un minuto y vuelva a intentarlo.');
    // The lookups' budget is another one: this address still looks up.
    const lookup = await fetch(`${app.baseUrl}/api/renap/buscar-cui`, {
      method: 'POST',
      headers: { ...integration.headers, 'x-forwarded-for': `2001:db8:${RUN}:ffff::9` },
      body: JSON.stringify({ cui: SHOWCASE_MEMBER.cui }),
    });
    expect(lookup.status).toBe(200);
  });
});
