// A check shared by every caller for its interval: a flood of polls runs it once.
import { describe, expect, it } from 'vitest';
import { cachedCheck } from './cached-check';

describe('cachedCheck', () => {
  it('runs the check once for any number of callers within the interval, then again after it', async () => {
    let now = 5_000;
    let runs = 0;
    let finish: (value: string) => void = () => {};
    const check = () => {
      runs++;
      return new Promise<string>((resolve) => (finish = resolve));
    };

    const flood = Array.from({ length: 100 }, () => cachedCheck('test:flood', 1_000, check, () => now));
    finish('ok');
    expect(await Promise.all(flood)).toEqual(Array(100).fill('ok'));
    expect(runs).toBe(1);

    now += 999;
    await cachedCheck('test:flood', 1_000, check, () => now);
    expect(runs).toBe(1);
    now += 1;
    const again = cachedCheck('test:flood', 1_000, check, () => now);
    finish('failing');
    expect(await again).toBe('failing');
    expect(runs).toBe(2);
  });
});
