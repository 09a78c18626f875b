import { performance } from 'node:perf_hooks';
import v8 from 'node:v8';
import { logger } from '@/lib/platform/logging/logger';
import { peekProcessSlot, setProcessSlot } from './process-state';

// An instance that went quiet after a burst gives back the memory the burst grew its heap to.
// V8's own memory reducer does so a few seconds after the allocation falls, but only twice per full
// collection: an instance that spent them in an earlier lull kept the whole burst's heap, 275 MiB
// where it holds under 180 once collected (docs/performance.md, "An idle instance gives its memory
// back"). A regular full collection empties the heap but keeps its pages; V8's last-resort
// collection, the one a heap snapshot runs, returns them to the system.

/** How often the instance looks: a burst's memory is given back 5 to 10 s after it ends. */
export const LOOK_EVERY_MS = 5_000;
/** Quiet: the event loop busy at most this share of the last look's interval (periodic jobs and probes stay far below). */
export const QUIET_UTILIZATION = 0.05;
/** Worth a collection: the heap V8 holds grew by this much since the last one (or since the start). */
export const GROWN_BY_BYTES = 32 * 1_048_576;

export interface IdleCollectionProbes {
  /** The bytes V8's heap holds from the system (committed, used or not). */
  heapHeld(): number;
  /** The share of the time since the last call the event loop was busy, 0 to 1. */
  busyShare(): number;
  /** A full collection that gives the heap's free pages back. */
  collect(): Promise<void>;
}

/**
 * What the instance does at each look: collects when it is quiet and its heap grew by
 * GROWN_BY_BYTES since the last collection (or since the start), once, whatever the looks meanwhile.
 * Resolves to whether it collected.
 */
export function idleCollector(probes: IdleCollectionProbes): () => Promise<boolean> {
  let heldAfterLast = probes.heapHeld();
  let collecting = false;
  return async () => {
    const busy = probes.busyShare();
    const held = probes.heapHeld();
    // V8 gave some back on its own: what counts as grown starts from there.
    heldAfterLast = Math.min(heldAfterLast, held);
    if (collecting || busy > QUIET_UTILIZATION || held < heldAfterLast + GROWN_BY_BYTES) return false;
    collecting = true;
    try {
      await probes.collect();
    } finally {
      heldAfterLast = probes.heapHeld();
      collecting = false;
    }
    return true;
  };
}

/** V8's gc() with its options (node --expose-gc, in `npm start`); a promise when asynchronous. */
type ExposedCollection = (options: { type: 'major'; execution: 'async'; flavor: 'last-resort' }) => Promise<void>;

/**
 * Looks every LOOK_EVERY_MS. Only where node runs with --expose-gc (`npm start`, hence the image);
 * elsewhere (next dev, the tests' own processes) it does nothing and says so once.
 */
export function startIdleCollection(): void {
  if (peekProcessSlot('idleCollection')) return;
  const log = logger('runtime');
  const exposed = (globalThis as { gc?: ExposedCollection }).gc;
  if (typeof exposed !== 'function') {
    log.info('no full collection when idle: node was not started with --expose-gc (npm start is)');
    return;
  }
  let lastLook = performance.eventLoopUtilization();
  const look = idleCollector({
    heapHeld: () => v8.getHeapStatistics().total_heap_size,
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
  });
  const timer = setInterval(() => {
    look().catch((error: unknown) => log.warn({ err: error }, 'collecting while idle failed'));
  }, LOOK_EVERY_MS);
  timer.unref();
  setProcessSlot('idleCollection', timer);
}

const mib = (bytes: number) => Math.round(bytes / 1_048_576);
