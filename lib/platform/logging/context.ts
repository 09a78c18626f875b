import { currentRequestContext, runWithRequestContext } from '@/lib/platform/http/request-context';

import type { LogBindings } from '@/lib/platform/http/request-context';
export type { LogBindings };

/**
 * Runs `fn` with `bindings` added to every log line written while it runs, however deep the call
 * (the request id of a lookup reaches the billing and the records code without being passed).
 */
export function withLogBindings<T>(bindings: LogBindings, fn: () => T): T {
  const outer = currentRequestContext();
  return runWithRequestContext({ ...outer, logBindings: { ...outer?.logBindings, ...bindings } }, fn);
}

const NO_BINDINGS: LogBindings = Object.freeze({});

export function currentLogBindings(): LogBindings {
  return currentRequestContext()?.logBindings ?? NO_BINDINGS;
}
