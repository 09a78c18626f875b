// The lookups server.mjs answers itself, before Next's router (docs/decisions.md, "The lookups are
// answered before Next's router"). Each lookup route registers its answerer here when Next loads
// it (lib/surfaces/api/route.ts), so the answerer is the route's own code in the app's one module graph:
// the same credential cache, breakers, limiter, metrics and drain count as every other request.
// Until a route is loaded (its first request after a start), Next answers it.
import type { IncomingMessage } from 'node:http';
import type { LookupAnswer } from './responses';
import { SERVER_BRIDGES } from '@/lib/platform/runtime/server-bridges.mjs';
import { LOOKUP_PATHS } from '@/lib/vocabulary/lookups';

/** Answers a POST to a lookup's path from the request as Node received it; never throws. */
export type DirectLookup = (message: IncomingMessage) => Promise<LookupAnswer>;

// A symbol on globalThis: server.mjs is not part of the app's bundle, and reads it there.
const DIRECT_LOOKUPS = SERVER_BRIDGES.directLookups;

function directLookups(): Map<string, DirectLookup> {
  const global = globalThis as Record<symbol, Map<string, DirectLookup> | undefined>;
  return (global[DIRECT_LOOKUPS] ??= new Map());
}

/**
 * Tells server.mjs where the lookups are served, from the catalogue it does not import (it runs
 * outside the app's bundle): after the start it has Next load each one so it registers here.
 */
export function announceLookupPaths(): void {
  (globalThis as Record<symbol, readonly string[]>)[SERVER_BRIDGES.lookupPaths] = Object.freeze(Object.values(LOOKUP_PATHS));
}

/** Registers a lookup's answerer for its exact path (no query string, no trailing slash). */
export function registerDirectLookup(path: string, lookup: DirectLookup): void {
  directLookups().set(path, lookup);
}
