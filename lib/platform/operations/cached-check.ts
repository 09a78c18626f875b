// A check that many callers may ask for at once (load balancers polling /api/health and
// /api/ready, however often and from however many places): its answer is shared for a while, so
// the database and the limiter store see one check per interval per instance, and a flood of
// polls costs next to nothing.
import { processSlot } from '@/lib/platform/runtime/process-state';

interface CachedCheck<T> {
  at: number;
  result: Promise<T>;
}

// One per process: every route's copy of this module shares one cache.
const checks = processSlot('cachedChecks', () => new Map<string, CachedCheck<unknown>>());

/**
 * The answer of `run`, shared by every caller for `ttlMs` from when it was started (a check still
 * running is shared too, never started twice). `run` must not reject: it answers what failed.
 */
export function cachedCheck<T>(name: string, ttlMs: number, run: () => Promise<T>, now: () => number = Date.now): Promise<T> {
  const cached = checks.get(name) as CachedCheck<T> | undefined;
  if (cached && now() - cached.at < ttlMs) return cached.result;
  const result = run();
  checks.set(name, { at: now(), result });
  return result;
}
