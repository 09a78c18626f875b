// Two instances on one PostgreSQL: starting together on an empty database, and how fast a
// deactivated or rotated credential stops working on each, also on an instance cut off from the
// database.
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closeDatabase, database } from '@/db/client';
import { TRUSTED_FOR_INTERVALS } from '@/lib/integrations/directory';
import { rotateToken, setActive } from '@/lib/integrations/service';
import { startSimulator, type RunningSimulator } from '@/simulator/index';
import { SHOWCASE_MEMBER } from '@/simulator/population';
import { startApp, type RunningApp } from '../support/app-server';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { newIntegration, postJson, requiredEnv, TEST_ACTOR } from './support';
import { startTcpRelay, type TcpRelay } from './tcp-relay';

const RENAP = '/api/renap/buscar-cui';
const REFRESH_MS = 500;
/** The documented bound: an instance stops trusting its copy of the credentials after this. */
const BOUND_MS = TRUSTED_FOR_INTERVALS * REFRESH_MS;

let testDatabase: TestDatabase;
let simulator: RunningSimulator;
let upstreamCalls = 0;
const apps: RunningApp[] = [];

beforeAll(async () => {
  requiredEnv('DATABASE_URL');
  simulator = await startSimulator({ port: 0, latencyMs: 0, log: () => upstreamCalls++ });
});

afterAll(async () => {
  await simulator?.close();
});

function instanceEnv(extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return {
    ...testDatabase.env,
    RENAP_BASE_URL: `${simulator.url}/renap`,
    RTU_BASE_URL: `${simulator.url}/rtu`,
    CATALOG_BASE_URL: `${simulator.url}/catalog`,
    RATE_LIMIT_GLOBAL_MAX: '100000',
    INTEGRATION_CACHE_REFRESH_MS: String(REFRESH_MS),
    ...extra,
  };
}

describe('two instances starting at once on an empty database', () => {
  beforeAll(async () => {
    testDatabase = await useTestDatabase();
  });
  afterAll(async () => {
    await Promise.all(apps.splice(0).map((app) => app.stop()));
    await testDatabase?.cleanup();
  });

  it('both come up, and the development seed runs once', async () => {
    // A fresh database with nothing in it: not even the migrations (both instances run them).
    const emptyUrl = new URL(testDatabase.env.DATABASE_URL!);
    emptyUrl.pathname = `${emptyUrl.pathname}_empty`;
    await (await database()).rows(sql.raw(`create database "${emptyUrl.pathname.slice(1)}"`));
    try {
      const pair = await Promise.all([0, 1].map(() => startApp({ seed: true, env: instanceEnv({ DATABASE_URL: emptyUrl.toString() }) })));
      apps.push(...pair);
      const seededBanners = pair.filter((app) => /x-integracion-token: tlk_/.test(app.logs()));
      expect(seededBanners).toHaveLength(1);
      for (const app of pair) {
        const health = await fetch(`${app.baseUrl}/api/health`);
        expect(health.status).toBe(200);
        await health.arrayBuffer();
      }
      await Promise.all(apps.splice(0).map((app) => app.stop()));
    } finally {
      await closeDatabase();
      await (await database()).rows(sql.raw(`drop database if exists "${emptyUrl.pathname.slice(1)}" with (force)`));
    }
  });
});

describe('a deactivated or rotated credential', () => {
  let relay: TcpRelay;
  let direct: RunningApp;
  let cutOff: RunningApp;

  beforeAll(async () => {
    testDatabase = await useTestDatabase();
    const target = new URL(testDatabase.env.DATABASE_URL!);
    relay = await startTcpRelay(target.hostname, Number(target.port));
    const throughRelay = new URL(target);
    throughRelay.port = String(relay.port);
    [direct, cutOff] = await Promise.all([startApp({ env: instanceEnv() }), startApp({ env: instanceEnv({ DATABASE_URL: throughRelay.toString() }) })]);
    apps.push(direct, cutOff);
  });

  afterEach(() => relay.restore());

  afterAll(async () => {
    await Promise.all(apps.splice(0).map((app) => app.stop()));
    await relay?.close();
    await testDatabase?.cleanup();
  });

  async function lookup(app: RunningApp, headers: Record<string, string>) {
    return postJson(`${app.baseUrl}${RENAP}`, headers, { cui: SHOWCASE_MEMBER.cui });
  }

  /**
   * Polls until the instance refuses the credentials; how long that took after `since`. While it
   * reconnects to the database a lookup may fail (500), but never succeed.
   */
  async function refusedAfter(app: RunningApp, headers: Record<string, string>, since: number, allowed = [200]): Promise<number> {
    for (;;) {
      const answer = await lookup(app, headers);
      if (answer.status === 403) return Date.now() - since;
      expect(allowed).toContain(answer.status);
      if (Date.now() - since > 10 * BOUND_MS) throw new Error(`${app.baseUrl} still accepts the credentials`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('is refused by both instances within the bound, and never reaches the registry from the cut-off one', async () => {
    const integration = await newIntegration(0, 0);
    for (const app of [direct, cutOff]) expect((await lookup(app, integration.headers)).status).toBe(200);

    relay.cut();
    const cutAt = Date.now();
    expect((await setActive(TEST_ACTOR, integration.id, false)).ok).toBe(true);
    expect(await refusedAfter(direct, integration.headers, cutAt)).toBeLessThanOrEqual(BOUND_MS);

    // The cut-off instance cannot reload: once its copy is older than the bound, it asks the
    // database for each lookup, gets no answer, and fails the lookup without calling the registry.
    await new Promise((resolve) => setTimeout(resolve, BOUND_MS - (Date.now() - cutAt) + 100));
    const callsBefore = upstreamCalls;
    const answer = await lookup(cutOff, integration.headers);
    expect(answer).toEqual({ status: 500, body: { error: expect.any(String) } });
    expect(upstreamCalls).toBe(callsBefore);

    relay.restore();
    await refusedAfter(cutOff, integration.headers, Date.now(), [500]);
  });

  it('a rotated token: the old one is refused everywhere within the bound, the new one works at once', async () => {
    const integration = await newIntegration(0, 0);
    for (const app of [direct, cutOff]) expect((await lookup(app, integration.headers)).status).toBe(200);
    const rotated = await rotateToken(TEST_ACTOR, integration.id);
    if (!rotated.ok) throw new Error(rotated.error.message);
    const rotatedAt = Date.now();
    const newHeaders = { ...integration.headers, 'x-integracion-token': rotated.value.token };
    for (const app of [direct, cutOff]) expect((await lookup(app, newHeaders)).status).toBe(200);
    for (const app of [direct, cutOff]) expect(await refusedAfter(app, integration.headers, rotatedAt)).toBeLessThanOrEqual(BOUND_MS);
  });
});
