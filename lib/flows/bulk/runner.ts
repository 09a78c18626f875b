// The runner every instance starts (lib/root/startup.ts): it claims items of running bulk jobs from the
// database while it has room (BULK_CONCURRENCY) and runs each as a catalog lookup through the same
// pipeline as a single request (lib/flows/lookups/catalog.ts). Nothing about a job lives in one instance's
// memory: an instance that dies leaves leases that expire, and any instance takes the items again.
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { database } from '@/db/client';
import { balanceSettings, type BalanceSettings } from '@/lib/core/billing/settings';
import { bulkSettings } from './settings';
import { newRequestId } from '@/lib/platform/http/request-id';
import { runAsJob } from '@/lib/platform/jobs/context';
import { logger } from '@/lib/platform/logging/logger';
import { isDraining } from '@/lib/platform/operations/draining';
import { runWithRequestContext } from '@/lib/platform/http/request-context';
import { newLookupTrace } from '@/lib/platform/http/lookup-trace';
import { catalogOutcomeStatus, lookupOutcomeName, runAuthenticatedCatalogLookup, type CatalogOutcome } from '@/lib/flows/lookups/catalog';
import { open } from '@/lib/core/sealing/envelope';
import { fieldFor } from './identifiers';
import { claimItems, completeFinishedJobs, itemSettlement, pauseForBalance, putBack, renewClaim, resumePausedJobs, setAside, type ClaimedItem } from './items';
import { ItemReceipt } from './item-receipt';
import { tellOverdueJobChanges } from './notices';
import { spendBulkShare } from './pacing';
import { peekProcessSlot, processSlot, setProcessSlot } from '@/lib/platform/runtime/process-state';

const log = logger('bulk');

/** How long an item that must wait (limit spent, source not reachable, flag off) stays put back. */
const WAIT_MS = 5_000;

/**
 * How long a claim holds an item. Longer than any live lookup can take (the hold sweeper's delay
 * is already past the source's ceiling; twice that covers a wait for a turn too), so an item is
 * taken again only from an instance that is gone, never from one still running it.
 */
export function itemLeaseSeconds(settings: Pick<BalanceSettings, 'HOLD_SWEEP_AFTER_SECONDS'> = balanceSettings()): number {
  return 2 * settings.HOLD_SWEEP_AFTER_SECONDS;
}

/** What became of one claimed item; `waiting` says until when its integration's items should wait. */
export type ItemRun = { kind: 'answered' | 'paused' | 'set_aside' | 'lost' } | { kind: 'waiting'; untilMs: number };

/** Runs one claimed item to its answer, or puts it back to wait. */
export async function runItem(item: ClaimedItem): Promise<ItemRun> {
  if (!item.integration) return wait(item, Date.now() + WAIT_MS);
  const share = await spendBulkShare(item.integration.nombre);
  if (!share.allowed) return wait(item, share.retryAtMs);
  const identifier = open(item.identifierSealed, 'bulk_identifier');
  const target = fieldFor(item.catalog, identifier);
  if ('reason' in target) {
    // Checked at submission; only a change of rules in between could bring one here.
    await setAside(item, target.reason);
    return { kind: 'set_aside' };
  }
  const requestId = newRequestId();
  const integration = item.integration;
  let settledWithItem = false;
  // Its own request id on every line it logs, and one line at its end, as a request's lookup has
  // (lib/surfaces/api/route.ts): operators see job items beside single lookups, never their identifiers.
  const trace = newLookupTrace();
  const startedAt = performance.now();
  const body = { [target.field]: identifier };
  const receipt = item.constancias ? new ItemReceipt(item.catalog, requestId, body) : undefined;
  const outcome: CatalogOutcome = await runWithRequestContext({ logBindings: { job: 'bulk-runner', requestId }, lookupTrace: trace }, async () => {
    const ended = await runAuthenticatedCatalogLookup(
      {
        catalog: item.catalog,
        requestId,
        idempotencyKey: null,
        readBody: async () => ({ ok: true, value: body }),
        receipt,
        bulkItem: {
          settlement: (settled) => {
            settledWithItem = true;
            return itemSettlement(item, requestId, settled, receipt?.issued !== undefined);
          },
          renewClaim: () => renewClaim(item, itemLeaseSeconds()),
        },
      },
      integration,
    );
    log.info(
      {
        integration: integration.nombre,
        lookup: item.catalog,
        bulkJob: item.jobId,
        status: catalogOutcomeStatus(ended),
        outcome: lookupOutcomeName(ended),
        durationMs: Math.round((performance.now() - startedAt) * 10) / 10,
        upstream: trace.upstream ?? null,
        dbRoundTrips: trace.databaseRoundTrips,
      },
      'bulk item',
    );
    return ended;
  });
  // Answered in the settlement statement: charged (when found) and recorded with the item's row.
  if (settledWithItem) return { kind: 'answered' };
  if (outcome.kind === 'claim_lost') {
    // Another instance holds it now, or its job stopped running while this lookup waited for its
    // turn: nothing was held here. Freed at once if it is still this claim's (a paused job's item
    // is then claimable as soon as the job resumes); another instance's claim is left alone.
    await putBack(item, new Date());
    return { kind: 'lost' };
  }
  if (outcome.kind === 'balance_exhausted') {
    await pauseForBalance(item.jobId);
    await putBack(item, new Date());
    return { kind: 'paused' };
  }
  if (outcome.kind === 'invalid_request') {
    await setAside(item, 'rechazado_por_la_pasarela');
    return { kind: 'set_aside' };
  }
  // The catalog limit spent, the flag off, the source known to be down (never sent), no turn: the
  // job waits, its row is not failed and nothing was charged or recorded.
  return wait(item, Date.now() + WAIT_MS);
}

