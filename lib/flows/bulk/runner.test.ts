// An idle bulk runner backs off (issue 35): the schedule of its sleeps, without a clock.
import { describe, expect, it } from 'vitest';
import { BULK_IDLE_MAX_MS, idleDelayMs, runnerSleepMs } from './runner';

function schedule(pollMs: number, passes: number): number[] {
  const delays: number[] = [];
  let delay: number | null = null;
  for (let pass = 0; pass < passes; pass++) {
    delay = idleDelayMs(delay, pollMs);
    delays.push(delay);
  }
  return delays;
}

describe('an idle bulk runner', () => {
  it('sleeps the poll interval, then twice as long each idle pass, up to 10 s', () => {
    expect(schedule(1_000, 7)).toEqual([1_000, 2_000, 4_000, 8_000, 10_000, 10_000, 10_000]);
    expect(BULK_IDLE_MAX_MS).toBe(10_000);
  });

  it('looks at the database 8 times in its first idle minute and 6 a minute after, not 60', () => {
    const delays = schedule(1_000, 20);
    let elapsed = 0;
    const passesInFirstMinute = delays.filter((delay) => (elapsed += delay) <= 60_000).length;
    expect(passesInFirstMinute).toBe(8);
    expect(60_000 / delays.at(-1)!).toBe(6);
  });

  it('never sleeps less than a poll interval set above the ceiling, nor more', () => {
    expect(schedule(30_000, 3)).toEqual([30_000, 30_000, 30_000]);
    expect(schedule(100, 9)).toEqual([100, 200, 400, 800, 1_600, 3_200, 6_400, 10_000, 10_000]);
  });
});

// A job bound by its share of the catalog limit waits for the share's window to end (pacing.ts's
// retryAtMs): the runner wakes then, not at the end of its idle back-off (issue 35's bench saw it
// restart 8.6 to 9.5 s late, some 430 items a minute of a share of 500).
describe('a runner with a job waiting for its share of the minute', () => {
  const now = 1_764_150_000_000;

  it('wakes when the window ends, however long its idle back-off has grown', () => {
    expect(runnerSleepMs(BULK_IDLE_MAX_MS, [now + 1_500], now)).toBe(1_500);
    expect(runnerSleepMs(8_000, [now + 30_000, now + 250, now + 4_000], now)).toBe(250);
  });

  it('looks again at once for a window that has already ended', () => {
    expect(runnerSleepMs(BULK_IDLE_MAX_MS, [now - 20], now)).toBe(0);
  });

  it('keeps the back-off when nothing waits, or the wait ends after it', () => {
    expect(runnerSleepMs(BULK_IDLE_MAX_MS, [], now)).toBe(BULK_IDLE_MAX_MS);
    expect(runnerSleepMs(2_000, [now + 45_000], now)).toBe(2_000);
  });
});
