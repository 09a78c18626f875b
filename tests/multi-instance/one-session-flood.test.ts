// One signed-in caller asking for its own pages as fast as it is answered must wait behind itself,
// not in front of everyone else. Two built instances on PostgreSQL and Redis: a billing user of one
// integration holds its Movimientos page over 50 keep-alive connections (spread over both
// instances, as a balancer would); another integration's owner on its portal pages and an
// administrator on the console's Integraciones must stay within twice their time alone, and so
// must a lookup. With one turn for every signed-in page, 3, 10 and 50 such connections took the
// administrator's page from 44 ms to 0.5 s, 1.1 s and 6.7 s.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '@/simulator/index';
import { startApp, type RunningApp } from '../support/app-server';
import type { ConsoleClient } from '../support/console-client';
import { addPortalMember, consoleSignedIn, newConsoleUser, portalSignedIn } from '../support/people';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';
import { CROWD_SETTLE_MS, crowd, medianMs, type CrowdCounts } from './crowd';
import { medianLookupMs, newIntegration, requiredEnv, servedBy, twoInstanceEnv, type TestIntegration } from './support';

const RUN = (Math.floor(Math.random() * 0xfff0) + 1).toString(16);
const FLOOD_CONNECTIONS = 50;
const PAGE_SAMPLES = 15;

let testDatabase: TestDatabase;
let simulator: RunningSimulator;
let instances: RunningApp[] = [];
let lookupIntegration: TestIntegration;
let flooder: string;
/** Who is measured: their page and their session's cookie. */
let measured: Array<{ who: string; path: string; cookie: string }> = [];

const cookieHeader = (client: ConsoleClient) => [...client.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
const member = (integration: TestIntegration) => ({ id: integration.id, nombre: integration.headers['x-integracion-login']!, token: integration.headers['x-integracion-token']! });

beforeAll(async () => {
  requiredEnv('DATABASE_URL');
  simulator = await startSimulator({ port: 0, latencyMs: 0 });
  testDatabase = await useTestDatabase();
  instances = await Promise.all([0, 1].map(() => startApp({ env: twoInstanceEnv(testDatabase, simulator) })));
  const flooding = await newIntegration(1, 10_000);
  const other = await newIntegration(1, 10_000);
  lookupIntegration = await newIntegration(0, 0);
  await addPortalMember(member(flooding), `pagos-${RUN}@example.com`, 'facturacion');
  await addPortalMember(member(other), `duena-${RUN}@example.com`, 'propietario');
  const admin = await newConsoleUser(`admin-${RUN}@example.com`, 'admin');
  flooder = cookieHeader(await portalSignedIn(instances[0]!.baseUrl, `pagos-${RUN}@example.com`));
  const owner = cookieHeader(await portalSignedIn(instances[0]!.baseUrl, `duena-${RUN}@example.com`));
  const administrator = cookieHeader(await consoleSignedIn(instances[0]!.baseUrl, admin));
  measured = [
    { who: 'another integration: Movimientos', path: '/portal/movimientos', cookie: owner },
    { who: 'another integration: Inicio', path: '/portal', cookie: owner },
    { who: 'console: Integraciones', path: '/admin/integraciones', cookie: administrator },
  ];
  await servedBy(instances, lookupIntegration);
}, PROCESS_TEST_TIMEOUT_MS * 2);

afterAll(async () => {
  await Promise.all(instances.map((app) => app.stop()));
  await simulator?.close();
  await testDatabase?.cleanup();
});

/** One page load by a person, alternating instances as a balancer would: the page must answer its reader. */
function pageLoad(path: string, cookie: string) {
  let turn = 0;
  return async () => {
    const app = instances[turn++ % instances.length]!;
    const answer = await fetch(`${app.baseUrl}${path}`, { headers: { cookie, 'x-forwarded-for': '192.0.2.44' }, redirect: 'manual' });
    await answer.arrayBuffer();
    expect(answer.status, path).toBe(200);
  };
}

describe('one portal session holding its Movimientos over 50 connections', { timeout: PROCESS_TEST_TIMEOUT_MS * 2 }, () => {
  it('leaves another integration\'s portal pages, the console and a lookup within twice their time alone, and is refused its excess at once', async () => {
    // Warm-up: each instance's first answers compile and connect.
    for (const { path, cookie } of measured) await medianMs(4, pageLoad(path, cookie));
    for (const app of instances) await medianLookupMs(app, lookupIntegration);
    const idle: Record<string, number> = {};
    for (const { who, path, cookie } of measured) idle[who] = await medianMs(PAGE_SAMPLES, pageLoad(path, cookie));
    const idleLookup = await medianLookupMs(instances[0]!, lookupIntegration);

    const flood = crowd({ urls: instances.map((app) => `${app.baseUrl}/portal/movimientos`), connections: FLOOD_CONNECTIONS, cookie: flooder, addresses: { all: `2001:db8:${RUN}::7` } });
    await new Promise((resolve) => setTimeout(resolve, CROWD_SETTLE_MS));
    // Under the flood, two medians one after the other, the lower kept (as public-pages-flood's
    // crowds test does): the other processes on these two cores only ever add time, and once in CI
    // took Inicio from 41 to 122 ms while Movimientos and the console stayed within 1.2x. A flood
    // that starves the other pages fails both medians.
    const loaded: Record<string, number> = {};
    let loadedLookup = Number.POSITIVE_INFINITY;
    let counts: CrowdCounts;
    try {
      for (let pass = 0; pass < 2; pass++) {
        for (const { who, path, cookie } of measured) loaded[who] = Math.min(loaded[who] ?? Number.POSITIVE_INFINITY, await medianMs(PAGE_SAMPLES, pageLoad(path, cookie)));
        loadedLookup = Math.min(loadedLookup, await medianLookupMs(instances[0]!, lookupIntegration));
      }
    } finally {
      counts = await flood.stop();
    }

    console.log(
      `[one session, ${FLOOD_CONNECTIONS} connections] idle vs loaded p50: ${[...Object.keys(idle).map((who) => `${who} ${idle[who]!.toFixed(1)} -> ${loaded[who]!.toFixed(1)} ms`), `lookup ${idleLookup.toFixed(1)} -> ${loadedLookup.toFixed(1)} ms`].join('; ')}; the session's own answers ${JSON.stringify(counts.statuses)}`,
    );
    for (const who of Object.keys(idle)) expect(loaded[who], who).toBeLessThanOrEqual(2 * idle[who]!);
    expect(loadedLookup).toBeLessThanOrEqual(2 * idleLookup);
    // The flooding session itself: its pages in its turn, the excess refused (not queued) in Spanish, with Retry-After.
    expect(Object.keys(counts.statuses).sort()).toEqual(['200', '429']);
    expect(counts.answered).toBe(FLOOD_CONNECTIONS);
    expect(counts.refusal).toEqual({ status: 429, retryAfter: '1', text: 'Esta sesión tiene demasiadas páginas pedidas a la vez. Espere un segundo y vuelva a cargar la página.' });
  });
});