async function wait(item: ClaimedItem, untilMs: number): Promise<ItemRun> {
  await putBack(item, new Date(untilMs));
  return { kind: 'waiting', untilMs };
}

/**
 * The longest an idle runner sleeps between looks at the database: a job resumed by a top-up
 * starts within this; one submitted, retried or resumed on any instance wakes every runner at once
 * (BULK_WORK_CHANNEL).
 */
export const BULK_IDLE_MAX_MS = 10_000;

/**
 * How long to sleep after a pass that found nothing to do: the poll interval after work, then twice
 * the last sleep, up to BULK_IDLE_MAX_MS (never below the poll interval). An idle instance costs
 * its upkeep's statements (the jobs', the overdue notices', and the watch lists' two looks) every 10 s
 * instead of every second.
 */
export function idleDelayMs(previousMs: number | null, pollMs: number, maxMs = BULK_IDLE_MAX_MS): number {
  const ceiling = Math.max(pollMs, maxMs);
  return previousMs === null ? pollMs : Math.min(ceiling, Math.max(pollMs, previousMs * 2));
}

/**
 * How long the runner sleeps: `delayMs` (the poll interval, or the idle back-off), but never past
 * the earliest instant a waiting integration's items may run again (its share of the minute ends,
 * lib/flows/bulk/pacing.ts). Nothing wakes the runner when a window ends, and a job bound by its share
 * waits out each window: sleeping the whole back-off there restarted it up to 10 s late, every
 * minute (some 430 items a minute of a share of 500).
 */
export function runnerSleepMs(delayMs: number, waitingUntilMs: Iterable<number>, nowMs: number): number {
  let sleepMs = delayMs;
  for (const untilMs of waitingUntilMs) sleepMs = Math.min(sleepMs, Math.max(0, untilMs - nowMs));
  return sleepMs;
}

/**
 * Work other capabilities do on every instance at the runner's upkeep (every BULK_POLL_MS while
 * busy, backing off while idle): the watch lists' scheduler (lib/flows/watch-lists) starts due runs here.
 * Registered at startup, so lib/flows/bulk never imports the capabilities built on it.
 */
type Upkeep = () => Promise<unknown>;
export function addBulkRunnerUpkeep(upkeep: Upkeep): void {
  processSlot('bulkUpkeep', () => new Set<Upkeep>()).add(upkeep);
}

interface RunnerState {
  stopped: boolean;
  inFlight: number;
  /** An item finished since the last pass: there may be more of its job, or its job's end, to see. */
  busy: boolean;
  wake: (() => void) | null;
  /** Woken while it was not sleeping (mid-pass): it looks again before it sleeps. */
  poked: boolean;
  /** Integrations whose items wait (limit spent, source away) and until when, by integration id. */
  waitingUntil: Map<number, number>;
  /** Stops listening on BULK_WORK_CHANNEL. */
  unlisten?: () => Promise<void>;
}

/**
 * The PostgreSQL channel new work is announced on: every instance's runner LISTENs to it, so a job
 * submitted to one instance runs on all of them from its first second, not from their next idle
 * look, up to BULK_IDLE_MAX_MS later: a large share of a short job's time on a slow source.
 */
export const BULK_WORK_CHANNEL = 'gateway_bulk_work';

/** Wakes the runner now, or has it look again after the pass it is in. */
function poke(state: RunnerState): void {
  if (state.wake) state.wake();
  else state.poked = true;
}

/** Starts this instance's runner once (BULK_CONCURRENCY 0: none). */
export function startBulkRunner(): void {
  const settings = bulkSettings();
  if (peekProcessSlot('bulkRunner') || settings.BULK_CONCURRENCY === 0) return;
  const state: RunnerState = { stopped: false, inFlight: 0, busy: false, wake: null, poked: false, waitingUntil: new Map() };
  setProcessSlot('bulkRunner', state);
  const name = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  runAsJob('bulk-runner', () => void loop(state, name, settings.BULK_CONCURRENCY, settings.BULK_POLL_MS, itemLeaseSeconds()));
  // Announced work, and a look after each reconnection (announcements meanwhile were lost).
  runAsJob('bulk-work-announcements', () => void listenForBulkWork(state));
}

