// What a request carries down its whole call tree without passing it along: the bindings of its
// log lines (lib/platform/logging/context.ts) and, for a lookup, its trace (lib/platform/http/lookup-trace.ts).
// One AsyncLocalStorage for both, not one per concern. On Node 20 every enabled storage did work
// for each promise a request created (async hooks; a lookup creates over a hundred). Node 24 runs
// AsyncLocalStorage on AsyncContextFrame (the start line says whether it is on): a promise
// costs nothing, and each `run()` copies the frame once, so one storage is still one copy per request.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { LookupTrace } from '@/lib/platform/http/lookup-trace-shape';
import { processSlot } from '@/lib/platform/runtime/process-state';

/** Fields added to every log line written in a context (lib/platform/logging/context.ts). */
export type LogBindings = Record<string, string | number | boolean>;

export interface RequestContext {
  logBindings: LogBindings;
  lookupTrace?: LookupTrace;
}

// One per process: every bundle's copy of this module must see the context set by whichever copy
// started the request.
const storage = processSlot('requestContext', () => new AsyncLocalStorage<RequestContext>());

/** Runs `fn` with `context` as the request's context (replacing any outer one). */
export function runWithRequestContext<T>(context: RequestContext, fn: () => T): T {
  return storage.run(context, fn);
}

export function currentRequestContext(): RequestContext | undefined {
  return storage.getStore();
}
