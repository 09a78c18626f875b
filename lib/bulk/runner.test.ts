// An idle bulk runner backs off (issue 35): the schedule of its sleeps, without a clock.
import { describe, expect, it } from 'vitest';
import { BULK_IDLE_MAX_MS, idleDelayMs } from './runner';

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
