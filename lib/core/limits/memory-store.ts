import { logger } from '@/lib/platform/logging/logger';
import type { LimitWindow, RateLimitDecision, RateLimitStore, WindowUse } from './store';

/** A fixed window: it starts with its first request and resets `windowMs` later. */
interface FixedWindow {
  count: number;
  resetAtMs: number;
}

/**
 * A sliding window's two counters, as @upstash/ratelimit keeps them in Redis (one key per aligned
 * window): the requests allowed in window number `index` (it starts at `index × windowMs`) and in
 * the one before it. Every field is a small integer (V8 keeps it inline, no boxed number), so a
 * client costs no more than a fixed window's counter.
 */
interface SlidingWindow {
  index: number;
  windowMs: number;
  count: number;
  previousCount: number;
}

type Window = FixedWindow | SlidingWindow;

/** When a window no longer counts for anything and the sweep may drop it. */
function forgetAtMs(window: Window): number {
  // A sliding window still counts (weighted) through the whole window after it.
  return 'resetAtMs' in window ? window.resetAtMs : (window.index + 2) * window.windowMs;
}

/** How often a pass over the windows starts, dropping the expired ones. */
const SWEEP_EVERY_MS = 60_000;
/** Windows a pass looks at per request: the pass is spread over requests, never one long pause. */
const SWEEP_STEPS_PER_REQUEST = 32;
const FULL_WARNING_EVERY_MS = 60_000;
export const DEFAULT_MAX_KEYS = 200_000;

export interface MemoryStoreOptions {
  /** The most windows kept; past it the least recently used one is forgotten (its client starts over). */
  maxKeys?: number;
  now?: () => number;
}

