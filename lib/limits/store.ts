/** One fixed window: it starts with its first request and resets `windowMs` later. */
export interface RateLimitDecision {
  allowed: boolean;
  remaining: number;
  resetAtMs: number;
}

/**
 * Where limit counters live. The in-memory store is the default (one process); a shared store
 * (Redis) makes the limits hold across instances.
 */
export interface RateLimitStore {
  consume(key: string, limit: number, windowMs: number): Promise<RateLimitDecision>;
  /** Resolves when the store answers (readiness); rejects when it does not. */
  ping(): Promise<void>;
}
