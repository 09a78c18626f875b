// How many lookups an instance runs at once, and how many may wait. A burst
// past what the instance can run used to go straight at the database pool and the sources'
// bulkheads: credentials read under a 2 s deadline, bulkheads full, 500s for valid clients. Now the
// lookups that passed their cheap checks (credentials from the in-memory copy, flag, limit, body)
// take a turn here before anything costly (a hold, a source call, a record): at most
// LOOKUP_CONCURRENCY run, the rest wait in arrival order, and only past LOOKUP_QUEUE_MAX waiting is
// the excess shed: answered "unavailable" at once, never charged, never recorded.
import pLimit, { type LimitFunction } from 'p-limit';
import { admissionSettings } from './settings';
import { currentLookupTrace } from '@/lib/platform/http/lookup-trace';
import { metrics } from '@/lib/platform/metrics/registry';
import { processSlot } from '@/lib/platform/runtime/process-state';

/** What a lookup gets when the queue is full: its route family answers "unavailable". */
export const SHED = Symbol('shed');

export class LookupAdmission {
  private readonly limit: LimitFunction;

  constructor(
    readonly concurrency: number,
    readonly maxWaiting: number,
  ) {
    this.limit = pLimit(concurrency);
  }

  /** Runs `work` in its turn (p-limit keeps the caller's async context), or SHED at once when `maxWaiting` already wait. */
  tryRun<T>(work: () => Promise<T>): Promise<T> | typeof SHED {
    if (this.limit.activeCount >= this.concurrency && this.limit.pendingCount >= this.maxWaiting) return SHED;
    return this.limit(work);
  }

  get running(): number {
    return this.limit.activeCount;
  }

  get waiting(): number {
    return this.limit.pendingCount;
  }
}

function createLookupAdmission(): LookupAdmission {
  const { LOOKUP_CONCURRENCY, LOOKUP_QUEUE_MAX } = admissionSettings();
  const admission = new LookupAdmission(LOOKUP_CONCURRENCY, LOOKUP_QUEUE_MAX);
  metrics().probes.lookupAdmission = () => ({ running: admission.running, waiting: admission.waiting });
  return admission;
}

function lookupAdmission(): LookupAdmission {
  return processSlot('lookupAdmission', createLookupAdmission);
}

/**
 * The costly part of a lookup, in its turn. The wait shows as the lookup's `queue` stage; a shed
 * lookup is counted in gateway_lookups_shed_total.
 */
export function inTurn<T>(lookup: string, work: () => Promise<T>): Promise<T | typeof SHED> {
  const trace = currentLookupTrace();
  const queuedAt = performance.now();
  const turn = lookupAdmission().tryRun(() => {
    if (trace) trace.stagesMs.queue = performance.now() - queuedAt;
    return work();
  });
  if (turn !== SHED) return turn;
  metrics().lookupsShed.inc({ lookup });
  return Promise.resolve(SHED);
}
