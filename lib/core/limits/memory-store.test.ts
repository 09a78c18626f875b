import { describe, expect, it } from 'vitest';
import { MemoryRateLimitStore } from './memory-store';

/** A store on a clock the test moves by hand. */
function storeAt(startMs = 1_000_000) {
  const clock = { now: startMs };
  const store = new MemoryRateLimitStore({ now: () => clock.now, maxKeys: 1_000 });
  return {
    store,
    clock,
    at(offsetMs: number) {
      clock.now = startMs + offsetMs;
    },
  };
}

async function allowedCount(store: MemoryRateLimitStore, key: string, attempts: number, limit: number, windowMs: number) {
  let allowed = 0;
  for (let i = 0; i < attempts; i++) if ((await store.consume(key, limit, windowMs, 'fixed')).allowed) allowed++;
  return allowed;
}

describe('MemoryRateLimitStore (fixed window)', () => {
  it('allows exactly N requests in a window and refuses the rest', async () => {
    const { store } = storeAt();
    expect(await allowedCount(store, 'k', 100, 30, 60_000)).toBe(30);
  });

  it('counts down what remains and reports when the window resets', async () => {
    const { store, clock } = storeAt();
    const start = clock.now;
    const decisions = [];
    for (let i = 0; i < 4; i++) decisions.push(await store.consume('k', 3, 1_000, 'fixed'));
    expect(decisions.map((d) => [d.allowed, d.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
    expect(decisions.every((d) => d.resetAtMs === start + 1_000)).toBe(true);
  });

  it('resets windowMs after the first request, not after the last', async () => {
    const { store, at } = storeAt();
    at(250); // the window starts with this first request
    expect((await store.consume('k', 2, 1_000, 'fixed')).allowed).toBe(true);
    at(900);
    expect((await store.consume('k', 2, 1_000, 'fixed')).allowed).toBe(true);
    at(1_249);
    expect((await store.consume('k', 2, 1_000, 'fixed')).allowed).toBe(false);
    at(1_250);
    const fresh = await store.consume('k', 2, 1_000, 'fixed');
    expect(fresh).toMatchObject({ allowed: true, remaining: 1 });
  });

  it('does not let refused requests extend the window', async () => {
    const { store, at } = storeAt();
    await allowedCount(store, 'k', 3, 3, 1_000);
    for (let t = 100; t < 1_000; t += 100) {
      at(t);
      expect((await store.consume('k', 3, 1_000, 'fixed')).allowed).toBe(false);
    }
    at(1_000);
    expect(await allowedCount(store, 'k', 10, 3, 1_000)).toBe(3);
  });

  it('keeps separate counters per key', async () => {
    const { store } = storeAt();
    expect(await allowedCount(store, 'integration-a', 5, 2, 1_000)).toBe(2);
    expect(await allowedCount(store, 'integration-b', 5, 2, 1_000)).toBe(2);
  });

  it('sweeping expired windows keeps the live ones counting', async () => {
    const { store, at } = storeAt();
    await allowedCount(store, 'old', 1, 1, 1_000);
    at(30_000);
    await allowedCount(store, 'live', 1, 1, 120_000);
    at(61_000); // past the sweep interval: "old" expired long ago, "live" has not
    expect(await allowedCount(store, 'old', 2, 1, 1_000)).toBe(1);
    expect(await allowedCount(store, 'live', 2, 1, 120_000)).toBe(0);
  });
});

describe('MemoryRateLimitStore bound', () => {
  it('never keeps more than maxKeys windows, forgetting the least recently used first', async () => {
    const { store } = storeAt();
    await allowedCount(store, 'busy-integration', 3, 3, 60_000);
    for (let address = 0; address < 5_000; address++) {
      await store.consume(`global:10.0.${address >> 8}.${address & 255}`, 100, 900_000, 'sliding');
      // The busy key keeps being used, so it is never the least recently used one.
      if (address % 100 === 0) expect((await store.consume('busy-integration', 3, 60_000, 'fixed')).allowed).toBe(false);
      expect(store.size).toBeLessThanOrEqual(1_000);
    }
    expect(store.size).toBe(1_000);
    // The oldest addresses were forgotten: they start over; the newest still count.
    expect((await store.consume('global:10.0.0.0', 1, 900_000, 'sliding')).allowed).toBe(true);
    expect((await store.consume('global:10.0.19.135', 1, 900_000, 'sliding')).allowed).toBe(false);
  });
});
