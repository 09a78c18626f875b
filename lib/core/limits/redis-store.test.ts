// The shared limiter when Redis hangs (it accepts a command and never answers): one check pays the
// timeout, then this instance's own counters decide at once for a cool-down, and one check at a
// time finds out whether Redis is back.
import { describe, expect, it, vi } from 'vitest';
import { MemoryRateLimitStore } from './memory-store';
import { RedisRateLimitStore, type RatelimitRedis } from './redis-store';

/** A Redis that takes scripts and never answers while `hung`, and counts what it was sent. */
function redisThatHangs() {
  const state = { hung: true, commands: 0 };
  const answer = () => {
    state.commands++;
    // @upstash/ratelimit's fixed window reads [count, ttl]; while hung, nothing comes back.
    return state.hung ? new Promise<never>(() => {}) : Promise.resolve([1, 60_000]);
  };
  const redis = { evalsha: answer, eval: answer, scriptLoad: async () => 'sha' } as unknown as RatelimitRedis;
  return { redis, state };
}

describe('the Redis limiter store with Redis hung', () => {
  it('waits for the timeout once, then decides from the local counters without asking Redis until the cool-down ends', async () => {
    const { redis, state } = redisThatHangs();
    const store = new RedisRateLimitStore(redis, new MemoryRateLimitStore(), 'test', 60_000);

    const first = await store.consume('client', 3, 60_000, 'fixed');
    const later = [];
    for (let i = 0; i < 20; i++) later.push(await store.consume('client', 3, 60_000, 'fixed'));

    expect(first.allowed).toBe(true);
    expect(state.commands).toBe(1);
    // The local counters hold the limit meanwhile: 3 allowed in all (the first included), the rest refused.
    expect(later.filter((decision) => decision.allowed)).toHaveLength(2);
  });

  it('probes Redis again after the cool-down, one check at a time, and uses it again once it answers', async () => {
    const { redis, state } = redisThatHangs();
    const store = new RedisRateLimitStore(redis, new MemoryRateLimitStore(), 'test', 100);

    await store.consume('client', 1_000, 60_000, 'fixed');
    expect(state.commands).toBe(1);
    state.hung = false;
    // Every check during the cool-down is answered locally; the first one after it asks Redis.
    await vi.waitFor(
      async () => {
        await store.consume('client', 1_000, 60_000, 'fixed');
        expect(state.commands).toBe(2);
      },
      { timeout: 5_000, interval: 20 },
    );
    await store.consume('client', 1_000, 60_000, 'fixed');
    expect(state.commands).toBe(3);
  });

  it('lets one check probe a Redis still hung after the cool-down while the others are answered locally', async () => {
    const { redis, state } = redisThatHangs();
    const store = new RedisRateLimitStore(redis, new MemoryRateLimitStore(), 'test', 50);

    await store.consume('client', 1_000, 60_000, 'fixed');
    await new Promise((resolve) => setTimeout(resolve, 60));
    const concurrent = await Promise.all(Array.from({ length: 10 }, () => store.consume('client', 1_000, 60_000, 'fixed')));

    expect(concurrent.every((decision) => decision.allowed)).toBe(true);
    expect(state.commands).toBe(2);
  });
});
