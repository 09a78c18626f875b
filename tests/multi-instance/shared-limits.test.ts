// Two app instances on one PostgreSQL and one Redis: limits, balance and configuration hold across
// both; with the in-memory store the limits are per instance (why production needs Redis).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { database } from '@/db/client';
import { balanceAndLedgerSum } from '@/lib/core/billing/ledger';
import { CATALOG_MESSAGES } from '@/lib/contract/messages';
import { setFlags } from '@/lib/flows/integration-management/service';
import { startSimulator, type RunningSimulator } from '@/simulator/index';
import { SHOWCASE_MEMBER } from '@/simulator/population';
import { startApp, type RunningApp } from '../support/app-server';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { countBy, newIntegration, postJson, servedBy, requiredEnv, TEST_ACTOR, sourceUrls, withinOneLimitMinute } from './support';
import { startTcpRelay } from './tcp-relay';

const OMISOS = '/api/catalogos/omisos';
const QUERY = { nit: SHOWCASE_MEMBER.nit };

let testDatabase: TestDatabase;
let simulator: RunningSimulator;
const apps: RunningApp[] = [];

function sourceEnv(): Record<string, string> {
  return {
    ...sourceUrls(simulator),
    // Every request of this suite comes from 127.0.0.1; the global limit is tested elsewhere.
    RATE_LIMIT_GLOBAL_MAX: '100000',
  };
}

async function startInstance(extraEnv: Record<string, string | undefined>): Promise<RunningApp> {
  const app = await startApp({ env: { ...testDatabase.env, ...sourceEnv(), ...extraEnv } });
  apps.push(app);
  return app;
}

function startPair(extraEnv: Record<string, string | undefined>): Promise<[RunningApp, RunningApp]> {
  return Promise.all([startInstance(extraEnv), startInstance(extraEnv)]);
}

beforeAll(async () => {
  requiredEnv('DATABASE_URL');
  testDatabase = await useTestDatabase();
  simulator = await startSimulator({ port: 0, latencyMs: 0 });
});

afterAll(async () => {
  await Promise.all(apps.map((app) => app.stop()));
  await simulator?.close();
  await testDatabase?.cleanup();
});

describe('two instances sharing PostgreSQL and Redis', () => {
  let pair: [RunningApp, RunningApp];

  beforeAll(async () => {
    pair = await startPair({ REDIS_URL: requiredEnv('REDIS_URL'), INTEGRATION_CACHE_REFRESH_MS: '2000' });
  });

  it('lets exactly 30 of 40 catalog lookups through the shared per-minute limit, spread over both', async () => {
    const integration = await newIntegration(1, 10_000);
    await servedBy(pair, integration);
    await withinOneLimitMinute(10_000);
    const answers = [];
    for (let index = 0; index < 40; index++) {
      answers.push(await postJson(`${pair[index % 2]!.baseUrl}${OMISOS}`, integration.headers, QUERY));
    }
    expect(countBy(answers, (answer) => answer.status)).toEqual({ 200: 30, 429: 10 });
    expect(answers.filter((answer) => answer.status === 429).map((answer) => answer.body)).toEqual(
      Array(10).fill({ message: CATALOG_MESSAGES.rateLimited }),
    );
  });

  it('turns a flag off for both instances within 5 seconds of the change', async () => {
    const integration = await newIntegration(1, 10_000);
    await servedBy(pair, integration);
    for (const app of pair) expect((await postJson(`${app.baseUrl}${OMISOS}`, integration.headers, QUERY)).status).toBe(200);

    const changed = await setFlags(TEST_ACTOR, integration.id, { isOmisosEnabled: false });
    expect(changed.ok).toBe(true);
    const changedAt = Date.now();
    const refusedAfterMs: number[] = [];
    for (const app of pair) {
      for (;;) {
        const answer = await postJson(`${app.baseUrl}${OMISOS}`, integration.headers, QUERY);
        if (answer.status === 403) {
          expect(answer.body).toEqual({ message: CATALOG_MESSAGES.catalogNotEnabled });
          refusedAfterMs.push(Date.now() - changedAt);
          break;
        }
        expect(answer.status).toBe(200);
        if (Date.now() - changedAt > 5_000) throw new Error(`${app.baseUrl} still answered 200 five seconds after the flag was turned off`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    expect(refusedAfterMs.every((elapsed) => elapsed <= 5_000)).toBe(true);
  });
});

describe('two instances sharing PostgreSQL, with the per-minute limit out of the way', () => {
  it('captures exactly 25 of 100 concurrent billed lookups against a balance for 25, across both', async () => {
    const pair = await startPair({ REDIS_URL: requiredEnv('REDIS_URL'), RATE_LIMIT_CATALOG_PER_MINUTE: '1000' });
    const tariff = 150;
    const integration = await newIntegration(tariff, 25 * tariff);
    await servedBy(pair, integration);
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, index) => postJson(`${pair[index % 2]!.baseUrl}${OMISOS}`, integration.headers, QUERY)),
    );
    expect(countBy(answers, (answer) => answer.status)).toEqual({ 200: 25, 402: 75 });

    expect(await balanceAndLedgerSum(integration.id)).toEqual({ balanceCentavos: 0, ledgerSumCentavos: 0 });
    const handle = await database();
    const [entries] = await handle.rows<{ captures: number; voids: number; records: number; charged: number }>(sql`
      select (select count(*)::int from ledger_entries where integration_id = ${integration.id} and kind = 'capture') as captures,
             (select count(*)::int from ledger_entries where integration_id = ${integration.id} and kind = 'void') as voids,
             (select count(*)::int from query_records where integration_id = ${integration.id} and lookup = 'omisos') as records,
             (select coalesce(sum(charged_centavos), 0)::int from query_records where integration_id = ${integration.id}) as charged`);
    expect(entries).toEqual({ captures: 25, voids: 0, records: 25, charged: 25 * tariff });
  });
});

