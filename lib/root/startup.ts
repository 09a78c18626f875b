import path from 'node:path';
import { database, db, shareEmbeddedDatabase } from '@/db/client';
import { decisionOfSettings, publishInvoicingDecision } from '@/lib/core/invoices/decision';
import { resolveDeferredSales } from '@/lib/core/invoices/sales';
import { alerts } from '@/lib/reactions/alerts/dispatcher';
import { deliverAttackNotices } from '@/lib/reactions/alerts/attack-notice';
import { integratorNotifier } from '@/lib/reactions/integrator-notifications/notifier';
import { notifyExpiringTokens } from '@/lib/reactions/integrator-notifications/tokens';
import { tellBulkJobEvents } from '@/lib/reactions/integrator-notifications/bulk-jobs';
import { notifySourceIncidents } from '@/lib/reactions/integrator-notifications/sources';
import { sourceClients } from '@/lib/sources';
import { announceLookupPaths } from '@/lib/surfaces/api/direct-lookups';
import { ADVISORY_LOCKS, withAdvisoryLock } from '@/db/advisory-lock';
import { applyMigrations } from '@/db/migrate';
import { advanceBalanceCheckpoints } from '@/lib/core/billing/checkpoints';
import { sweepStaleHolds } from '@/lib/core/billing/holds';
import { verifyLedger } from '@/lib/core/billing/verify';
import { renamedSettingsInUse } from '@/lib/core/issuer/settings';
import { allSettings, type Settings } from '@/lib/root/settings';
import { runWithRequestContext } from '@/lib/platform/http/request-context';
import { runAsJob } from '@/lib/platform/jobs/context';
import { startRecordJournal } from '@/lib/core/record-journal';
import { integrationDirectory } from '@/lib/core/integrations/directory';
import { LOCAL_DATA_DIR } from '@/lib/platform/files/private-directory';
import { schedulePeriodicJob } from '@/lib/platform/jobs/schedule';
import { dailyJobsHours } from '@/lib/platform/jobs/daily-hours';
import { sequenceLog } from '@/lib/core/constancias/log';
import { timestampLatestHead } from '@/lib/core/constancias/timestamp';
import { configuredTimeStampAuthority } from '@/lib/providers/timestamping/configured';
import { timestampingSettings } from '@/lib/providers/timestamping/settings';
import { recheckProviderSessions } from '@/lib/flows/auth/sso-renewal';
import { recheckPortalProviderSessions } from '@/lib/flows/portal-identity/sso-renewal';
import { recheckEveryMs } from '@/lib/flows/auth/session-settings';
import { consoleSsoEnabled } from '@/lib/flows/auth/sso-settings';
import { startedThroughServerWrapper } from '@/lib/core/limits/client-ip';
import { describeError } from '@/lib/platform/logging/errors';
import { logger } from '@/lib/platform/logging/logger';
import { metrics } from '@/lib/platform/metrics/registry';
import { purgeExpiredRecords } from '@/lib/flows/retention/purge';
import { purgeExpiredIdempotencyKeys } from '@/lib/core/idempotency/store';
import { pollOpenOnlinePayments } from '@/lib/flows/online-top-ups/payments';
import { runAutoTopUps } from '@/lib/flows/auto-top-ups/auto-top-ups';
import { configuredPaymentProvider } from '@/lib/providers/payments/configured';
import { rollUpQueue } from '@/lib/core/rollups/job';
import { addBulkRunnerUpkeep, startBulkRunner } from '@/lib/flows/bulk/runner';
import { startInvoiceWorker } from '@/lib/flows/invoicing/worker';
import { tellWatchListChanges } from '@/lib/reactions/integrator-notifications/watch-lists';
import { compareFinishedRuns, watchListTick } from '@/lib/flows/watch-lists';
import { flushRefusals } from '@/lib/core/rollups/refusals';
import { flushRequestTraces } from '@/lib/core/request-traces/buffer';
import { flushBeforeExit } from '@/lib/platform/runtime/flush-before-exit';
import { answerWithin } from '@/lib/platform/async/answer-within';
import { rateLimitStore } from '@/lib/core/limits/limits';
import { flushTokenUses } from '@/lib/core/credentials/last-use';
import { flushRefusedAddresses } from '@/lib/core/credentials/refused-addresses';
import { describeSeed, seedDevelopmentData } from '@/lib/root/seed';
import { subscribeReactions } from '@/lib/root/reactions';
import { issueLastMonthStatements } from '@/lib/flows/statements/monthly';
import { recordBreakerTransitions } from '@/lib/reactions/status-page/recorder';
import { startIdleCollection } from '@/lib/platform/memory/idle-collection';
import { peekProcessSlot, setProcessSlot } from '@/lib/platform/runtime/process-state';

