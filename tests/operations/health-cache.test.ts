// Issue 14, point 6: GET /api/health stays cheap however often load balancers poll: the database
// answer is reused for 1 s, so a burst of checks costs the database one query, and a check after
// the second asks it again. Counted by the app's own statement counter (/api/metrics).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type RunningApp } from '../support/app-server';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';
import { untilCountSettles } from '../conformance/harness';
import { sampleValue, scrapeMetrics } from './metrics-support';

const METRICS_TOKEN = 'metrics-token-for-the-health-test-0123';
const BURST = 40;

let testDb: TestDatabase;
let app: RunningApp;

beforeAll(async () => {
  testDb = await useTestDatabase();
  app = await startApp({
    env: {
      METRICS_TOKEN,
      // Background work that would query the database during the measurement, out of the way.
      ROLLUP_INTERVAL_MS: '600000',
      HOLD_SWEEP_INTERVAL_SECONDS: '600',
      INTEGRATION_CACHE_REFRESH_MS: '10000',
      // The bulk jobs' runner asks for items every BULK_POLL_MS (lib/flows/bulk/runner.ts).
      BULK_POLL_MS: '600000',
    },
  });
}, PROCESS_TEST_TIMEOUT_MS);

afterAll(async () => {
  await app?.stop();
  await testDb?.cleanup();
});

async function statementsSent(): Promise<number> {
  return sampleValue((await scrapeMetrics(app.baseUrl, METRICS_TOKEN)).samples, 'gateway_database_round_trips_total');
}

/**
 * The fewest statements `measure` was seen to cost in `tries` runs. The app's own periodic work
 * (leases, pollers) may add statements to a window, never take any away: on a busy machine, where
 * a window lasts seconds, one clean window is the measurement.
 */
async function fewestStatements(measure: () => Promise<void>, tries = 4): Promise<number> {
  let fewest = Infinity;
  for (let attempt = 0; attempt < tries && fewest > 1; attempt++) {
    // Let the last cached answer expire, so each run starts with a fresh check.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const before = await statementsSent();
    await measure();
    fewest = Math.min(fewest, (await statementsSent()) - before);
  }
  return fewest;
}

async function health(): Promise<number> {
  const response = await fetch(`${app.baseUrl}/api/health`);
  await response.arrayBuffer();
  return response.status;
}

describe('GET /api/health', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('asks the database once for a burst of checks within a second, and again after it', async () => {
    // The start's own work (its jobs' first runs) has finished when the count stands still.
    await untilCountSettles(statementsSent, 'the statement count settles after the start');
    let elapsedMs = 0;
    const duringBurst = await fewestStatements(async () => {
      const startedAt = Date.now();
      const statuses = await Promise.all(Array.from({ length: BURST }, () => health()));
      elapsedMs = Date.now() - startedAt;
      expect(statuses.every((status) => status === 200)).toBe(true);
    });
    // One check per started second of the burst (on a quiet machine it takes well under one).
    expect(duringBurst).toBeGreaterThanOrEqual(1);
    expect(duringBurst).toBeLessThanOrEqual(Math.max(1, Math.ceil(elapsedMs / 1_000)));
    expect(elapsedMs, 'the burst must be much shorter than its size in seconds for this test to mean anything').toBeLessThan(BURST * 100);

    const later = await fewestStatements(async () => {
      expect(await health()).toBe(200);
    });
    expect(later).toBe(1);
  });
});
