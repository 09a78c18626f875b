// The public pages and the sign-in pages must not starve the API (issue 30, point 1). A built app
// on PostgreSQL and Redis: a valid lookup's median time alone, then while 100 connections keep
// asking for /docs, for /estado, for the console's /admin/login and for the portal's
// /portal/ingresar and /portal/ingresar/empresa (one page at a time), each connection from its own address (a crowd, not one
// client: one client meets the pages' own per-IP limit first, tested below). Rendered per request,
// ten connections on /docs took the lookup's median from 9 ms to 578 ms and a hundred to 6.8 s; a
// hundred on either sign-in page took it from about 9 ms to about 350 ms.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import { startSimulator, type RunningSimulator } from '@/simulator/index';
import { SHOWCASE_MEMBER } from '@/simulator/population';
import { startApp, type RunningApp } from '../support/app-server';
import { startReverseProxy } from '../support/reverse-proxy';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';
import { CROWD_SETTLE_MS, aloneAround, crowd, medianMs, type CrowdCounts } from './crowd';
import { medianLookupMs, newIntegration, requiredEnv, servedBy, twoInstanceEnv, type TestIntegration, withinOneLimitMinute } from './support';

/** Addresses of this run only: Redis keeps the per-IP windows of earlier runs for a minute. */
const RUN = (Math.floor(Math.random() * 0xfff0) + 1).toString(16);
const FLOOD_CONNECTIONS = 100;
// A sign-in page takes under a millisecond alone, where a median of 31 moved by more than the
// margin once in CI (/admin/login 1.53 ms against a bound of 1.52): 61 samples make it steadier.
const PAGE_SAMPLES = 61;

let testDatabase: TestDatabase;
let simulator: RunningSimulator;
let instances: RunningApp[] = [];
let app: RunningApp;
let integration: TestIntegration;

beforeAll(async () => {
  requiredEnv('DATABASE_URL');
  requiredEnv('REDIS_URL');
  simulator = await startSimulator({ port: 0, latencyMs: 0 });
  testDatabase = await useTestDatabase();
  // Two instances, as deployed: the per-IP limits are shared through Redis.
  instances = await Promise.all([0, 1].map(() => startApp({ env: twoInstanceEnv(testDatabase, simulator) })));
  app = instances[0]!;
  integration = await newIntegration(0, 0);
  // Created after the app started: the app hears of it a moment later (a 403 until then).
  await servedBy(instances, integration);
}, PROCESS_TEST_TIMEOUT_MS);

afterAll(async () => {
  await Promise.all(instances.map((instance) => instance.stop()));
  await simulator?.close();
  await testDatabase?.cleanup();
});

/** Each flooded in turn: the public pages and the signed-out sign-in pages (no cookie, no query). */
const FLOODED_PAGES = ['/docs', '/estado', '/admin/login', '/portal/ingresar', '/portal/ingresar/empresa', '/verificar?constancia=00000000-0000-4000-8000-000000000000'];

