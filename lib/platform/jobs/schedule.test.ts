// A periodic job logs as itself: its name on every line, never the id of the request during which
// it happened to be scheduled (the app starts its jobs inside the warm-up request to /api/health).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { currentLogBindings, withLogBindings, type LogBindings } from '@/lib/platform/logging/context';
import { useTestDatabase, type TestDatabase } from '@/tests/support/test-database';
import { runAsJob } from './context';
import { schedulePeriodicJob, stopPeriodicJobs } from './schedule';

let testDatabase: TestDatabase;

beforeAll(async () => {
  testDatabase = await useTestDatabase();
});

afterAll(async () => {
  await stopPeriodicJobs();
  await testDatabase?.cleanup();
});

describe('the log context of background work', () => {
  it('gives a job scheduled during a request its own name and not the request id, on every run', async () => {
    const runs: LogBindings[] = [];
    // Kept, not thrown: thrown from a timer's run, an error escaped the test as an unhandled rejection.
    const failures: unknown[] = [];
    withLogBindings({ requestId: 'req_00112233445566778899', path: '/api/health' }, () =>
      schedulePeriodicJob({
        name: 'log-context-check',
        everyMs: 50,
        leaseMs: 60_000,
        run: async () => void runs.push(currentLogBindings()),
        onError: (error) => failures.push(error),
      }),
    );

    await vi.waitFor(() => expect(runs.length).toBeGreaterThanOrEqual(2), { timeout: 10_000, interval: 20 });
    await stopPeriodicJobs();
    expect(runs.slice(0, 2)).toEqual([{ job: 'log-context-check' }, { job: 'log-context-check' }]);
    expect(failures).toEqual([]);
  });

  it('keeps a timer started inside a request out of that request', async () => {
    const seen = await withLogBindings({ requestId: 'req_aabbccddeeff00112233' }, () =>
      runAsJob('timer-check', () => new Promise<LogBindings>((resolve) => setTimeout(() => resolve(currentLogBindings()), 1))),
    );

    expect(seen).toEqual({ job: 'timer-check' });
  });
});

describe('a job confined to some hours', () => {
  it('does not start outside them, and starts within them', async () => {
    const runs: string[] = [];
    const failures: unknown[] = [];
    const hour = (new Date().getUTCHours() - 6 + 24) % 24;
    // Two hours wide: the hour may turn while the test runs.
    const here = { from: hour, to: (hour + 2) % 24 || 24 };
    const elsewhere = { from: (hour + 3) % 24, to: (hour + 5) % 24 || 24 };
    for (const [name, hours] of [['daily-elsewhere', elsewhere], ['daily-here', here]] as const) {
      schedulePeriodicJob({ name, everyMs: 86_400_000, leaseMs: 60_000, hours, run: async () => void runs.push(name), onError: (error) => failures.push(error) });
    }

    await vi.waitFor(() => expect(runs).toContain('daily-here'), { timeout: 10_000, interval: 20 });
    await stopPeriodicJobs();
    expect(runs).toEqual(['daily-here']);
    expect(failures).toEqual([]);
  });
});
