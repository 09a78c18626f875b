import { Ratelimit } from '@upstash/ratelimit';
import { metrics } from '@/lib/platform/metrics/registry';
import { answerWithin } from '@/lib/platform/async/answer-within';
import { logger } from '@/lib/platform/logging/logger';
import type { MemoryRateLimitStore } from './memory-store';
import type { LimitWindow, RateLimitDecision, RateLimitStore, WindowUse } from './store';

/** What @upstash/ratelimit needs from a Redis client: @upstash/redis, or our self-hosted adapter. */
export type RatelimitRedis = ConstructorParameters<typeof Ratelimit>[0]['redis'];

/** How long a limit check may wait for Redis before the in-process fallback decides. */
const REDIS_TIMEOUT_MS = 500;
/**
 * After Redis fails a check, how long this instance's own counters decide without asking it: a
 * hung Redis (it accepts, never answers) would otherwise cost every lookup the whole timeout.
 * Then one check probes Redis again while the others keep using the local counters.
 */
const REDIS_COOLDOWN_MS = 5_000;
const FALLBACK_WARNING_EVERY_MS = 30_000;

/**
 * Limits shared by every instance through Redis, with @upstash/ratelimit's fixed windows (aligned
 * to multiples of the window, so a window resets at most `windowMs` after its first request) and
 * its sliding windows. Both keep one counter per aligned window under the same key,
 * `<prefix>:<limit>:<windowMs>:<key>:<window number>`, so instances counting a limit with fixed
 * windows and instances counting it with sliding ones (a rolling deploy) spend from the same
 * counters (docs/decisions.md, "Limits").
 *
 * When Redis cannot answer (down, unreachable, slower than REDIS_TIMEOUT_MS) the lookup is not
 * blocked: this instance's own in-memory counters decide instead, so limits still hold per
 * instance while Redis is away (docs/decisions.md, "Limits when Redis is unreachable").
 */
export class RedisRateLimitStore implements RateLimitStore {
  private readonly limiters = new Map<string, Ratelimit>();
  private lastWarningAt = 0;
  /** Until when the local counters decide without asking Redis (after a failure). */
  private coolingDownUntil = 0;
  private probing = false;

  constructor(
    private readonly redis: RatelimitRedis,
    private readonly fallback: MemoryRateLimitStore,
    private readonly prefix = 'gateway:limits',
    private readonly cooldownMs = REDIS_COOLDOWN_MS,
  ) {}

  async consume(key: string, limit: number, windowMs: number, window: LimitWindow): Promise<RateLimitDecision> {
    // While Redis is known to fail, and while one check is finding out whether it is back, the
    // others do not wait for it.
    if (this.probing || (this.coolingDownUntil > 0 && Date.now() < this.coolingDownUntil)) return this.useFallback(key, limit, windowMs, window);
    const probe = this.coolingDownUntil > 0;
    if (probe) this.probing = true;
    try {
      const result = await answerWithin(this.limiter(limit, windowMs, window).limit(key), REDIS_TIMEOUT_MS);
      this.coolingDownUntil = 0;
      return { allowed: result.success, remaining: result.remaining, resetAtMs: result.reset };
    } catch (error) {
      this.coolingDownUntil = Date.now() + this.cooldownMs;
      this.warn(error);
      return this.useFallback(key, limit, windowMs, window);
    } finally {
      if (probe) this.probing = false;
    }
  }

  /**
   * The shared window's use, as every instance counts it; while Redis is known to fail (or does not
   * answer now), this instance's own counters, which are then the ones deciding here.
   */
  async peek(key: string, limit: number, windowMs: number, window: LimitWindow): Promise<WindowUse> {
    if (this.probing || (this.coolingDownUntil > 0 && Date.now() < this.coolingDownUntil)) return this.fallback.peek(key, limit, windowMs, window);
    try {
      const { remaining, reset } = await answerWithin(this.limiter(limit, windowMs, window).getRemaining(key), REDIS_TIMEOUT_MS);
      const used = Math.max(0, limit - remaining);
      return { used, resetAtMs: used === 0 ? null : reset };
    } catch (error) {
      this.warn(error);
      return this.fallback.peek(key, limit, windowMs, window);
    }
  }

  private useFallback(key: string, limit: number, windowMs: number, window: LimitWindow): Promise<RateLimitDecision> {
    metrics().limiterFallbacks.inc();
    return this.fallback.consume(key, limit, windowMs, window);
  }

  /** A trivial script: the adapter and Upstash both run scripts, and nothing else is needed. */
  async ping(): Promise<void> {
    await (this.redis as unknown as { eval(script: string, keys: string[], args: unknown[]): Promise<unknown> }).eval('return 1', [], []);
  }

  /**
   * Runs each kind of window once on a throwaway key, so Redis and this instance already hold the
   * limiters' scripts when the first requests arrive: a fresh instance's first checks otherwise pay
   * a script load each, and one slower than REDIS_TIMEOUT_MS on a busy machine sent the instance to
   * its own counters, letting a shared limit through twice (CI: 34 of 40 under a limit of 30).
   */
  async warmUp(): Promise<void> {
    const key = `warm-up:${process.pid}:${Date.now()}`;
    await Promise.all((['fixed', 'sliding'] as const).map((window) => this.limiter(1, 1_000, window).limit(key)));
  }

  private limiter(limit: number, windowMs: number, window: LimitWindow): Ratelimit {
    const id = `${window}:${limit}:${windowMs}`;
    let limiter = this.limiters.get(id);
    if (!limiter) {
      const sliding = window === 'sliding';
      limiter = new Ratelimit({
        redis: this.redis,
        limiter: sliding ? Ratelimit.slidingWindow(limit, `${windowMs} ms`) : Ratelimit.fixedWindow(limit, `${windowMs} ms`),
        // Not the kind of window: the key layout stays what it was with fixed windows only.
        prefix: `${this.prefix}:${limit}:${windowMs}`,
        // Ours (answerWithin): Upstash's own timer fires before a reply that arrived while the event
        // loop was busy is read, and lets the request through besides.
        timeout: 0,
        analytics: false,
        // The limiter's cache of refused identifiers blocks one until its window's end. That is
        // exact for a fixed window; a sliding window frees room before then (the previous window's
        // weight shrinks), and this instance would refuse what Redis and the others allow.
        ...(sliding ? { ephemeralCache: false as const } : {}),
      });
      this.limiters.set(id, limiter);
    }
    return limiter;
  }

  private warn(error: unknown): void {
    const now = Date.now();
    if (now - this.lastWarningAt < FALLBACK_WARNING_EVERY_MS) return;
    this.lastWarningAt = now;
    logger('limits').warn({ err: error, retryInMs: this.cooldownMs }, "Redis unavailable; this instance's in-memory limits apply until it answers");
  }
}

