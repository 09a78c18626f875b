// Issue 14, point 6: /api/ready names the limiter store when Redis stops answering, while
// /api/health (liveness: the database only) stays 200 so the balancer keeps the instance; and
// readiness comes back by itself once Redis answers again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type RunningApp } from '../support/app-server';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { eventually } from '../conformance/harness';
import { requiredEnv } from './support';
import { startTcpRelay, type TcpRelay } from './tcp-relay';

interface Readiness {
  status: number;
  body: { status: string; failing: string[]; checks: { database: string; limiter: string } };
}

let testDatabase: TestDatabase;
let relay: TcpRelay;
let app: RunningApp;

beforeAll(async () => {
  requiredEnv('DATABASE_URL');
  testDatabase = await useTestDatabase();
  // The instance reaches Redis through a relay the test can cut, as a network partition or a
  // stopped Redis would; the suite's Redis itself stays up for the other files.
  const redis = new URL(requiredEnv('REDIS_URL'));
  relay = await startTcpRelay(redis.hostname, Number(redis.port || 6379));
  const throughRelay = new URL(redis);
  throughRelay.hostname = '127.0.0.1';
  throughRelay.port = String(relay.port);
  app = await startApp({ env: { ...testDatabase.env, REDIS_URL: throughRelay.toString() } });
});

afterAll(async () => {
  await app?.stop();
  await relay?.close();
  await testDatabase?.cleanup();
});

async function readiness(): Promise<Readiness> {
  const response = await fetch(`${app.baseUrl}/api/ready`);
  return { status: response.status, body: (await response.json()) as Readiness['body'] };
}

async function healthStatus(): Promise<number> {
  const response = await fetch(`${app.baseUrl}/api/health`);
  await response.arrayBuffer();
  return response.status;
}

describe('GET /api/ready with Redis as the limiter store', () => {
  it('is ready while Redis answers', async () => {
    expect(await readiness()).toEqual({ status: 200, body: expect.objectContaining({ status: 'ready', failing: [], checks: expect.objectContaining({ database: 'ok', limiter: 'ok' }) }) });
  });

  it('names the limiter as failing while Redis does not answer, and is ready again once it does', async () => {
    relay.cut();
    try {
      // Readiness shares one check of each store per second: the cut shows within that.
      const down = await eventually(readiness, (answer) => answer.status === 503, 5_000, 'not ready once Redis stops answering');
      expect(down.body).toMatchObject({ status: 'not_ready', failing: ['limiter'], checks: { database: 'ok', limiter: 'failing' } });
      expect(await healthStatus()).toBe(200);
    } finally {
      relay.restore();
    }
    await eventually(readiness, (answer) => answer.status === 200, 15_000, 'ready again after Redis came back');
  });

  it('answers a flood of polls from one check of Redis per second, not one per poll', async () => {
    await eventually(readiness, (answer) => answer.status === 200, 15_000, 'ready before the flood');
    const before = relay.sent().length;
    const startedAt = performance.now();
    const answers = await Promise.all(Array.from({ length: 200 }, () => readiness()));
    const elapsedSeconds = (performance.now() - startedAt) / 1000;

    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    // The limiter's readiness check is a one-line script; each poll used to send its own.
    const pings = relay.sent().slice(before).match(/return 1/g)?.length ?? 0;
    expect(pings).toBeLessThanOrEqual(Math.ceil(elapsedSeconds) + 1);
  });
});

