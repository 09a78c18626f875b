import type { RateLimitDecision, RateLimitStore } from './store';

interface Window {
  count: number;
  resetAtMs: number;
}

const SWEEP_EVERY_MS = 60_000;

/** Fixed windows in process memory; expired windows are dropped so memory stays bounded. */
export class MemoryRateLimitStore implements RateLimitStore {
  private windows = new Map<string, Window>();
  private lastSweepMs = 0;

  constructor(private readonly now: () => number = Date.now) {}

  async consume(key: string, limit: number, windowMs: number): Promise<RateLimitDecision> {
    const now = this.now();
    this.sweep(now);
    let window = this.windows.get(key);
    if (!window || window.resetAtMs <= now) {
      window = { count: 0, resetAtMs: now + windowMs };
      this.windows.set(key, window);
    }
    // Refused requests are not counted: a client hammering past the limit does not extend it.
    if (window.count >= limit) return { allowed: false, remaining: 0, resetAtMs: window.resetAtMs };
    window.count++;
    return { allowed: true, remaining: limit - window.count, resetAtMs: window.resetAtMs };
  }

  private sweep(now: number): void {
    if (now - this.lastSweepMs < SWEEP_EVERY_MS) return;
    this.lastSweepMs = now;
    for (const [key, window] of this.windows) if (window.resetAtMs <= now) this.windows.delete(key);
  }
}