async function listenForBulkWork(state: RunnerState): Promise<void> {
  try {
    const handle = await database();
    const unlisten = await handle.listen?.(BULK_WORK_CHANNEL, () => poke(state), () => poke(state));
    if (state.stopped) await unlisten?.();
    else state.unlisten = unlisten;
  } catch (error) {
    // The idle look (BULK_IDLE_MAX_MS) still finds the work.
    log.error({ err: error }, 'listening for announced bulk work failed');
  }
}

/**
 * Has every instance's runner look for work now (a job just submitted, retried or resumed): this
 * one at once, the others through BULK_WORK_CHANNEL.
 */
export function wakeBulkRunner(): void {
  const state = peekProcessSlot<RunnerState>('bulkRunner');
  if (state) poke(state);
  void database()
    .then((handle) => handle.rows(sql`select pg_notify(${BULK_WORK_CHANNEL}, '')`))
    .catch((error: unknown) => log.warn({ err: error }, 'announcing bulk work failed: other instances find it at their next idle look'));
}

/** Stops claiming (tests; a drain): items running finish, the rest stay for other instances. */
export function stopBulkRunner(): void {
  const state = peekProcessSlot<RunnerState>('bulkRunner');
  if (!state) return;
  state.stopped = true;
  state.wake?.();
  void state.unlisten?.().catch(() => {});
  setProcessSlot('bulkRunner', undefined);
}

async function loop(state: RunnerState, name: string, concurrency: number, pollMs: number, leaseSeconds: number): Promise<void> {
  let lastUpkeep = 0;
  let idleDelay: number | null = null;
  while (!state.stopped) {
    let claimed = 0;
    const busy = state.busy;
    state.busy = false;
    try {
      if (Date.now() - lastUpkeep >= pollMs) {
        lastUpkeep = Date.now();
        await resumePausedJobs();
        await completeFinishedJobs();
        // Changes an instance died before telling (or a listener failed to take): told again.
        await tellOverdueJobChanges();
        for (const upkeep of peekProcessSlot<Set<Upkeep>>('bulkUpkeep') ?? []) {
          // One capability's failure neither stops the runner nor the other upkeeps.
          await upkeep().catch((error: unknown) => log.error({ err: error }, 'bulk runner upkeep failed'));
        }
      }
      // Pruned on every pass, room or not: an ended wait left here would make the sleep below nil.
      const now = Date.now();
      for (const [integrationId, untilMs] of state.waitingUntil) if (untilMs <= now) state.waitingUntil.delete(integrationId);
      // A draining instance claims nothing new: what it holds finishes, the rest is left to others.
      const room = isDraining() ? 0 : concurrency - state.inFlight;
      if (room > 0) {
        const items = await claimItems(name, room, leaseSeconds, [...state.waitingUntil.keys()]);
        claimed = items.length;
        for (const item of items) start(state, item);
      }
    } catch (error) {
      log.error({ err: error }, 'bulk runner pass failed');
    }
    // Asks again at once while there was work and room; otherwise waits for an item to finish, a
    // job announced (wakeBulkRunner), or the poll interval, backing off while there is nothing to do.
    if (claimed > 0 && state.inFlight < concurrency) continue;
    if (state.poked) {
      // Work was announced during the pass: look again, and start the idle back-off over.
      state.poked = false;
      idleDelay = null;
      continue;
    }
    idleDelay = claimed > 0 || busy || state.inFlight > 0 ? null : idleDelayMs(idleDelay, pollMs);
    const delay = runnerSleepMs(idleDelay ?? pollMs, state.waitingUntil.values(), Date.now());
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, delay);
      timer.unref();
      state.wake = () => {
        clearTimeout(timer);
        // Woken for new work: the next idle sleep starts short again.
        idleDelay = null;
        resolve();
      };
    });
    state.wake = null;
  }
}

function start(state: RunnerState, item: ClaimedItem): void {
  state.inFlight += 1;
  void runItem(item)
    .then(async (run) => {
      // By the job's integration, active or not: an inactive one's items would otherwise be claimed
      // and put back in a loop, every pass, until they are all waiting.
      if (run.kind === 'waiting') state.waitingUntil.set(item.integrationId, run.untilMs);
      if (run.kind === 'answered' || run.kind === 'set_aside') await completeFinishedJobs(item.jobId);
    })
    .catch((error: unknown) => log.error({ err: error, job: item.jobId }, 'bulk item failed; it runs again when its lease expires'))
    .finally(() => {
      state.inFlight -= 1;
      state.busy = true;
      state.wake?.();
    });
}