const DAY_MS = 24 * 3_600_000;
const IDEMPOTENCY_PURGE_EVERY_MS = 15 * 60_000;
const log = logger('startup');

const PUBLISH_RETRY_MS = 15_000;

/**
 * Publishes whether this instance invoices top-ups. A database away at the start (an instance
 * that starts without migrating serves its 503s) does not stop the start: it is tried again until
 * it is written, and meanwhile the row keeps what the other instances published.
 */
async function announceInvoicingDecision(settings: Settings): Promise<void> {
  let published;
  try {
    published = await publishInvoicingDecision(await db(), settings);
  } catch (error) {
    log.warn({ err: error }, `could not publish whether top-ups are invoiced; trying again shortly: ${describeError(error)}`);
    setTimeout(() => void announceInvoicingDecision(settings), PUBLISH_RETRY_MS).unref();
    return;
  }
  // Top-ups credited before any instance had decided (the CLI after a migration job) get their invoice, or their reason for none.
  const resolved = await resolveDeferredSales(await db(), decisionOfSettings(settings));
  if (resolved > 0) log.info({ topUps: resolved, invoices: settings.FEL_ENABLED }, 'applied whether top-ups are invoiced to those credited before any instance had decided');
  const { previous, changed } = published;
  if (changed && previous) {
    // Two instances configured apart would invoice by whichever started last: the operator should know.
    log.warn(
      { setting: 'FEL_ENABLED', before: previous.decision, publishedBy: previous.publishedBy, after: { invoices: settings.FEL_ENABLED } },
      'this instance changed whether top-ups are invoiced: every process now credits as this instance is configured',
    );
  }
}

/**
 * Runs once when the server starts (instrumentation.ts): checks it runs behind server.mjs,
 * validates the environment, opens and migrates the database, seeds development data, shares the
 * embedded database with the CLI and starts the background jobs.
 */