describe('a flood of the public pages and the sign-in pages', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('leaves a lookup beside it within twice its median time alone, on /docs, /estado, /admin/login, /portal/ingresar, /portal/ingresar/empresa and /verificar', async () => {
    await medianLookupMs(app, integration); // warm-up: the app's first answers compile and connect
    // Each page once before its crowd: an instance loads a page's code on its first visit (1.4 s
    // for /docs), once, which is not what a crowd of readers costs the lookups beside it.
    for (const [index, path] of FLOODED_PAGES.entries()) {
      const page = await fetch(`${app.baseUrl}${path}`, { headers: { 'x-forwarded-for': `2001:db9:${RUN}::${index + 1}` } });
      await page.arrayBuffer();
      expect(page.status, path).toBe(200);
    }
    const idleBefore = await medianLookupMs(app, integration);
    const results: Record<string, { median: number; statuses: Record<number, number> }> = {};
    for (const [index, path] of FLOODED_PAGES.entries()) {
      // Addresses of this page's crowd only: each address's per-IP allowance is its own.
      const running = crowd({ urls: [`${app.baseUrl}${path}`], connections: FLOOD_CONNECTIONS, addresses: { perConnection: `2001:${(0xdb0 + index).toString(16)}:${RUN}:` } });
      let median = Number.NaN;
      try {
        await new Promise((resolve) => setTimeout(resolve, CROWD_SETTLE_MS));
        // The lower of two medians, as the crowds test below keeps: the other processes on these
        // two cores only ever add time, and a crowd that starves the lookups fails both.
        median = Math.min(await medianLookupMs(app, integration), await medianLookupMs(app, integration));
      } finally {
        results[path] = { median, statuses: (await running.stop()).statuses };
      }
    }
    const idle = aloneAround(idleBefore, await medianLookupMs(app, integration));
    const printed = `lookup p50 idle ${idle.toFixed(1)} ms; ${Object.entries(results).map(([path, result]) => `${path}: ${result.median.toFixed(1)} ms (${JSON.stringify(result.statuses)})`).join('; ')}`;
    console.log(`[public pages] ${printed}`);
    for (const [path, result] of Object.entries(results)) {
      expect(result.statuses[200], `${path}; ${printed}`).toBeGreaterThan(FLOOD_CONNECTIONS);
      expect(result.median, `${path}; ${printed}`).toBeLessThanOrEqual(2 * idle);
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

  // Behind a reverse proxy (Caddy, nginx, an ingress) many clients share keep-alive connections.
  // A refused page paused its connection's next request for a second, which then landed on
  // whoever the proxy sent next on it: /admin/login went from 2 ms to 1,028 ms from another address
  // while one address flooded /docs (the sixth review). The pause is the client's. Caddy, from the
  // Caddyfile deploy/compose ships.
  it('behind the reverse proxy we ship, one address refused on /docs leaves another address\'s sign-in page as it was', async () => {
    const proxy = await startReverseProxy(instances.map((instance) => instance.baseUrl));
    // The reader's own address, new to this run (the proxy names the address each client connects from).
    const readerAddress = `127.${(Number.parseInt(RUN, 16) % 250) + 2}.${Math.floor(Math.random() * 250) + 1}.${Math.floor(Math.random() * 250) + 1}`;
    // Node's own client: it connects from the address given (undici's fetch does not take one).
    const reader = new http.Agent({ keepAlive: true });
    try {
      const signIn = () =>
        new Promise<void>((resolve, reject) => {
          http
            .get(`${proxy.url}/admin/login`, { agent: reader, localAddress: readerAddress }, (answer) => {
              let text = '';
              answer.on('data', (chunk: Buffer) => (text += chunk.toString()));
              answer.on('end', () => (answer.statusCode === 200 ? resolve() : reject(new Error(`${answer.statusCode}: ${text.slice(0, 200)}`))));
            })
            .on('error', reject);
        });
      // Within the pages' per-IP limit (60 a minute): 4 + 2 × 25 sign-in pages.
      await medianMs(4, signIn);
      const alone = await medianMs(25, signIn);
      // Every flooding connection reaches the proxy from 127.0.0.1: one client, as the proxy names it.
      const running = crowd({ urls: [`${proxy.url}/docs`], connections: FLOOD_CONNECTIONS, addresses: { all: `2001:db23:${RUN}::1` } });
      let flooded: number;
      let counts: CrowdCounts;
      try {
        await new Promise((resolve) => setTimeout(resolve, CROWD_SETTLE_MS));
        flooded = await medianMs(25, signIn);
      } finally {
        // Stopped even when a sign-in fails: a crowd left running loads the machine for whatever runs next.
        counts = await running.stop();
      }
      console.log(`[behind Caddy] /admin/login p50 alone ${alone.toFixed(1)} ms, while one address floods /docs ${flooded.toFixed(1)} ms (flood ${JSON.stringify(counts.statuses)})`);
      // The flood is refused past its per-IP limit (60 a minute, shared by both instances), so its
      // client is paused...
      expect(counts.statuses[200]).toBeLessThanOrEqual(60);
      expect(counts.statuses[429]).toBeGreaterThan(0);
      // ...and nobody else is: far from the second a refused client waits, on the same connections.
      expect(flooded).toBeLessThan(250);
    } finally {
      reader.destroy();
      await proxy.close();
    }
  });

  // Someone signing in while a crowd reads the public pages, on both instances: from addresses of
  // its own (100 and 1,200 connections, each its own address, as fast as they are answered), and
  // from one address (mostly refused by its per-IP limit). One paced turn for all of them, with the
  // limit checked inside it, kept /admin/login 2-3 s away under 100 connections and 29 s under 1,200.
  it('leaves the sign-in pages and a lookup within twice their time alone under crowds of 100 and 1,200 on /, /docs and /estado', async () => {
    const crowdUrls = instances.flatMap((instance) => ['/', '/docs', '/estado'].map((path) => `${instance.baseUrl}${path}`));
    let person = 0;
    /** A person's visit to a sign-in page, from an address of their own (signed out: the cached page). */
    const signInLoad = (path: string) => async () => {
      const instance = instances[person % instances.length]!;
      const answer = await fetch(`${instance.baseUrl}${path}`, { headers: { 'x-forwarded-for': `198.51.100.${(person++ % 250) + 1}` } });
      await answer.arrayBuffer();
      expect(answer.status, path).toBe(200);
    };
    const measure = async () => ({
      '/admin/login': await medianMs(PAGE_SAMPLES, signInLoad('/admin/login')),
      '/portal/ingresar': await medianMs(PAGE_SAMPLES, signInLoad('/portal/ingresar')),
      lookup: await medianLookupMs(app, integration),
    });
    // Under each crowd, two medians one after the other, the lower kept. The other processes on
    // these two cores only ever add time: the first crowd measured, whichever it was, slowed the
    // pages by up to 2.2x here, and once in CI took /admin/login from 1.3 to 2.9 ms. A crowd
    // that starves the sign-in pages (seconds, before their own turn) fails both medians.
    type Measured = Awaited<ReturnType<typeof measure>>;
    const lowerOf = (first: Measured, second: Measured): Measured => ({
      '/admin/login': Math.min(first['/admin/login'], second['/admin/login']),
      '/portal/ingresar': Math.min(first['/portal/ingresar'], second['/portal/ingresar']),
      lookup: Math.min(first.lookup, second.lookup),
    });
    // Warm-up of what the crowds read as well: each instance's first renders of /, /docs and
    // /estado (0.4 s for /docs, cold) fell inside the first crowd's measurement and doubled it.
    await (async () => {
      const warming = crowd({ urls: crowdUrls, connections: FLOOD_CONNECTIONS, addresses: { perConnection: `2001:db23:${RUN}:` } });
      await new Promise((resolve) => setTimeout(resolve, 2 * CROWD_SETTLE_MS));
      await warming.stop();
    })();
    await measure();
    const idleBefore = await measure();
    const crowds = [
      { name: '100 connections', connections: 100, addresses: { perConnection: `2001:db20:${RUN}:` } },
      { name: '1,200 connections', connections: 1_200, addresses: { perConnection: `2001:db21:${RUN}:` } },
      { name: '100 connections from one address', connections: 100, addresses: { all: `2001:db22:${RUN}::5` } },
    ];
    const results: Array<{ name: string; connections: number; loaded: Awaited<ReturnType<typeof measure>>; counts: CrowdCounts }> = [];
    for (const { name, connections, addresses } of crowds) {
      const running = crowd({ urls: crowdUrls, connections, addresses });
      await new Promise((resolve) => setTimeout(resolve, CROWD_SETTLE_MS));
      const loaded = lowerOf(await measure(), await measure());
      results.push({ name, connections, loaded, counts: await running.stop() });
    }
    const idleAfter = await measure();
    const idle = (what: keyof typeof idleAfter) => aloneAround(idleBefore[what], idleAfter[what]);
    console.log(`[public crowds] idle vs loaded p50: ${results.map(({ name, loaded, counts }) => `${name}: ${Object.entries(loaded).map(([what, ms]) => `${what} ${idle(what as keyof typeof loaded).toFixed(1)} -> ${ms.toFixed(1)} ms`).join(', ')} (crowd ${JSON.stringify(counts.statuses)})`).join('; ')}`);
    for (const { name, connections, loaded, counts } of results) {
      for (const [what, ms] of Object.entries(loaded)) expect(ms, `${name}: ${what}`).toBeLessThanOrEqual(2 * idle(what as keyof typeof loaded));
      expect(counts.answered, name).toBe(connections);
      expect(Object.keys(counts.statuses).filter((status) => status !== '200' && status !== '429'), name).toEqual([]);
    }
  });
});
