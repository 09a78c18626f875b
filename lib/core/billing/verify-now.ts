import { desc, eq } from 'drizzle-orm';
import { db } from '@/db/client';
import { consoleUsers, ledgerVerifications, type LedgerVerification } from '@/db/schema';
import { describeActor, writeAudit, type Actor } from '@/lib/core/audit/audit';
import { runAsJob } from '@/lib/platform/jobs/context';
import { acquireFreeLease, releaseJobLease, renewJobLease } from '@/lib/platform/jobs/lease';
import { logger } from '@/lib/platform/logging/logger';
import { beginVerification, HEARTBEAT_MS, verifyLedger } from './verify';
import { processSlot } from '@/lib/platform/runtime/process-state';

// "Verificar ahora" on the console: the reconciliation started by a person, in the background of
// the instance that was asked (over everything it takes over a minute at 10 M records, longer than
// a request should be held), one run at a time across every instance (a lease in job_leases).

/** The lease of runs started from the console; the daily job has its own ('ledger-verify'). */
export const CONSOLE_VERIFICATION_LEASE = 'ledger-verify-console';
// Renewed at every heartbeat, so another instance may start a run soon after this one's instance died.
const LEASE_MS = 4 * HEARTBEAT_MS;

const log = logger('reconciliation');

interface InProcess {
  running?: Promise<void>;
}
const inProcess = processSlot<InProcess>('ledgerVerification', () => ({}));

export interface VerificationStart {
  /**
   * False when a run was already under way: `run` is the newest console run, that one (when its
   * row exists yet), or, when it ended a moment ago and is still letting go of the lease, its result.
   */
  started: boolean;
  run: LedgerVerification | undefined;
}

/**
 * Starts a reconciliation of one integration or all of them and answers at once, with the run's
 * row (its progress is stored as it goes). Audited: who started it and over what.
 */
export async function startVerificationNow(actor: Actor, options: { integrationId?: number; sweepAfterSeconds: number }): Promise<VerificationStart> {
  if (inProcess.running) return { started: false, run: await newestConsoleVerification() };
  // The lease and the run's row are committed together: whoever finds the lease held finds its run.
  const run = await (await db()).transaction(async (tx) => {
    if (!(await acquireFreeLease(CONSOLE_VERIFICATION_LEASE, LEASE_MS, tx))) return undefined;
    const row = await beginVerification({ integrationId: options.integrationId, trigger: 'console', startedBy: describeActor(actor) }, tx);
    await writeAudit(tx, actor, {
      action: 'ledger.verify',
      targetType: options.integrationId === undefined ? 'ledger' : 'integration',
      targetId: options.integrationId ?? 'all',
      before: null,
      after: { run: row.id, scope: row.scope },
    });
    return row;
  });
  if (!run) return { started: false, run: await newestConsoleVerification() };
  inProcess.running = runAsJob(CONSOLE_VERIFICATION_LEASE, () => runInBackground(run, options));
  return { started: true, run };
}

async function runInBackground(run: LedgerVerification, options: { integrationId?: number; sweepAfterSeconds: number }): Promise<void> {
  const renew = setInterval(() => {
    renewJobLease(CONSOLE_VERIFICATION_LEASE, LEASE_MS).catch((error: unknown) => log.warn({ err: error }, 'could not renew the reconciliation lease'));
  }, HEARTBEAT_MS);
  renew.unref();
  let finished = false;
  try {
    await verifyLedger({ integrationId: options.integrationId, trigger: 'console', sweepAfterSeconds: options.sweepAfterSeconds, runId: run.id });
    finished = true;
  } catch (error) {
    log.error({ err: error, run: run.id }, 'ledger reconciliation started from the console failed');
  } finally {
    clearInterval(renew);
    await releaseJobLease(CONSOLE_VERIFICATION_LEASE, finished).catch((error: unknown) => log.warn({ err: error }, 'could not release the reconciliation lease'));
    inProcess.running = undefined;
  }
}

/** The newest console run, whatever its state. */
async function newestConsoleVerification(): Promise<LedgerVerification | undefined> {
  const [row] = await (await db())
    .select()
    .from(ledgerVerifications)
    .where(eq(ledgerVerifications.trigger, 'console'))
    .orderBy(desc(ledgerVerifications.startedAt), desc(ledgerVerifications.id))
    .limit(1);
  return row;
}

/** Who started a run, as the console names people: the user's name, or undefined for the job and the CLI (named by trigger). */
export async function verificationStarterName(run: LedgerVerification | undefined): Promise<string | undefined> {
  const userId = /^user:(\d+) /.exec(run?.startedBy ?? '')?.[1];
  if (!userId) return undefined;
  const [row] = await (await db()).select({ name: consoleUsers.name }).from(consoleUsers).where(eq(consoleUsers.id, Number(userId)));
  return row?.name;
}
