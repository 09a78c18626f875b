// What one lookup did, collected while it runs (AsyncLocalStorage, like the log bindings): its
// outcome, how long each stage took, what the source said and how many statements it sent to the
// database. The route wrapper (lib/api/route.ts) turns it into metrics and one log line.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { LookupStage } from './registry';

export interface LookupTrace {
  /** success, a refusal reason, a source failure, or unhandled. */
  outcome?: string;
  integration?: string;
  stagesMs: Partial<Record<LookupStage, number>>;
  /** The source call's classified result (lib/sources/guard.ts). */
  upstream?: string;
  databaseRoundTrips: number;
}

const holder = globalThis as typeof globalThis & { __gatewayLookupTrace?: AsyncLocalStorage<LookupTrace> };
const storage = (holder.__gatewayLookupTrace ??= new AsyncLocalStorage<LookupTrace>());

export function newLookupTrace(): LookupTrace {
  return { stagesMs: {}, databaseRoundTrips: 0 };
}

export function withLookupTrace<T>(trace: LookupTrace, fn: () => T): T {
  return storage.run(trace, fn);
}

/** The trace of the lookup running now, if any (jobs and console pages have none). */
export function currentLookupTrace(): LookupTrace | undefined {
  return storage.getStore();
}

/** Runs one stage of the lookup and adds its duration to the trace. */
export async function timeStage<T>(stage: LookupStage, fn: () => Promise<T>): Promise<T> {
  const startedAt = performance.now();
  try {
    return await fn();
  } finally {
    const trace = storage.getStore();
    if (trace) trace.stagesMs[stage] = (trace.stagesMs[stage] ?? 0) + (performance.now() - startedAt);
  }
}

export function noteLookup(details: Partial<Pick<LookupTrace, 'outcome' | 'integration' | 'upstream'>>): void {
  const trace = storage.getStore();
  if (trace) Object.assign(trace, details);
}
