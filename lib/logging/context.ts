import { AsyncLocalStorage } from 'node:async_hooks';

export type LogBindings = Record<string, string | number | boolean>;

// On globalThis: Next bundles a module once per route and once for proxy.ts, and every copy must
// see the bindings set by whichever copy started the request.
const holder = globalThis as typeof globalThis & { __gatewayLogContext?: AsyncLocalStorage<LogBindings> };
const storage = (holder.__gatewayLogContext ??= new AsyncLocalStorage<LogBindings>());

/**
 * Runs `fn` with `bindings` added to every log line written while it runs, however deep the call
 * (the request id of a lookup reaches the billing and the records code without being passed).
 */
export function withLogBindings<T>(bindings: LogBindings, fn: () => T): T {
  return storage.run({ ...storage.getStore(), ...bindings }, fn);
}

export function currentLogBindings(): LogBindings {
  return storage.getStore() ?? {};
}
