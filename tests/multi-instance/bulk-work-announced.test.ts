// Scale-out for bulk jobs (issue 70, point 5): a job sent to one instance runs on every instance
// from its first second. Each runner LISTENs on BULK_WORK_CHANNEL (lib/flows/bulk/runner.ts); here
// both look for work on their own only once a minute (BULK_POLL_MS), so the instance the job was not
// sent to can have run its items only because it was told. Two built instances on PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPopulation, DEFAULT_SIMULATOR_SEED, startSimulator, type RunningSimulator } from '@/simulator/index';
import { startApp, type RunningApp } from '../support/app-server';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { newIntegration, requiredEnv, servedBy, twoInstanceEnv } from './support';

const ITEMS = 24;

let testDatabase: TestDatabase;
let simulator: RunningSimulator;
const apps: RunningApp[] = [];

beforeAll(async () => {
  requiredEnv('DATABASE_URL');
  testDatabase = await useTestDatabase();
  // A source that takes its time, as real ones do: the job lasts seconds, not milliseconds.
  simulator = await startSimulator({ port: 0, latencyMs: 250, onlineLatencyMs: 10, seed: DEFAULT_SIMULATOR_SEED });
  const env = twoInstanceEnv(testDatabase, simulator, {
    BULK_CONCURRENCY: '2',
    BULK_LIMIT_SHARE_PERCENT: '100',
    // Neither runner looks for work on its own within the test.
    BULK_POLL_MS: '60000',
    BULK_API_PER_MINUTE: '100000',
  });
  apps.push(...(await Promise.all([startApp({ env }), startApp({ env })])));
});

afterAll(async () => {
  await Promise.all(apps.map((app) => app.stop().catch(() => undefined)));
  await simulator?.close();
  await testDatabase?.cleanup();
});

/** The job's items each instance ran, from its own log ('bulk item' lines). */
function itemsRunBy(app: RunningApp, jobId: number): number {
  return app
    .logs()
    .split('\n')
    .filter((line) => line.includes('"msg":"bulk item"'))
    .filter((line) => (JSON.parse(line) as { bulkJob: number }).bulkJob === jobId).length;
}

describe('a bulk job sent to one of two instances', () => {
  it('runs on both from the start, though each looks for work on its own only once a minute', async () => {
    const integration = await newIntegration(1, 100_000);
    await servedBy(apps, integration);
    const [first, second] = apps as [RunningApp, RunningApp];
    // NITs of the simulator's people, each once (a repeated one is set aside, never run).
    const population = createPopulation({ seed: DEFAULT_SIMULATOR_SEED });
    const identifiers: string[] = [];
    for (let index = 0; identifiers.length < ITEMS; index++) {
      const nit = population.member(index).classicNit;
      if (nit) identifiers.push(nit);
    }
    const sent = await fetch(`${first.baseUrl}/api/lotes`, {
      method: 'POST',
      headers: { ...integration.headers, 'content-type': 'application/json', 'idempotency-key': 'anunciado' },
      body: JSON.stringify({ catalogo: 'cui-nit', identificadores: identifiers }),
    });
    expect(sent.status).toBe(202);
    const { id } = (await sent.json()) as { id: string };

    let state = '';
    for (const deadline = Date.now() + 30_000; state !== 'completado' && Date.now() < deadline; ) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      state = ((await (await fetch(`${first.baseUrl}/api/lotes/${id}`, { headers: integration.headers })).json()) as { estado: string }).estado;
    }
    expect(state).toBe('completado');

    // The log names the job by its row; both instances' lines for this job are the job's items.
    const jobIds = new Set(
      [first, second].flatMap((app) =>
        app
          .logs()
          .split('\n')
          .filter((line) => line.includes('"msg":"bulk item"'))
          .map((line) => (JSON.parse(line) as { bulkJob: number }).bulkJob),
      ),
    );
    expect(jobIds.size).toBe(1);
    const [jobId] = [...jobIds] as [number];
    const bySecond = itemsRunBy(second, jobId);
    expect(itemsRunBy(first, jobId) + bySecond).toBe(ITEMS);
    // Told at once, the other instance ran about half; left to its own look, none.
    expect(bySecond).toBeGreaterThanOrEqual(ITEMS / 4);
  });
});
