// What this process keeps for its whole life, each piece under a name listed here: its settings,
// its singletons (the logger, the metrics, the credentials' copy, the alert dispatcher…), the
// counts it writes later and the listeners it subscribed. One map, on globalThis: Next loads a
// module once per bundle (each route, proxy.ts, instrumentation), and every copy must reach the
// same piece. Tests start each file with the map gone (tests/support/fresh-file.ts).
//
// server.mjs, plain JavaScript outside Next's bundles, reads a few pieces of its own through the
// channels lib/platform/runtime/server-bridges.mjs declares instead (the draining flag, the probes'
// answers, the lookups' answerers, the public pages' answerer, the page callers' key, the flushes
// before exit).

import { SERVER_BRIDGES } from '@/lib/platform/runtime/server-bridges.mjs';
export const PROCESS_SLOTS = {
  env: "the validated settings, every capability's in one record as each is first read (lib/platform/settings/fragment.ts)",
  database: 'the database handle, PostgreSQL or the embedded PGlite (db/client.ts)',
  logger: 'the root logger (lib/platform/logging/logger.ts)',
  logDestination: 'where log lines go and at what level, chosen before the first line (the CLI: stderr)',
  metrics: "the Prometheus registry and the gateway's metrics (lib/platform/metrics/registry.ts)",
  requestContext: "each request's and job's context (lib/platform/http/request-context.ts)",
  cachedChecks: 'health and readiness checks shared for a second (lib/platform/operations/cached-check.ts)',
  jobs: 'the periodic jobs scheduled (lib/platform/jobs/schedule.ts)',
  rateLimitStore: 'the limits\' store, Redis or in memory (lib/core/limits/limits.ts)',
  sourceClients: 'the upstream clients and their guards (lib/sources/index.ts)',
  integrationDirectory: "the credentials' copy (lib/core/integrations/directory.ts)",
  lookupAdmission: "the lookups' turn: how many run and how many wait (lib/core/admission/lookup-admission.ts)",
  readinessWatchesBreakers: 'whether /api/ready forgets its answer when a breaker changes (app/api/ready/route.ts)',
  recordJournal: 'records the database did not take, on disk (lib/core/record-journal)',
  registryIntents: "the registries' lookups about to reach their source (lib/core/record-journal)",
  tokenLastUses: "tokens' last use, written every few seconds (lib/core/credentials/last-use.ts)",
  refusedAddresses: "addresses refused by allow-lists, written every few seconds (lib/core/credentials/refused-addresses.ts)",
  refusalCounts: 'refusals counted for the rollups (lib/core/rollups/refusals.ts)',
  requestTraces: 'traces of answers that leave no record (lib/core/request-traces/buffer.ts)',
  personalDataClear: 'whether identifiers still wait to be sealed (lib/core/sealing/state.ts)',
  consoleSubmissions: "the console's forms already sent (lib/flows/auth/submissions.ts)",
  ledgerVerification: "the console's «Verificar ahora» run in this process (lib/core/billing/verify-now.ts)",
  holdSweeper: 'the timer of the stale holds sweeper (lib/root/startup.ts)',
  idleCollection: 'the timer that collects in full when the instance goes quiet (lib/platform/memory/idle-collection.ts)',
  refusalFlush: 'the timer writing the refusal counts (lib/root/startup.ts)',
  bulkRunner: "the bulk jobs' runner (lib/flows/bulk/runner.ts)",
  invoiceWorker: "the FEL invoices' worker (lib/flows/invoicing/worker.ts)",
  invoicingDecidedByService: 'whether this process credits only as the published invoicing decision says (the CLI: lib/core/invoices/decision.ts)',
  bulkUpkeep: "what the bulk runner also does on each turn (lib/flows/bulk/runner.ts)",
  watchListRuns: "the watch lists' subscription to their runs' jobs (lib/flows/watch-lists/runs.ts)",
  domainEventListeners: 'listeners of the domain events (lib/platform/events/domain-event.ts)',
  reactionsSubscribed: 'whether lib/root/reactions.ts subscribed the reactions',
  alerts: 'the alert dispatcher (lib/reactions/alerts/dispatcher.ts)',
  integratorNotifier: "the integrators' notifier (lib/reactions/integrator-notifications/notifier.ts)",
  paymentProvider: 'the online payments\' provider the settings choose (lib/providers/payments/configured.ts)',
  paymentProviderWatchers: "who is told of each call to the payment provider: its health's recorder (lib/flows/online-top-ups/provider-health.ts)",
  bulkJobNotices: "the notices' subscription to the bulk jobs' events (lib/reactions/integrator-notifications/bulk-jobs.ts)",
  watchListNotices: "the notices' subscription to the watch lists' changes (lib/reactions/integrator-notifications/watch-lists.ts)",
  breakerTransitionRecorder: "the status page's recorder of breaker transitions (lib/reactions/status-page/recorder.ts)",
  constanciaKeys: "the constancias' signing keys, which of them this process has recorded as used, and its block of leaf indexes (lib/core/constancias/keys.ts)",
  lastPublicStatus: 'the last public status read, answered while the database is away (lib/reactions/status-page/status.ts)',
} as const;

export type ProcessSlot = keyof typeof PROCESS_SLOTS;

const STATE = SERVER_BRIDGES.processState;
const holder = globalThis as typeof globalThis & { [STATE]?: Map<ProcessSlot, unknown> };

function slots(): Map<ProcessSlot, unknown> {
  return (holder[STATE] ??= new Map());
}

/** The piece under `slot`, made by `create` the first time it is asked for. */
export function processSlot<T>(slot: ProcessSlot, create: () => T): T {
  const all = slots();
  const held = all.get(slot);
  if (held !== undefined) return held as T;
  const made = create();
  all.set(slot, made);
  return made;
}

/** The piece under `slot`, if it was made. */
export function peekProcessSlot<T>(slot: ProcessSlot): T | undefined {
  return slots().get(slot) as T | undefined;
}

/** Puts a piece under `slot`, or takes it away (undefined): a replacement, a reset, a stopped runner. */
export function setProcessSlot<T>(slot: ProcessSlot, value: T | undefined): void {
  if (value === undefined) slots().delete(slot);
  else slots().set(slot, value);
}