/**
 * Fixed and sliding windows in process memory, with a hard bound on how many it keeps. The sliding
 * windows answer exactly as @upstash/ratelimit's slidingWindow does in Redis (same alignment, same
 * weighting and rounding, refused requests not counted), so an instance answers alike whether its
 * counters are here or in Redis (`lib/core/limits/window-semantics.test.ts` runs one table on both). Each request moves its
 * key to the most recently used end; beyond `maxKeys` the least recently used window is dropped.
 * Forgetting an idle client's window only gives it a fresh one, while refusing new keys would let
 * anyone with many addresses (an IPv6 range) lock every new client out: under such a flood the
 * per-IP limit gets leakier, the lookups stay available, and a warning says so.
 */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly windows = new Map<string, Window>();
  private readonly maxKeys: number;
  private readonly now: () => number;
  private sweep?: Iterator<[string, Window]>;
  // Kept between evictions: a fresh keys() iterator would step over every entry deleted from the
  // front since the Map last compacted, which makes each eviction cost up to the Map's size.
  private eviction?: Iterator<string>;
  private nextSweepAtMs = 0;
  private lastFullWarningAtMs = -Infinity;

  constructor(options: MemoryStoreOptions = {}) {
    this.maxKeys = options.maxKeys ?? DEFAULT_MAX_KEYS;
    this.now = options.now ?? Date.now;
  }

  /** How many windows are kept now. */
  get size(): number {
    return this.windows.size;
  }

  async ping(): Promise<void> {}

  async warmUp(): Promise<void> {}

  async consume(key: string, limit: number, windowMs: number, window: LimitWindow): Promise<RateLimitDecision> {
    const now = this.now();
    this.sweepSome(now);
    const found = this.windows.get(key);
    // Re-inserting keeps the map in order of last use, oldest first.
    if (found) this.windows.delete(key);
    const decision = window === 'sliding' ? this.consumeSliding(key, found as SlidingWindow | undefined, limit, windowMs, now) : this.consumeFixed(key, found as FixedWindow | undefined, limit, windowMs, now);
    if (this.windows.size > this.maxKeys) this.forgetLeastRecentlyUsed(now);
    return decision;
  }

  async peek(key: string, limit: number, windowMs: number, window: LimitWindow): Promise<WindowUse> {
    const now = this.now();
    // Read in place: a look neither counts as the key's use (its place in the eviction order) nor opens a window.
    const found = this.windows.get(key);
    if (!found) return { used: 0, resetAtMs: null };
    if (window === 'fixed') {
      const fixed = found as FixedWindow;
      return fixed.resetAtMs <= now ? { used: 0, resetAtMs: null } : { used: fixed.count, resetAtMs: fixed.resetAtMs };
    }
    const sliding = found as SlidingWindow;
    const index = Math.floor(now / windowMs);
    if (sliding.index < index - 1) return { used: 0, resetAtMs: null };
    // As consumeSliding weighs them: this window's count and the previous one's weighted share.
    const [count, previousCount] = sliding.index === index ? [sliding.count, sliding.previousCount] : [0, sliding.count];
    const used = Math.min(limit, count + Math.floor((1 - (now % windowMs) / windowMs) * previousCount));
    return { used, resetAtMs: (index + 1) * windowMs };
  }

  private consumeFixed(key: string, found: FixedWindow | undefined, limit: number, windowMs: number, now: number): RateLimitDecision {
    const window = !found || found.resetAtMs <= now ? { count: 0, resetAtMs: now + windowMs } : found;
    this.windows.set(key, window);
    // Refused requests are not counted: a client hammering past the limit does not extend it.
    if (window.count >= limit) return { allowed: false, remaining: 0, resetAtMs: window.resetAtMs };
    window.count++;
    return { allowed: true, remaining: limit - window.count, resetAtMs: window.resetAtMs };
  }

  /** @upstash/ratelimit's slidingWindow script, step by step (its Lua is quoted where it matters). */
  private consumeSliding(key: string, found: SlidingWindow | undefined, limit: number, windowMs: number, now: number): RateLimitDecision {
    const index = Math.floor(now / windowMs);
    let window = found;
    if (!window || window.index < index - 1) {
      window = { index, windowMs, count: 0, previousCount: 0 };
    } else if (window.index === index - 1) {
      window.previousCount = window.count;
      window.count = 0;
      window.index = index;
    }
    // (A clock that stepped back leaves the newer window counting: never a fresh quota.)
    this.windows.set(key, window);
    const resetAtMs = (window.index + 1) * windowMs;
    // percentageInCurrent = (now % window) / window; math.floor((1 - percentageInCurrent) * previous)
    const weightedPrevious = Math.floor((1 - (now % windowMs) / windowMs) * window.previousCount);
    // Refused requests are not counted (the script returns before INCRBY).
    if (weightedPrevious + window.count >= limit) return { allowed: false, remaining: 0, resetAtMs };
    window.count++;
    return { allowed: true, remaining: Math.max(0, limit - (window.count + weightedPrevious)), resetAtMs };
  }

  private forgetLeastRecentlyUsed(now: number): void {
    // Everything before the cursor was evicted or moved to the end by a later request, so the
    // cursor's next key is the least recently used one.
    let oldest = this.eviction?.next();
    if (!oldest || oldest.done) {
      this.eviction = this.windows.keys();
      oldest = this.eviction.next();
    }
    if (!oldest.done) this.windows.delete(oldest.value);
    if (now - this.lastFullWarningAtMs >= FULL_WARNING_EVERY_MS) {
      this.lastFullWarningAtMs = now;
      logger('limits').warn({ maxKeys: this.maxKeys }, 'in-memory limiter full: forgetting the least recently used windows (RATE_LIMIT_MEMORY_MAX_KEYS)');
    }
  }

  /** A few steps of the current pass over the windows; a new pass starts every SWEEP_EVERY_MS. */
  private sweepSome(now: number): void {
    if (!this.sweep) {
      if (now < this.nextSweepAtMs) return;
      this.sweep = this.windows.entries();
    }
    for (let step = 0; step < SWEEP_STEPS_PER_REQUEST; step++) {
      const next = this.sweep.next();
      if (next.done) {
        this.sweep = undefined;
        this.nextSweepAtMs = now + SWEEP_EVERY_MS;
        return;
      }
      const [key, window] = next.value;
      if (forgetAtMs(window) <= now) this.windows.delete(key);
    }
  }
}