export async function startServer(): Promise<void> {
  if (!startedThroughServerWrapper()) {
    throw new Error(
      'start the app with `npm start` (node server.mjs), not `next start` or another launcher: only server.mjs records ' +
        'the client address the per-IP limits count, and without it any client could choose its own',
    );
  }
  // Every capability's settings at once: a wrong or missing one stops the start, named.
  const settings = allSettings();
  // Before anything can change: the seed and every request emit what the reactions hear.
  subscribeReactions();
  announceLookupPaths();
  for (const warning of renamedSettingsInUse(process.env)) log.warn(warning);
  if (settings.APP_ENV === 'production' && !settings.CONSOLE_TWO_FACTOR_REQUIRED) {
    log.warn(
      { setting: 'CONSOLE_TWO_FACTOR_REQUIRED' },
      'console users may sign in with a password alone: two-factor sign-in is not required in production',
    );
  }
  const handle = await database();
  if (settings.MIGRATE_ON_START) await applyMigrations(handle);
  // Before any credit (the seed's among them): whether top-ups are invoiced is this instance's
  // settings, read by every process that credits (the CLI, the other instances).
  await announceInvoicingDecision(settings);
  if (settings.SEED_ON_START && settings.APP_ENV === 'development') {
    // Serialized like the migrations: two instances starting on an empty database seed once.
    const seeded = await withAdvisoryLock(handle, ADVISORY_LOCKS.seed, () => seedDevelopmentData());
    const baseUrl = settings.NEXTAUTH_URL ?? `http://localhost:${process.env.PORT ?? 3000}`;
    const message = describeSeed(seeded, baseUrl);
    // Development only, and on purpose: the demo credentials are shown once, to the developer's
    // terminal, not as a log line (the logger would mask them).
    if (message) process.stdout.write(`\n${message}\n\n`);
  }
  // The CLI beside `npm run dev` uses this process's embedded database through a local socket.
  // Development only: production runs on PostgreSQL, which every process reaches on its own.
  const sharedAt = handle.kind === 'pglite' && settings.APP_ENV === 'development' ? await shareEmbeddedDatabase() : undefined;
  // Before any lookup: records a previous process kept go in first, and a lookup that finds the
  // database away has somewhere to keep its record.
  await startRecordJournal(settings.RECORD_JOURNAL_DIR ?? path.join(LOCAL_DATA_DIR, 'record-journal'));
  // The first lookups find the credentials copy loaded (after the seed, which may add the demo).
  await integrationDirectory().start();
  // And the limits' store connected, its scripts loaded. Bounded: a Redis that is away must not
  // hold the start; the checks then use this instance's own counters until it answers.
  await warmUpRateLimits();
  startHoldSweeper(settings.HOLD_SWEEP_AFTER_SECONDS, settings.HOLD_SWEEP_INTERVAL_SECONDS * 1000);
  startRollups(settings.ROLLUP_INTERVAL_MS);
  startRetention(settings.QUERY_RECORD_RETENTION_EXPORT_DIR);
  startIdempotencyPurge();
  startOnlinePaymentPoller(settings.ONLINE_TOP_UP_POLL_MS);
  startAutoTopUps(settings.AUTO_TOP_UP_CHECK_MS);
  startBillingJobs(settings.HOLD_SWEEP_AFTER_SECONDS);
  startConstanciaJobs(settings.CONSTANCIA_HEAD_INTERVAL_SECONDS * 1000);
  // Bulk jobs' items are claimed from the database by every instance with room (lib/flows/bulk); a job
  // that ends or pauses on this instance is told to its integration (subscribed before any can).
  tellBulkJobEvents();
  // Watch lists (Vigilancia): due lists start their run, and ended runs are compared, from every
  // instance's runner; each run is started and compared once (lib/flows/watch-lists/runs.ts).
  compareFinishedRuns();
  tellWatchListChanges();
  addBulkRunnerUpkeep(() => watchListTick());
  startBulkRunner();
  // FEL invoices of credited top-ups: every instance certifies due ones, leases sharing the queue (lib/flows/invoicing).
  startInvoiceWorker();
  // Alerts written by any instance or by the CLI are delivered by whichever instance takes them;
  // the integrators' notifications go through the same outbox and delivery loop.
  integratorNotifier().attachTo(alerts());
  deliverAttackNotices(alerts());
  alerts().start();
  startTokenExpiryNotifications();
  startProviderSessionRechecks();
  alerts().watchBreakers(sourceClients().guards);
  // The public status page's incidents: every instance records its breakers' openings and closings.
  recordBreakerTransitions(sourceClients().guards);
  // A deployment's drain must not erase the last interval of what lives only in memory.
  flushBeforeExit('token last use', flushTokenUses);
  flushBeforeExit('refused addresses', flushRefusedAddresses);
  flushBeforeExit('refusal counts', flushRefusals);
  flushBeforeExit('request traces', flushRequestTraces);
  // What a burst grew the heap to goes back to the system once the instance is quiet.
  startIdleCollection();
  log.info({ appEnv: settings.APP_ENV, database: handle.kind === 'pglite' ? `embedded PGlite (${settings.PGLITE_DIR})` : 'PostgreSQL', sharedAt }, 'started');
}

