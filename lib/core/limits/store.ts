/** A limit check's answer; `resetAtMs` is when the current window ends. */
export interface RateLimitDecision {
  allowed: boolean;
  remaining: number;
  resetAtMs: number;
}

/** A window's use as peek reads it. */
export interface WindowUse {
  used: number;
  resetAtMs: number | null;
}

/**
 * How a limit counts (docs/decisions.md, "Limits"):
 * - `fixed`: a counter per window; it resets at the latest `windowMs` after the window's first
 *   request (the contract's wording for the per-minute limits).
 * - `sliding`: @upstash/ratelimit's sliding window: windows aligned to multiples of `windowMs`, and
 *   a request is allowed while this window's count plus the previous window's count, weighted by
 *   the share of the previous window still inside the last `windowMs`, stays under the limit. A
 *   burst across a window boundary cannot spend two windows' worth.
 */
export type LimitWindow = 'fixed' | 'sliding';

/**
 * Where limit counters live. The in-memory store is the default (one process); a shared store
 * (Redis) makes the limits hold across instances. Both answer alike for the same requests.
 */
export interface RateLimitStore {
  consume(key: string, limit: number, windowMs: number, window: LimitWindow): Promise<RateLimitDecision>;
  /**
   * What the current window of a key has spent, read without spending or creating anything (the
   * portal's Inicio shows it): `used` 0 and `resetAtMs` null when no window is open.
   */
  peek(key: string, limit: number, windowMs: number, window: LimitWindow): Promise<WindowUse>;
  /** Resolves when the store answers (readiness); rejects when it does not. */
  ping(): Promise<void>;
  /** Readies what the first checks would otherwise set up (a connection, the limiters' scripts). */
  warmUp(): Promise<void>;
}
