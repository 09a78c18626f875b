// The global limit's sliding window (issue 21, point 10), one table run against both stores: the
// in-memory one and Redis (a real redis-server started here, through the ioredis adapter production
// uses), so an instance answers alike wherever its counters live. The clock is moved by hand:
// the memory store's `now`, and Date for @upstash/ratelimit (it reads Date.now() itself). Nothing
// waits for time to pass.
import { Redis as IORedis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { freePort } from '@/scripts/free-port';
import { startThrowawayRedis, type ThrowawayRedis } from '@/scripts/throwaway-redis';
import { consumeGlobalLimit } from './limits';
import { MemoryRateLimitStore } from './memory-store';
import { SelfHostedRedisScripts } from './redis-script-adapter';
import { RedisRateLimitStore, type RatelimitRedis } from './redis-store';
import type { RateLimitDecision, RateLimitStore, WindowUse } from './store';

/** The contract's global limit: 100 per 15 minutes. */
const LIMIT = 100;
const WINDOW_MS = 15 * 60_000;
/** A window boundary (both stores align sliding windows to multiples of the window). */
const BOUNDARY = Math.floor(Date.UTC(2030, 0, 1) / WINDOW_MS) * WINDOW_MS;
const SECOND = 1_000;

/** A store and a way to set the time it sees. */
interface Subject {
  store: RateLimitStore;
  at(epochMs: number): void;
}

/** The Redis store must not quietly answer from its in-memory fallback here. */
class NoFallback extends MemoryRateLimitStore {
  override consume(): Promise<RateLimitDecision> {
    throw new Error('Redis did not answer: the in-memory fallback was asked');
  }

  override peek(): Promise<WindowUse> {
    throw new Error('Redis did not answer: the in-memory fallback was peeked at');
  }
}

let keys = 0;
/** A fresh client address per test: the Redis counters outlive a test. */
const newClient = () => `global:198.51.100.${++keys}-${process.pid}`;

async function attempts(subject: Subject, key: string, count: number): Promise<RateLimitDecision[]> {
  const decisions = [];
  for (let i = 0; i < count; i++) decisions.push(await subject.store.consume(key, LIMIT, WINDOW_MS, 'sliding'));
  return decisions;
}

async function allowedAt(subject: Subject, key: string, epochMs: number, count: number): Promise<number> {
  subject.at(epochMs);
  return (await attempts(subject, key, count)).filter((decision) => decision.allowed).length;
}

/** The table: every case runs on both stores with the same expectations. */
function slidingWindowCases(subject: () => Subject) {
  it('allows exactly the limit in a window, counts down what remains and reports the window end', async () => {
    const key = newClient();
    subject().at(BOUNDARY + 7 * SECOND);
    const decisions = await attempts(subject(), key, LIMIT + 20);
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(LIMIT);
    expect(decisions.slice(0, LIMIT).every((decision) => decision.allowed)).toBe(true);
    expect([decisions[0]!.remaining, decisions[LIMIT - 1]!.remaining, decisions[LIMIT]!.remaining]).toEqual([LIMIT - 1, 0, 0]);
    expect(new Set(decisions.map((decision) => decision.resetAtMs))).toEqual(new Set([BOUNDARY + WINDOW_MS]));
  });

  it("no double burst across a boundary: 100 spent before it leave 1 for the next 9.5 s, where fixed windows gave 100 more", async () => {
    const key = newClient();
    // One request opens the window (a fixed window in memory starts here), the rest 5 s before its end.
    expect(await allowedAt(subject(), key, BOUNDARY + SECOND, 1)).toBe(1);
    const beforeBoundary = await allowedAt(subject(), key, BOUNDARY + WINDOW_MS - 5 * SECOND, 150);
    const afterBoundary = await allowedAt(subject(), key, BOUNDARY + WINDOW_MS + 4.5 * SECOND, 150);
    // Fixed windows: 99 + 100 in 9.5 s. Sliding: the previous window still weighs 99.5 % of 100,
    // rounded down to 99 as @upstash/ratelimit does, so one request more (the tolerance).
    expect([beforeBoundary, afterBoundary]).toEqual([99, 1]);
  });

  it('the previous window weighs by the share of it still inside the last 15 minutes (rounded down)', async () => {
    const key = newClient();
    expect(await allowedAt(subject(), key, BOUNDARY + SECOND, LIMIT)).toBe(LIMIT);
    // Halfway through the next window: 50 of the previous 100 still count.
    expect(await allowedAt(subject(), key, BOUNDARY + WINDOW_MS * 1.5, LIMIT)).toBe(50);
    // Three quarters through: floor(25) + 50 count, 25 more fit.
    expect(await allowedAt(subject(), key, BOUNDARY + WINDOW_MS * 1.75, LIMIT)).toBe(25);
    // One second into the window after: floor(75 × 899/900) = 74 count.
    expect(await allowedAt(subject(), key, BOUNDARY + 2 * WINDOW_MS + SECOND, LIMIT)).toBe(26);
    // A window two back no longer counts.
    expect(await allowedAt(subject(), key, BOUNDARY + 4 * WINDOW_MS + SECOND, LIMIT + 1)).toBe(LIMIT);
  });

  it('refused requests are not counted: hammering past the limit does not push the next window back', async () => {
    const key = newClient();
    expect(await allowedAt(subject(), key, BOUNDARY + SECOND, LIMIT)).toBe(LIMIT);
    for (let minute = 1; minute < 15; minute += 3) expect(await allowedAt(subject(), key, BOUNDARY + minute * 60 * SECOND, 20)).toBe(0);
    expect(await allowedAt(subject(), key, BOUNDARY + WINDOW_MS * 1.5, LIMIT)).toBe(50);
  });

  it.each([
    // ceil(100 × y / 15 min) more requests within y after the boundary, for a client that spent
    // the whole limit just before it; fixed windows allowed 100 at once.
    { afterMs: 1, more: 1 },
    { afterMs: 4.5 * SECOND, more: 1 },
    { afterMs: 9 * SECOND + 1, more: 2 },
    { afterMs: 90 * SECOND, more: 10 },
    { afterMs: WINDOW_MS / 2, more: 50 },
  ])('the tolerance: 100 spent in the last second before a boundary leave $more within $afterMs ms after it', async ({ afterMs, more }) => {
    const key = newClient();
    expect(await allowedAt(subject(), key, BOUNDARY + WINDOW_MS - SECOND, LIMIT)).toBe(LIMIT);
    expect(await allowedAt(subject(), key, BOUNDARY + WINDOW_MS + afterMs, LIMIT)).toBe(more);
  });

  it('a client retrying every 5 s for an hour never gets more than 100 within any 15 minutes', async () => {
    const key = newClient();
    const allowedTimes: number[] = [];
    for (let t = BOUNDARY + 3 * SECOND; t < BOUNDARY + 4 * WINDOW_MS; t += 5 * SECOND) {
      subject().at(t);
      if ((await subject().store.consume(key, LIMIT, WINDOW_MS, 'sliding')).allowed) allowedTimes.push(t);
    }
    let most = 0;
    for (let first = 0, last = 0; last < allowedTimes.length; last++) {
      while (allowedTimes[last]! - allowedTimes[first]! >= WINDOW_MS) first++;
      most = Math.max(most, last - first + 1);
    }
    expect(most).toBeLessThanOrEqual(LIMIT);
    // Every window after the first lets the client go on at about the limit's pace.
    expect(allowedTimes.length).toBeGreaterThanOrEqual(3 * LIMIT);
  });

  it('keeps separate counters per client', async () => {
    const [first, second] = [newClient(), newClient()];
    expect(await allowedAt(subject(), first, BOUNDARY + SECOND, LIMIT + 1)).toBe(LIMIT);
    expect(await allowedAt(subject(), second, BOUNDARY + SECOND, LIMIT + 1)).toBe(LIMIT);
  });
}

const MINUTE_MS = 60_000;

/**
 * What the portal's Inicio reads of an integration's per-minute limit (a fixed window): the count
 * of the window open now, without spending from it or opening one.
 */
function peekCases(subject: () => Subject) {
  it('peeks at a per-minute window: what it spent, nothing spent by looking, nothing once it ended', async () => {
    const key = `minute:catalogs:${newClient()}`;
    subject().at(BOUNDARY + 5 * SECOND);
    expect(await subject().store.peek(key, 30, MINUTE_MS, 'fixed')).toEqual({ used: 0, resetAtMs: null });
    for (let i = 0; i < 3; i++) await subject().store.consume(key, 30, MINUTE_MS, 'fixed');
    subject().at(BOUNDARY + 20 * SECOND);
    for (let i = 0; i < 5; i++) expect((await subject().store.peek(key, 30, MINUTE_MS, 'fixed')).used).toBe(3);
    // Looking spent nothing: 27 more fit in the window.
    const decisions = [];
    for (let i = 0; i < 30; i++) decisions.push(await subject().store.consume(key, 30, MINUTE_MS, 'fixed'));
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(27);
    // Refusals are not counted: the window holds its limit.
    expect((await subject().store.peek(key, 30, MINUTE_MS, 'fixed')).used).toBe(30);
    subject().at(BOUNDARY + 2 * MINUTE_MS + 10 * SECOND);
    expect(await subject().store.peek(key, 30, MINUTE_MS, 'fixed')).toEqual({ used: 0, resetAtMs: null });
  });
}

describe('the sliding window in memory', () => {
  const clock = { now: BOUNDARY };
  const memory: Subject = {
    store: new MemoryRateLimitStore({ now: () => clock.now, maxKeys: 1_000 }),
    at: (epochMs) => {
      clock.now = epochMs;
    },
  };
  slidingWindowCases(() => memory);
  peekCases(() => memory);

  it('keeps a client through the window after its own (its count still weighs there), then forgets it', async () => {
    const store = new MemoryRateLimitStore({ now: () => clock.now, maxKeys: 1_000 });
    const subject: Subject = { store, at: memory.at };
    expect(await allowedAt(subject, 'global:a', BOUNDARY + SECOND, LIMIT)).toBe(LIMIT);
    // A request from another client a window later passes the sweep over "a": it still weighs.
    await allowedAt(subject, 'global:b', BOUNDARY + WINDOW_MS + 60 * SECOND, 1);
    expect(store.size).toBe(2);
    // Two windows later it no longer counts: the next sweep (a minute on) drops it.
    await allowedAt(subject, 'global:b', BOUNDARY + 2 * WINDOW_MS + 2 * 60 * SECOND, 1);
    expect(store.size).toBe(1);
  });
});

describe('the sliding window in Redis (@upstash/ratelimit over a real redis-server)', { timeout: 60_000 }, () => {
  let server: ThrowawayRedis;
  let client: IORedis;
  let redis: Subject;

  beforeAll(async () => {
    server = await startThrowawayRedis(await freePort());
    client = new IORedis(server.url, { maxRetriesPerRequest: 0 });
    const store = new RedisRateLimitStore(new SelfHostedRedisScripts(client) as unknown as RatelimitRedis, new NoFallback(), `test-${process.pid}`);
    redis = { store, at: (epochMs) => vi.setSystemTime(epochMs) };
  });

  beforeEach(() => {
    // Only Date: Redis' client and the limiter's timeout keep real timers.
    vi.useFakeTimers({ toFake: ['Date'] });
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  afterAll(async () => {
    client?.disconnect();
    await server?.stop();
  });

  slidingWindowCases(() => redis);
  peekCases(() => redis);

  it('keeps the key layout of the fixed windows it replaces, so both count one counter during a rolling deploy', async () => {
    const key = newClient();
    const fixed = new RedisRateLimitStore(new SelfHostedRedisScripts(client) as unknown as RatelimitRedis, new NoFallback(), `test-${process.pid}`);
    redis.at(BOUNDARY + SECOND);
    // An instance still on fixed windows spends 60 of the client's window...
    for (let i = 0; i < 60; i++) expect((await fixed.consume(key, LIMIT, WINDOW_MS, 'fixed')).allowed).toBe(true);
    // ...which one on sliding windows sees: 40 left, not a second 100.
    expect(await allowedAt(redis, key, BOUNDARY + 2 * SECOND, LIMIT)).toBe(40);
    expect(await client.keys(`test-${process.pid}:${LIMIT}:${WINDOW_MS}:${key}:*`)).toEqual([
      `test-${process.pid}:${LIMIT}:${WINDOW_MS}:${key}:${BOUNDARY / WINDOW_MS}`,
    ]);
  });
});

describe('the global per-IP limit counts in a sliding window', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('a client that spent its 100 just before a boundary gets 1 more in the 9.5 s around it, not 100', async () => {
    // No REDIS_URL in unit tests: the process's store is the in-memory one, on Date.now().
    const spend = async (epochMs: number, count: number) => {
      vi.setSystemTime(epochMs);
      let allowed = 0;
      for (let i = 0; i < count; i++) if (await consumeGlobalLimit('203.0.113.99')) allowed++;
      return allowed;
    };
    expect(await spend(BOUNDARY + SECOND, 1)).toBe(1);
    expect(await spend(BOUNDARY + WINDOW_MS - 5 * SECOND, 150)).toBe(99);
    expect(await spend(BOUNDARY + WINDOW_MS + 4.5 * SECOND, 150)).toBe(1);
  });
});