function startHoldSweeper(olderThanSeconds: number, intervalMs: number): void {
  if (peekProcessSlot('holdSweeper')) return;
  const billingLog = logger('billing');
  const sweep = async () => {
    try {
      const voided = await sweepStaleHolds(olderThanSeconds);
      metrics().sweeperVoids.inc(voided);
      if (voided > 0) billingLog.warn({ voided }, 'voided holds left unsettled by a crash');
    } catch (error) {
      billingLog.error({ err: error }, 'hold sweep failed');
    }
  };
  const timer = runAsJob('hold-sweeper', () => {
    void sweep();
    return setInterval(sweep, intervalMs);
  });
  timer.unref();
  setProcessSlot('holdSweeper', timer);
}

/**
 * The dashboard's rollups: one instance at a time adds the queued records (lib/core/rollups/job.ts);
 * every instance adds its own refusal counts, which live in its memory until then.
 */
function startRollups(intervalMs: number): void {
  const rollupsLog = logger('rollups');
  schedulePeriodicJob({
    name: 'rollups',
    everyMs: intervalMs,
    leaseMs: 60_000,
    run: async () => void (await rollUpQueue()),
    onError: (error) => rollupsLog.error({ err: error }, 'rolling up query records failed'),
  });
  if (peekProcessSlot('refusalFlush')) return;
  const timer = runAsJob('refusal-counts', () =>
    setInterval(() => {
      flushRefusals().catch((error: unknown) => rollupsLog.error({ err: error }, 'writing refusal counts failed'));
      flushRequestTraces().catch((error: unknown) => rollupsLog.error({ err: error }, 'writing request traces failed'));
    }, intervalMs),
  );
  timer.unref();
  setProcessSlot('refusalFlush', timer);
}

/**
 * Once a day, on one instance, in the daily jobs' hours (DAILY_JOBS_HOURS): purge the query records
 * and alert deliveries past their retention (lib/flows/retention).
 */
function startRetention(exportDir: string | undefined): void {
  const retentionLog = logger('retention');
  schedulePeriodicJob({
    name: 'retention',
    everyMs: DAY_MS,
    hours: dailyJobsHours(),
    leaseMs: 6 * 3_600_000,
    run: async () => {
      const result = await purgeExpiredRecords({ exportDir, pauseMs: 50 });
      if (result.purged > 0) {
        retentionLog.info({ purged: result.purged, olderThan: result.cutoff.toISOString(), archive: result.exportFile }, 'purged query records past their retention');
      }
      if (result.alertDeliveriesPurged > 0) {
        retentionLog.info({ purged: result.alertDeliveriesPurged, olderThan: result.cutoff.toISOString() }, 'purged alert deliveries past their retention');
      }
      if (result.constancias.textsPurged > 0 || result.constancias.proofsPurged > 0) {
        retentionLog.info({ ...result.constancias, textsOlderThan: result.keptFrom.toISOString() }, 'purged constancias past their retention');
      }
    },
    onError: (error) => retentionLog.error({ err: error }, 'purging old query records failed'),
  });
}

/**
 * Reads every online top-up still open (a checkout not yet paid, a pending transfer, an answer
 * lost) until it settles or expires: what a lost or refused webhook leaves is credited from here.
 * Refunds left unclear are settled in the same rounds, by reading their payments.
 */
function startOnlinePaymentPoller(everyMs: number): void {
  const provider = configuredPaymentProvider();
  if (provider === null) return;
  const paymentsLog = logger('online-top-ups');
  schedulePeriodicJob({
    name: 'online-payments-poll',
    everyMs,
    leaseMs: 10 * 60_000,
    run: async () => {
      const { read, settled, refundsSettled } = await pollOpenOnlinePayments(provider);
      if (settled > 0 || refundsSettled > 0) paymentsLog.info({ read, settled, refundsSettled }, 'online payments and refunds settled by reading them');
    },
    onError: (error) => paymentsLog.error({ err: error }, 'polling online payments failed'),
  });
}

/**
 * Automatic top-ups, on one instance at a time: balances under their owner's threshold get their
 * charge here, off every lookup's path (a lookup only lowers the balance). Two instances running
 * it at once would still charge once: the in-flight attempt is a unique row.
 */
