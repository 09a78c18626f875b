// What one lookup did, collected while it runs (in the request's context, lib/platform/http/request-context.ts): its
// outcome, how long each stage took, what the source said and how many statements it sent to the
// database. The route wrapper (lib/surfaces/api/route.ts) turns it into metrics and one log line.
import { currentRequestContext } from '@/lib/platform/http/request-context';
import type { LookupStage } from '@/lib/platform/metrics/registry';
import type { LookupTrace } from './lookup-trace-shape';

export type { LookupTrace };

export function newLookupTrace(): LookupTrace {
  return { stagesMs: {}, databaseRoundTrips: 0 };
}

/** The trace of the lookup running now, if any (jobs and console pages have none). */
export function currentLookupTrace(): LookupTrace | undefined {
  return currentRequestContext()?.lookupTrace;
}

/**
 * Runs one stage of the lookup and adds its duration to the trace. Not an async function: it
 * hands back the stage's own promise and observes it with one `then`, which spares each stage the
 * promises an async wrapper makes (each promise costs work in every AsyncLocalStorage, Next's
 * included).
 */
export function timeStage<T>(stage: LookupStage, fn: () => Promise<T>): Promise<T> {
  const trace = currentLookupTrace();
  if (!trace) return fn();
  const startedAt = performance.now();
  const record = () => {
    trace.stagesMs[stage] = (trace.stagesMs[stage] ?? 0) + (performance.now() - startedAt);
  };
  const running = fn();
  running.then(record, record);
  return running;
}

/**
 * Runs a stage that hands the lookup on to the stages behind it (through `inner`) and adds to the
 * trace only its own time, what it did before and after them: a stage that holds money while the
 * source answers is not charged the source's seconds.
 */
export function timeStageAround<T>(stage: LookupStage, fn: (inner: <U>(work: () => Promise<U>) => Promise<U>) => Promise<T>): Promise<T> {
  const trace = currentLookupTrace();
  if (!trace) return fn(runInner);
  const startedAt = performance.now();
  let innerMs = 0;
  const inner = <U>(work: () => Promise<U>): Promise<U> => {
    const began = performance.now();
    const done = () => {
      innerMs += performance.now() - began;
    };
    const running = work();
    running.then(done, done);
    return running;
  };
  const record = () => {
    trace.stagesMs[stage] = (trace.stagesMs[stage] ?? 0) + (performance.now() - startedAt - innerMs);
  };
  const running = fn(inner);
  running.then(record, record);
  return running;
}

const runInner = <U>(work: () => Promise<U>): Promise<U> => work();

export function noteLookup(details: Partial<Pick<LookupTrace, 'outcome' | 'integration' | 'integrationId' | 'upstream'>>): void {
  const trace = currentLookupTrace();
  if (trace) Object.assign(trace, details);
}
