// Set by server.mjs when SIGTERM starts a graceful drain: a symbol on globalThis, shared by every
// bundle of the app and by the wrapper, which no client or environment variable can set.
import { SERVER_BRIDGES } from '@/lib/platform/runtime/server-bridges.mjs';
const DRAINING = SERVER_BRIDGES.draining;

export function isDraining(): boolean {
  return (globalThis as Record<symbol, unknown>)[DRAINING] === true;
}