function startAutoTopUps(everyMs: number): void {
  const provider = configuredPaymentProvider();
  if (provider === null) return;
  const autoLog = logger('auto-top-ups');
  schedulePeriodicJob({
    name: 'auto-top-ups',
    everyMs,
    leaseMs: 10 * 60_000,
    run: async () => {
      const run = await runAutoTopUps(provider);
      if (run.charged > 0 || run.failed > 0) autoLog.info(run, 'automatic top-ups charged');
    },
    onError: (error) => autoLog.error({ err: error }, 'automatic top-ups failed'),
  });
}

/**
 * Every few minutes, on one instance: the Idempotency-Key rows whose 24 hours passed, stored
 * answers included (personal data, kept no longer than the key is honoured). A lookup already
 * ignores an expired row; the purge is what makes it gone.
 */
function startIdempotencyPurge(): void {
  const idempotencyLog = logger('idempotency');
  schedulePeriodicJob({
    name: 'idempotency-purge',
    everyMs: IDEMPOTENCY_PURGE_EVERY_MS,
    leaseMs: 10 * 60_000,
    run: async () => {
      const purged = await purgeExpiredIdempotencyKeys();
      if (purged > 0) idempotencyLog.info({ purged }, 'purged idempotency keys past their 24 hours');
    },
    onError: (error) => idempotencyLog.error({ err: error }, 'purging idempotency keys failed'),
  });
}

/**
 * The constancias' log (lib/core/constancias/log.ts), on one instance at a time: the receipts issued
 * since the last head are appended and a new head signed every few minutes, after the whole log is
 * checked against the last one; a log that no longer matches what was signed gets no new head.
 */
function startConstanciaJobs(headEveryMs: number): void {
  const constanciaLog = logger('constancias');
  schedulePeriodicJob({
    name: 'constancia-log-head',
    everyMs: headEveryMs,
    leaseMs: Math.max(headEveryMs * 4, 10 * 60_000),
    run: async () => {
      const run = await sequenceLog();
      if (run.kind === 'tampered') constanciaLog.error({ treeSize: run.treeSize, detail: run.detail }, 'the constancias log no longer matches its signed head');
      else if (run.kind === 'signed') constanciaLog.info({ treeSize: run.head.treeSize, appended: run.appended, holes: run.holes }, 'constancias log head signed');
    },
    onError: (error) => constanciaLog.error({ err: error }, 'signing the constancias log head failed'),
  });
  // Without an authority (production may leave TSA_URL unset) the heads are signed, not stamped.
  if (!timestampingSettings().TSA_URL) return;
  schedulePeriodicJob({
    name: 'constancia-log-timestamp',
    everyMs: 3_600_000,
    leaseMs: 10 * 60_000,
    run: async () => {
      const run = await timestampLatestHead(await configuredTimeStampAuthority());
      if (run.kind === 'failed') constanciaLog.error({ treeSize: run.treeSize, outcome: run.outcome }, 'the time-stamping authority did not stamp the constancias log head');
      else if (run.kind === 'stamped') constanciaLog.info({ treeSize: run.treeSize }, 'constancias log head time-stamped');
    },
    onError: (error) => constanciaLog.error({ err: error }, 'time-stamping the constancias log head failed'),
  });
}

/**
 * The ledger's background work, each on one instance at a time: the hourly checkpoints the balance
 * history starts from, the daily reconciliation (it reports, never fixes), and last month's
 * statements, issued while the month's records are still kept; the daily two in DAILY_JOBS_HOURS.
 */
