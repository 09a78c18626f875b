// What an instance keeps in memory between periodic writes (tokens' last use, refusal counts,
// the addresses an allow-list refused) would be lost when it exits, so a deployment would erase
// up to one interval of "último uso" and of the refusal counts support reads. The app registers
// each such write here at start; server.mjs runs them once the drain is over, just before exiting.
// A symbol on globalThis, not an import: server.mjs is plain JavaScript outside Next's bundles.
import { SERVER_BRIDGES } from '@/lib/platform/runtime/server-bridges.mjs';
const FLUSHES = SERVER_BRIDGES.flushBeforeExit;

type Flush = () => Promise<void>;

function registry(): Map<string, Flush> {
  const holder = globalThis as typeof globalThis & { [FLUSHES]?: Map<string, Flush> };
  return (holder[FLUSHES] ??= new Map());
}

/**
 * Runs `flush` when the instance exits after a drain (SIGTERM/SIGINT). Each write is one
 * statement; server.mjs bounds them all together so a database that is away cannot hold the exit.
 */
export function flushBeforeExit(name: string, flush: Flush): void {
  // A flush already under way covers only what was pending when it began: run it again after.
  registry().set(name, async () => {
    await flush();
    await flush();
  });
}
