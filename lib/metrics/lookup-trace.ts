// What one lookup did, collected while it runs (in the request's context, lib/http/request-context.ts): its
// outcome, how long each stage took, what the source said and how many statements it sent to the
// database. The route wrapper (lib/api/route.ts) turns it into metrics and one log line.
import { currentRequestContext } from '@/lib/http/request-context';
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

export function newLookupTrace(): LookupTrace {
  return { stagesMs: {}, databaseRoundTrips: 0 };
}

/** The trace of the lookup running now, if any (jobs and console pages have none). */
export function currentLookupTrace(): LookupTrace | undefined {
  return currentRequestContext()?.lookupTrace;
}

/** Runs one stage of the lookup and adds its duration to the trace. */
export async function timeStage<T>(stage: LookupStage, fn: () => Promise<T>): Promise<T> {
  const startedAt = performance.now();
  try {
    return await fn();
  } finally {
    const trace = currentLookupTrace();
    if (trace) trace.stagesMs[stage] = (trace.stagesMs[stage] ?? 0) + (performance.now() - startedAt);
  }
}

export function noteLookup(details: Partial<Pick<LookupTrace, 'outcome' | 'integration' | 'upstream'>>): void {
  const trace = currentLookupTrace();
  if (trace) Object.assign(trace, details);
}