function startBillingJobs(sweepAfterSeconds: number): void {
  const billingLog = logger('billing');
  schedulePeriodicJob({
    name: 'ledger-checkpoints',
    everyMs: 5 * 60_000,
    leaseMs: 30 * 60_000,
    run: async () => void (await advanceBalanceCheckpoints()),
    onError: (error) => billingLog.error({ err: error }, 'ledger checkpoints failed'),
  });
  schedulePeriodicJob({
    name: 'ledger-verify',
    everyMs: DAY_MS,
    hours: dailyJobsHours(),
    leaseMs: 2 * 3_600_000,
    run: async () => void (await verifyLedger({ trigger: 'job', sweepAfterSeconds })),
    onError: (error) => billingLog.error({ err: error }, 'ledger reconciliation failed'),
  });
  schedulePeriodicJob({
    name: 'monthly-statements',
    everyMs: DAY_MS,
    hours: dailyJobsHours(),
    leaseMs: 6 * 3_600_000,
    run: async () => {
      const result = await issueLastMonthStatements();
      if (result.issued > 0 || result.failed > 0) billingLog.info(result, 'monthly statements issued');
    },
    onError: (error) => billingLog.error({ err: error }, 'issuing monthly statements failed'),
  });
}

/**
 * On one instance: the sessions opened through an identity provider (the console's, while it has
 * one, and the integrators' in the portal) re-checked there with their refresh tokens
 * (lib/flows/auth/sso-renewal.ts, lib/flows/portal-identity/sso-renewal.ts), so leaving the company
 * ends access within SESSION_RECHECK_SECONDS.
 */
function startProviderSessionRechecks(): void {
  const authLog = logger('auth');
  if (consoleSsoEnabled()) {
    schedulePeriodicJob({
      name: 'identity-provider-sessions',
      everyMs: recheckEveryMs(),
      leaseMs: 5 * 60_000,
      run: async () => {
        const run = await recheckProviderSessions();
        if (run.ended > 0 || run.unavailable > 0) authLog.info(run, 'identity provider sessions re-checked');
      },
      onError: (error) => authLog.error({ err: error }, 're-checking identity provider sessions failed'),
    });
  }
  // The integrators' providers are set in the portal at any time: the job runs, and finds none while there are none.
  schedulePeriodicJob({
    name: 'portal-identity-provider-sessions',
    everyMs: recheckEveryMs(),
    leaseMs: 5 * 60_000,
    run: async () => {
      const run = await recheckPortalProviderSessions();
      if (run.ended > 0 || run.unavailable > 0) authLog.info(run, 'portal identity provider sessions re-checked');
    },
    onError: (error) => authLog.error({ err: error }, 're-checking portal identity provider sessions failed'),
  });
}

/**
 * On one instance: every hour, warn technical contacts of tokens expiring in 7 days and in 1 day;
 * every minute, tell them of a long source outage and of its end.
 */
function startTokenExpiryNotifications(): void {
  const notificationsLog = logger('integrator-notifications');
  schedulePeriodicJob({
    name: 'token-expiry-notifications',
    everyMs: 3_600_000,
    leaseMs: 30 * 60_000,
    run: async () => {
      const queued = await notifyExpiringTokens(integratorNotifier());
      if (queued > 0) notificationsLog.info({ queued }, 'token expiry notifications queued');
    },
    onError: (error) => notificationsLog.error({ err: error }, 'checking tokens about to expire failed'),
  });
  schedulePeriodicJob({
    name: 'source-incident-notifications',
    everyMs: 60_000,
    leaseMs: 5 * 60_000,
    run: async () => {
      const queued = await notifySourceIncidents(integratorNotifier());
      if (queued > 0) notificationsLog.info({ queued }, 'source incident notifications queued');
    },
    onError: (error) => notificationsLog.error({ err: error }, 'checking the sources for integrator notifications failed'),
  });
}

/** A wrong environment or an unreachable database must stop the start, saying why. */
export async function startServerOrExit(): Promise<void> {
  try {
    // Outside the context of the request that made Next run instrumentation.ts: the start's lines
    // and everything it schedules belong to no request.
    await runWithRequestContext({ logBindings: {} }, startServer);
  } catch (error) {
    log.fatal({ err: error }, `cannot start: ${describeError(error)}`);
    process.exit(1);
  }
}

async function warmUpRateLimits(): Promise<void> {
  try {
    await answerWithin((await rateLimitStore()).warmUp(), 3_000);
  } catch (error) {
    log.warn({ err: error }, 'the rate-limit store did not warm up; the first checks will connect it');
  }
}
