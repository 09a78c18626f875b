// The in-memory limiter under an address flood: 1,000,000 distinct IPv6 clients (each a /64 of its
// own) on the global limit's sliding window, counted by the store itself, not over HTTP. Prints the
// memory the windows take and the longest time one request spent in the store (nothing else runs on
// the event loop meanwhile; garbage collection and the Map's growth included), while the windows
// fill up and while a sweep drops them once they expired. The figures are printed, not asserted
// (docs/performance.md quotes them); the bound is asserted.
import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { clientKey } from './client-ip';
import { DEFAULT_MAX_KEYS, MemoryRateLimitStore } from './memory-store';

const CLIENTS = 1_000_000;
const GLOBAL_WINDOW_MS = 15 * 60_000;

v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc') as () => void;

function heapUsedMiB(): number {
  collectGarbage();
  return process.memoryUsage().heapUsed / 2 ** 20;
}

/** The i-th client's key, exactly as the proxy makes it for 2001:db8:<high>:<low>::1 (a /64 each). */
function addressKey(index: number): string {
  return `global:2001:db8:${(index >>> 16).toString(16)}:${(index & 0xffff).toString(16)}::/64`;
}

/** One request from each of `count` new clients; the longest time one of them spent in the store. */
async function flood(store: MemoryRateLimitStore, count: number, firstClient: number): Promise<number> {
  let longestMs = 0;
  for (let index = 0; index < count; index++) {
    const before = performance.now();
    await store.consume(addressKey(firstClient + index), 100, GLOBAL_WINDOW_MS, 'sliding');
    longestMs = Math.max(longestMs, performance.now() - before);
  }
  return longestMs;
}

const ms = (value: number) => `${value.toFixed(1)} ms`;
const mib = (value: number) => `${value.toFixed(0)} MiB`;

describe('the in-memory limiter with 1,000,000 client addresses', () => {
  it('stays within its bound, and reports memory and the longest pause', { timeout: 300_000 }, async () => {
    expect(addressKey(0x12345)).toBe(`global:${clientKey('2001:db8:1:2345::1', 64)}`);
    const clock = { now: Date.now() };
    const now = () => clock.now;

    // The default bound: a flood of new clients cannot grow the store past it.
    let heapBefore = heapUsedMiB();
    const bounded = new MemoryRateLimitStore({ now });
    const boundedPause = await flood(bounded, CLIENTS, 0);
    const boundedHeap = heapUsedMiB() - heapBefore;
    expect(bounded.size).toBe(DEFAULT_MAX_KEYS);

    // A bound as large as the flood: every client keeps its window, then all expire and are swept
    // (a sliding window still weighs through the window after its own, so two windows later).
    heapBefore = heapUsedMiB();
    const large = new MemoryRateLimitStore({ now, maxKeys: CLIENTS });
    const fillingPause = await flood(large, CLIENTS, 0);
    const largeHeap = heapUsedMiB() - heapBefore;
    expect(large.size).toBe(CLIENTS);
    clock.now += 2 * GLOBAL_WINDOW_MS + 60_000;
    const sweepingPause = await flood(large, CLIENTS, CLIENTS);
    expect(large.size).toBeLessThanOrEqual(CLIENTS);

    console.log(
      [
        `\n[limits] in-memory store, ${CLIENTS.toLocaleString('en')} distinct IPv6 /64 clients, one request each:`,
        `  default bound (${DEFAULT_MAX_KEYS.toLocaleString('en')} windows): heap ${mib(boundedHeap)}, longest request ${ms(boundedPause)}`,
        `  bound of ${CLIENTS.toLocaleString('en')}: heap ${mib(largeHeap)} (${((largeHeap * 2 ** 20) / CLIENTS).toFixed(0)} bytes per client), longest request while filling ${ms(fillingPause)}`,
        `  all expired, swept while ${CLIENTS.toLocaleString('en')} new clients arrive: longest request ${ms(sweepingPause)}\n`,
      ].join('\n'),
    );
  });
});