describe('two instances with the in-memory store (no Redis)', () => {
  it('lets all 40 catalog lookups through: each instance counts only its own 20 (limits are per instance)', async () => {
    const pair = await startPair({ REDIS_URL: undefined });
    const integration = await newIntegration(1, 10_000);
    await servedBy(pair, integration);
    const answers = [];
    for (let index = 0; index < 40; index++) {
      answers.push(await postJson(`${pair[index % 2]!.baseUrl}${OMISOS}`, integration.headers, QUERY));
    }
    // The documented difference: without a shared store an integration gets 30 per minute per instance.
    expect(countBy(answers, (answer) => answer.status)).toEqual({ 200: 40 });
  });
});

describe('an instance whose Redis is unreachable', () => {
  it('still answers lookups, and its own in-memory limit applies meanwhile', async () => {
    const app = await startInstance({ REDIS_URL: 'redis://127.0.0.1:1' });
    const integration = await newIntegration(1, 10_000);
    await servedBy([app], integration);
    const answers = [];
    for (let index = 0; index < 31; index++) answers.push(await postJson(`${app.baseUrl}${OMISOS}`, integration.headers, QUERY));
    expect(countBy(answers, (answer) => answer.status)).toEqual({ 200: 30, 429: 1 });
    expect(app.logs()).toContain('Redis unavailable');
  });
});

describe('an instance whose Redis hangs', () => {
  it('pays the Redis timeout once, then decides limits from its own counters without waiting on Redis', async () => {
    // The relay passes nothing once cut, as a Redis stopped with SIGSTOP: connections stay open
    // and no command is answered.
    const redis = new URL(requiredEnv('REDIS_URL'));
    const relay = await startTcpRelay(redis.hostname, Number(redis.port || 6379));
    try {
      const throughRelay = new URL(redis);
      throughRelay.hostname = '127.0.0.1';
      throughRelay.port = String(relay.port);
      const app = await startInstance({ REDIS_URL: throughRelay.toString() });
      const integration = await newIntegration(1, 10_000);
      await servedBy([app], integration);
      expect((await postJson(`${app.baseUrl}${OMISOS}`, integration.headers, QUERY)).status).toBe(200);

      relay.cut();
      const answers = [];
      for (let index = 0; index < 10; index++) answers.push(await postJson(`${app.baseUrl}${OMISOS}`, integration.headers, QUERY));

      expect(countBy(answers, (answer) => answer.status)).toEqual({ 200: 10 });
      // Each lookup checks two limits (the client's address, the integration's route): 20 checks,
      // each of which used to be sent to the silent Redis and wait out its 500 ms. Now the first
      // failure starts a 5 s cool-down with the local counters (one probe per cool-down after it).
      const scriptsSent = relay.sentWhileCut().match(/\r\n(evalsha|eval)\r\n/gi)?.length ?? 0;
      expect(scriptsSent).toBeGreaterThanOrEqual(1);
      expect(scriptsSent).toBeLessThanOrEqual(3);
      expect(app.logs()).toContain('Redis unavailable');
    } finally {
      await relay.close();
    }
  });
});
