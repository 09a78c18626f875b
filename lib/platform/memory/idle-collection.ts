import { performance } from 'node:perf_hooks';
import v8 from 'node:v8';
import { logger } from '@/lib/platform/logging/logger';
import { peekProcessSlot, setProcessSlot } from '@/lib/platform/runtime/process-state';
import { memorySettings } from './settings';

// An instance that stays quiet after a burst gives back the memory the burst grew its heap to.
// V8's own memory reducer waits for a low allocation rate, which it measures at collections: an
// instance that stops collecting keeps the burst's rate, and its heap, 275 MiB where it holds under
// 190 once collected (docs/performance.md, "An idle instance gives its memory back"). A regular full
// collection empties the heap but keeps its pages; V8's last-resort collection, the one a heap
// snapshot runs, returns them, and drops compiled code the next lookups compile again: hence a
// quiet minute first, not a lull between two bursts (a 5 s lull cost the next lookups 9 to 24 %
// more CPU).

/** How often the instance looks at its event loop and its memory. */
export const LOOK_EVERY_MS = 5_000;
/** Quiet: the event loop busy at most this share of a look's interval (periodic jobs and probes stay far below). */
export const QUIET_UTILIZATION = 0.05;
/**
 * Worth a collection: the instance's resident memory grew by this much since the last one (or since
 * the start). Not V8's heap size: a regular collection shrinks that and keeps the pages resident.
 */
export const GROWN_BY_BYTES = 32 * 1_048_576;

export interface IdleCollectionProbes {
  /** The instance's resident memory, in bytes. */
  resident(): number;
  /** The share of the time since the last call the event loop was busy, 0 to 1. */
  busyShare(): number;
  /** A full collection that gives the heap's free pages back. */
  collect(): Promise<void>;
}

/**
 * What the instance does at each look: collects once it has been quiet for `quietLooks` looks in a
 * row with its resident memory grown by GROWN_BY_BYTES since the last collection (or since the
 * start), once, whatever the looks meanwhile. Resolves to whether it collected.
 */
export function idleCollector(probes: IdleCollectionProbes, quietLooks: number): () => Promise<boolean> {
  let residentAfterLast = probes.resident();
  let quietInARow = 0;
  let collecting = false;
  return async () => {
    const busy = probes.busyShare();
    const resident = probes.resident();
    quietInARow = busy > QUIET_UTILIZATION ? 0 : quietInARow + 1;
    // V8 gave some back on its own: what counts as grown starts from there.
    residentAfterLast = Math.min(residentAfterLast, resident);
    if (collecting || quietInARow < quietLooks || resident < residentAfterLast + GROWN_BY_BYTES) return false;
    collecting = true;
    try {
      await probes.collect();
    } finally {
      residentAfterLast = probes.resident();
      collecting = false;
    }
    return true;
  };
}

/** V8's gc() with its options (node --expose-gc, in `npm start`); a promise when asynchronous. */
type ExposedCollection = (options: { type: 'major'; execution: 'async'; flavor: 'last-resort' }) => Promise<void>;

/**
 * Looks every LOOK_EVERY_MS, and collects after IDLE_COLLECTION_AFTER_SECONDS of quiet. Only where
 * node runs with --expose-gc (`npm start`, hence the image); elsewhere (next dev, the tests' own
 * processes) it does nothing and says so once.
 */
export function startIdleCollection(): void {
  if (peekProcessSlot('idleCollection')) return;
  const quietForMs = memorySettings().IDLE_COLLECTION_AFTER_SECONDS * 1000;
  if (quietForMs === 0) return;
  const log = logger('memory');
  const exposed = (globalThis as { gc?: ExposedCollection }).gc;
  if (typeof exposed !== 'function') {
    log.info('no full collection when idle: node was not started with --expose-gc (npm start is)');
    return;
  }
  let lastLook = performance.eventLoopUtilization();
  const look = idleCollector({
    resident: () => process.memoryUsage.rss(),
    busyShare: () => {
      const now = performance.eventLoopUtilization();
      const share = performance.eventLoopUtilization(now, lastLook).utilization;
      lastLook = now;
      return share;
    },
    collect: async () => {
      const before = { heapMiB: mib(v8.getHeapStatistics().total_heap_size), rssMiB: mib(process.memoryUsage.rss()) };
      const started = performance.now();
      await exposed({ type: 'major', execution: 'async', flavor: 'last-resort' });
      const after = { heapMiB: mib(v8.getHeapStatistics().total_heap_size), rssMiB: mib(process.memoryUsage.rss()) };
      log.info({ before, after, ms: Math.round(performance.now() - started) }, 'collected in full while idle: memory given back');
    },
  }, Math.max(1, Math.ceil(quietForMs / LOOK_EVERY_MS)));
  const timer = setInterval(() => {
    look().catch((error: unknown) => log.warn({ err: error }, 'collecting while idle failed'));
  }, LOOK_EVERY_MS);
  timer.unref();
  setProcessSlot('idleCollection', timer);
}

const mib = (bytes: number) => Math.round(bytes / 1_048_576);
