import { and, desc, eq, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import { database, db } from '@/db/client';
import { ledgerVerifications, type LedgerVerification } from '@/db/schema';
import type { Executor } from '@/lib/core/audit/audit';
import { logger } from '@/lib/platform/logging/logger';
import { retentionCutoff } from '@/lib/core/records/retention-cutoff';
import { VERIFICATION_STEP_LABELS, VERIFICATION_STOPPED_LABEL } from '@/lib/vocabulary/labels';
import { isPosted } from './checkpoints';
import { booksFindings } from './books';
import { booksDoNotClose } from './events';

// Reconciliation: what must always hold between the balances, the ledger and the query records,
// checked over everything (or one integration) and reported. It never changes money: a
// difference is for people to look at (docs/operations.md, "Reconciliation").

export type DifferenceKind =
  | 'balance_differs_from_ledger'
  | 'posted_differs_from_balance'
  | 'capture_without_record'
  | 'capture_amount_differs'
  | 'charged_record_without_capture'
  | 'record_captured_twice'
  | 'receipt_charge_without_receipt'
  | 'stale_hold'
  | 'checkpoint_differs'
  // The books (issue 64, point 5): money received, credited, invoiced and given back agree.
  | 'payment_not_credited'
  | 'credit_without_invoice'
  | 'invoice_amount_differs'
  | 'sale_invoiced_twice'
  | 'refund_without_credit_note';

/** The differences that are the books' (payments, invoices, refunds), not the balance's: they raise the administrators' alert. */
export const BOOKS_DIFFERENCES: readonly DifferenceKind[] = ['payment_not_credited', 'credit_without_invoice', 'invoice_amount_differs', 'sale_invoiced_twice', 'refund_without_credit_note'];

export interface LedgerDifference {
  integrationId: number;
  kind: DifferenceKind;
  /** How many entries, records, holds or hours are concerned. */
  count: number;
  /** Ids to start looking from (ledger entries, records or hours, by kind). */
  sample: Array<number | string>;
  /** What its sentence needs beside its kind, in centavos: the balance's two kinds have figures. */
  figures?: DifferenceFigures;
  /**
   * Its sentence, in runs stored before a difference was its kind and figures: they keep it and
   * read as before. A run stores no sentence now; lib/presentation/ledger-differences.ts words it.
   */
  detail?: string;
}

/** The sums a balance difference is about (centavos): the balance, the ledger's sum, the posted money and the holds in flight. */
export interface DifferenceFigures {
  balance?: number;
  ledger?: number;
  posted?: number;
  held?: number;
}

export interface VerificationOptions {
  /** One integration, or all of them. */
  integrationId?: number;
  trigger: VerificationTrigger;
  /** Holds older than this should have been settled or voided (HOLD_SWEEP_AFTER_SECONDS). */
  sweepAfterSeconds: number;
  now?: Date;
  /** Who started it (an audit actor), for the CLI and the console. */
  startedBy?: string;
  /** The run's row, when the caller created it already (beginVerification). */
  runId?: number;
}

export type VerificationTrigger = 'cli' | 'job' | 'console';

/**
 * The checks in the order they run, as the console names them while a run is under way: their
 * names are the vocabulary's, written into the run's row (step_name) as the Panel prints it.
 */
export const VERIFICATION_STEPS = VERIFICATION_STEP_LABELS;

/** How often a run in progress says it is alive, and after how long without a sign it counts as interrupted. */
export const HEARTBEAT_MS = 10_000;
export const INTERRUPTED_AFTER_MS = 60_000;

/** A run as verifyLedger returns it: finished, with its verdict. */
export type FinishedVerification = LedgerVerification & { finishedAt: Date; ok: boolean; integrationsChecked: number };

/** A run verifyLedger has just finished, with how many ledger entries it read (not stored: the CLI says it). */
export type CompletedVerification = FinishedVerification & { entriesChecked: number };

const log = logger('reconciliation');

/** Creates a run's row at its start (step 1 of n under way), inside the caller's transaction if given. */
export async function beginVerification(
  options: { integrationId?: number; trigger: VerificationTrigger; startedBy?: string; now?: Date },
  executor?: Executor,
): Promise<LedgerVerification> {
  const [row] = await (executor ?? (await db()))
    .insert(ledgerVerifications)
    .values({
      scope: options.integrationId === undefined ? 'all' : String(options.integrationId),
      trigger: options.trigger,
      startedBy: options.startedBy ?? null,
      startedAt: options.now ?? new Date(),
      heartbeatAt: sql`now()`,
      stepsDone: 0,
      stepsTotal: VERIFICATION_STEPS.length,
      stepName: VERIFICATION_STEPS[0],
    })
    .returning();
  return row!;
}

/**
 * Runs every check, storing the run's progress after each one (ledger_verifications), then its
 * verdict, and logs each difference. A run that fails is stored as failed and the error rethrown.
 */
export async function verifyLedger(options: VerificationOptions): Promise<CompletedVerification> {
  const runId = options.runId ?? (await beginVerification(options)).id;
  const alive = setInterval(() => {
    void db()
      .then((handle) => handle.update(ledgerVerifications).set({ heartbeatAt: sql`now()` }).where(and(eq(ledgerVerifications.id, runId), isNull(ledgerVerifications.finishedAt))))
      .catch((error: unknown) => log.warn({ err: error }, 'could not record that the reconciliation is alive'));
  }, HEARTBEAT_MS);
  alive.unref();
  try {
    return await runChecks(runId, options);
  } catch (error) {
    await (await db())
      .update(ledgerVerifications)
      .set({ finishedAt: sql`now()`, failure: VERIFICATION_STOPPED_LABEL })
      .where(eq(ledgerVerifications.id, runId))
      .catch(() => {});
    throw error;
  } finally {
    clearInterval(alive);
  }
}

async function runChecks(runId: number, options: VerificationOptions): Promise<CompletedVerification> {
  const [run] = await (await db()).select({ startedAt: ledgerVerifications.startedAt }).from(ledgerVerifications).where(eq(ledgerVerifications.id, runId));
  if (!run) throw new Error(`no reconciliation run ${runId}`);
  const startedAt = run.startedAt;
  const handle = await database();
  let stepsDone = 0;
  const progress = async () => {
    stepsDone += 1;
    await (await db())
      .update(ledgerVerifications)
      .set({ stepsDone, stepName: VERIFICATION_STEPS[stepsDone] ?? null, heartbeatAt: sql`now()` })
      .where(eq(ledgerVerifications.id, runId));
  };
  const scope = (column: SQL) => (options.integrationId === undefined ? sql`true` : sql`${column} = ${options.integrationId}::integer`);
  const cutoff = retentionCutoff(startedAt).toISOString();
  const differences: LedgerDifference[] = [];
  const add = (integrationId: unknown, kind: DifferenceKind, count: unknown, sample: unknown, figures?: DifferenceFigures) => {
    if (Number(count) > 0) differences.push({ integrationId: Number(integrationId), kind, count: Number(count), sample: parseSample(sample), ...(figures ? { figures } : {}) });
  };

  // 1. The balance column against the ledger, and the posted money against both (balance plus
  //    the holds in flight).
  const balances = await handle.rows<{ id: number; balance: string; ledger: string; posted: string; held: string; entries: string }>(sql`
    select i.id, i.balance_centavos as balance, coalesce(l.amount, 0) as ledger, coalesce(l.posted, 0) as posted, coalesce(o.held, 0) as held,
           coalesce(l.entries, 0) as entries
      from integrations i
      left join (select e.integration_id, sum(e.amount_centavos) as amount, sum(e.posted_centavos) as posted, count(*) as entries
                   from ledger_entries e where ${scope(sql`e.integration_id`)} group by e.integration_id) l on l.integration_id = i.id
      left join (select h.integration_id, sum(-h.amount_centavos) as held
                   from ledger_open_holds o join ledger_entries h on h.id = o.hold_id group by h.integration_id) o on o.integration_id = i.id
     where ${scope(sql`i.id`)}`);
  for (const row of balances) {
    const [balance, ledger, posted, held] = [Number(row.balance), Number(row.ledger), Number(row.posted), Number(row.held)];
    if (balance !== ledger) add(row.id, 'balance_differs_from_ledger', 1, [], { balance, ledger });
    if (posted !== balance + held) add(row.id, 'posted_differs_from_balance', 1, [], { posted, balance, held });
  }
  await progress();

  // 2. Each capture and its record, in one pass (a full join; records older than the retention
  //    cutoff are purged, so their captures are not expected to find them). A capture that posted
  //    nothing is no charge: free queries were captured at Q 0.00 before they were voided instead.
  const pairs = await handle.rows<{ integration_id: number; without_record: string; without_record_sample: unknown; amount_differs: string; amount_sample: unknown; without_capture: string; without_capture_sample: unknown }>(sql`
    select coalesce(c.integration_id, r.integration_id) as integration_id,
           count(*) filter (where r.id is null) as without_record,
           (array_agg(c.id) filter (where r.id is null))[1:5] as without_record_sample,
           count(*) filter (where r.id is not null and c.id is not null and r.charged_centavos <> -c.posted_centavos) as amount_differs,
           (array_agg(c.id) filter (where r.id is not null and c.id is not null and r.charged_centavos <> -c.posted_centavos))[1:5] as amount_sample,
           count(*) filter (where c.id is null) as without_capture,
           (array_agg(r.id) filter (where c.id is null))[1:5] as without_capture_sample
      from (select e.id, e.integration_id, e.query_record_id, e.posted_centavos from ledger_entries e
             where e.kind = 'capture' and e.posted_centavos <> 0 and e.created_at >= ${cutoff}::timestamptz and ${scope(sql`e.integration_id`)}) c
      full join (select q.id, q.integration_id, q.charged_centavos from query_records q
                  where q.charged_centavos > 0 and q.created_at >= ${cutoff}::timestamptz and ${scope(sql`q.integration_id`)}) r
        on r.id = c.query_record_id
     group by 1
    having count(*) filter (where r.id is null or c.id is null or r.charged_centavos <> -c.posted_centavos) > 0`);
  for (const row of pairs) {
    add(row.integration_id, 'capture_without_record', row.without_record, row.without_record_sample);
    add(row.integration_id, 'capture_amount_differs', row.amount_differs, row.amount_sample);
    add(row.integration_id, 'charged_record_without_capture', row.without_capture, row.without_capture_sample);
  }
  await progress();
  const twice = await handle.rows<{ integration_id: number; records: string; sample: unknown }>(sql`
    select d.integration_id, count(*) as records, (array_agg(d.query_record_id))[1:5] as sample
      from (select e.integration_id, e.query_record_id from ledger_entries e
             where e.kind = 'capture' and e.query_record_id is not null and ${scope(sql`e.integration_id`)}
             group by e.integration_id, e.query_record_id having count(*) > 1) d
     group by d.integration_id`);
  for (const row of twice) add(row.integration_id, 'record_captured_twice', row.records, row.sample);
  // A receipt's charge is written with its receipt, in one statement: a charge whose receipt is not
  // there (within the records' retention; receipts outlive it) was charged for nothing.
  const unreceipted = await handle.rows<{ integration_id: number; charges: string; sample: unknown }>(sql`
    select e.integration_id, count(*) as charges, (array_agg(e.id))[1:5] as sample
      from ledger_entries e
     where e.kind = 'constancia' and e.created_at >= ${cutoff}::timestamptz and ${scope(sql`e.integration_id`)}
       and not exists (select 1 from constancias c where c.request_id = e.request_id and c.integration_id = e.integration_id)
     group by e.integration_id`);
  for (const row of unreceipted) add(row.integration_id, 'receipt_charge_without_receipt', row.charges, row.sample);
  await progress();

  // 3. Holds older than the sweeper's bound that were neither captured nor voided.
  const stale = await handle.rows<{ integration_id: number; holds: string; sample: unknown }>(sql`
    select h.integration_id, count(*) as holds, (array_agg(h.id))[1:5] as sample
      from ledger_entries h
     where h.kind = 'hold' and h.created_at < ${startedAt.toISOString()}::timestamptz - make_interval(secs => ${options.sweepAfterSeconds}::integer)
       and ${scope(sql`h.integration_id`)}
       and not exists (select 1 from ledger_entries s where s.hold_id = h.id)
     group by h.integration_id`);
  for (const row of stale) add(row.integration_id, 'stale_hold', row.holds, row.sample);
  await progress();

  // 4. The hourly checkpoints the balance history starts from, against the ledger.
  const checkpoints = await handle.rows<{ integration_id: number; hours: string; sample: unknown }>(sql`
    with through as (select w.through from job_watermarks w where w.name = 'ledger_hourly_balances'),
    actual as (
      select e.integration_id, date_bin('1 hour', e.created_at, timestamptz '2000-01-01 00:00:00+00') as hour, sum(e.posted_centavos) as posted
        from ledger_entries e
       where ${isPosted('e')} and e.created_at < (select through from through) and ${scope(sql`e.integration_id`)}
       group by 1, 2
    ),
    stored as (
      select c.integration_id, c.hour, c.posted_centavos, c.closing_centavos,
             sum(c.posted_centavos) over (partition by c.integration_id order by c.hour) as running
        from ledger_hourly_balances c where ${scope(sql`c.integration_id`)}
    )
    select coalesce(a.integration_id, s.integration_id) as integration_id, count(*) as hours,
           (array_agg(to_char(coalesce(a.hour, s.hour) at time zone 'UTC', 'YYYY-MM-DD"T"HH24"h"')))[1:5] as sample
      from actual a full join stored s on s.integration_id = a.integration_id and s.hour = a.hour
     where a.posted is distinct from s.posted_centavos or s.closing_centavos <> s.running
     group by 1`);
  for (const row of checkpoints) add(row.integration_id, 'checkpoint_differs', row.hours, row.sample);
  await progress();

  // 5. The books: every payment received is credited (or left for a person, which is named here
  //    until it is settled), every top-up has its invoice or a reason for none, every invoice is
  //    its top-up's amount, every refund has its credit note (lib/core/billing/books.ts).
  for (const finding of await booksFindings(handle, options.integrationId)) add(finding.integrationId, finding.kind, finding.count, finding.sample);

  const finishedAt = new Date(Math.max(Date.now(), startedAt.getTime()));
  for (const difference of differences) log.warn({ difference }, `ledger difference: ${difference.kind} (integration ${difference.integrationId})`);
  const [stored] = await (await db())
    .update(ledgerVerifications)
    .set({ stepsDone: VERIFICATION_STEPS.length, stepName: null, finishedAt, integrationsChecked: balances.length, ok: differences.length === 0, differences })
    .where(eq(ledgerVerifications.id, runId))
    .returning();
  log.info({ integrations: balances.length, differences: differences.length, ms: finishedAt.getTime() - startedAt.getTime() }, 'ledger verified');
  const books = differences.filter((difference) => BOOKS_DIFFERENCES.includes(difference.kind));
  if (books.length > 0) await booksDoNotClose.emit({ runId, findings: books.map(({ integrationId, kind, count }) => ({ integrationId, kind, count })) });
  const entriesChecked = balances.reduce((sum, row) => sum + Number(row.entries), 0);
  return { ...(stored as FinishedVerification), entriesChecked };
}

function parseSample(value: unknown): Array<number | string> {
  const items = Array.isArray(value) ? value : typeof value === 'string' ? value.replace(/[{}"]/g, '').split(',').filter(Boolean) : [];
  return items.map((item) => (typeof item === 'string' && /^\d+$/.test(item) ? Number(item) : (item as number | string)));
}

/** The latest finished reconciliation over everything, for the console. */
export async function latestVerification(): Promise<FinishedVerification | undefined> {
  const [row] = await (await db())
    .select()
    .from(ledgerVerifications)
    .where(and(eq(ledgerVerifications.scope, 'all'), isNotNull(ledgerVerifications.finishedAt), isNull(ledgerVerifications.failure)))
    .orderBy(desc(ledgerVerifications.startedAt))
    .limit(1);
  return row as FinishedVerification | undefined;
}

/** The newest run of any scope and trigger, finished or not: what the Panel reports first. */
export async function newestVerification(): Promise<LedgerVerification | undefined> {
  const [row] = await (await db()).select().from(ledgerVerifications).orderBy(desc(ledgerVerifications.startedAt), desc(ledgerVerifications.id)).limit(1);
  return row;
}

export type VerificationState = 'running' | 'interrupted' | 'failed' | 'ok' | 'differences';

/**
 * Where a run stands. An unfinished run whose process stopped saying it is alive (the instance
 * crashed or was killed mid-run) is interrupted: nothing will finish it.
 */
export function verificationState(run: LedgerVerification, now: Date = new Date()): VerificationState {
  if (run.failure) return 'failed';
  if (run.finishedAt) return run.ok ? 'ok' : 'differences';
  const lastSign = (run.heartbeatAt ?? run.startedAt).getTime();
  return now.getTime() - lastSign > INTERRUPTED_AFTER_MS ? 'interrupted' : 'running';
}
