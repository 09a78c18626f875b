import { and, asc, desc, eq, inArray, lt, ne, or, sql } from 'drizzle-orm';
import { db } from '@/db/client';
import { integrations, invoiceReversals, invoices, ledgerEntries, onlinePaymentRefunds, onlinePayments, type ConsoleRole, type InvoiceReversal, type OnlinePaymentRefund } from '@/db/schema';
import { describeActor, writeAudit, type Actor } from '@/lib/core/audit/audit';
import { requestCreditNoteForEntryWithin } from '@/lib/core/billing/invoice-reversals';
import { afterBalanceMoved, type Transaction } from '@/lib/core/billing/ledger';
import { retryCreditNote } from '@/lib/flows/invoicing/corrections';
import { logger } from '@/lib/platform/logging/logger';
import { fail, ok, type Result } from '@/lib/platform/result';
import { MAX_VOID_REASON_LENGTH } from '@/lib/providers/fel/document';
import type { PaymentProvider, RefundOutcome } from '@/lib/providers/payments/provider';
import { REFUND_MESSAGES, refundBalanceSpentMessage, refundOverLeftMessage } from './messages';
import { NO_REFUNDS, type RefundSummary } from './labels';

// An administrator refunds a credited online payment, the whole of it or parts. The refund's row and
// the ledger entry that takes the amount back from the balance are committed before the provider is
// called (one open refund per payment, under the payment's row lock: a double click, a resend or
// another instance finds that row instead of refunding again), so the money cannot be spent while
// the refund is under way, and the parts never add up to more than was credited.
// The provider is asked once: an unclear answer is settled by reading the payment's refunded amount,
// never by sending again. Refunded: the invoice's credit note is written on the same entry (nothing
// moves twice). Not refunded: the amount goes back to the balance, once. The credit note has its own
// state: one the certifier refuses gives nothing back (the customer has the money) and waits to be
// retried with the same identifier.

const log = logger('online-top-ups');

/** Longer than the adapter's longest call: a `requested` refund older than this is not being sent. */
const REQUESTED_SETTLE_AFTER_MS = 5 * 60_000;

export type RefundError = 'forbidden' | 'off' | 'invalid' | 'not_found' | 'not_credited' | 'not_invoiced' | 'invoice_reversed' | 'balance_spent' | 'over_left' | 'fully_refunded' | 'partial_unsupported';

export interface RefundStaff {
  role: ConsoleRole;
  actor: Extract<Actor, { kind: 'user' }>;
}

export interface RefundResult {
  refund: OnlinePaymentRefund;
  /** False when the payment had a refund under way already: nothing was sent this time. */
  created: boolean;
}

/** Refunds that took money from the balance and did not give it back: under way or done. */
const HOLDING: OnlinePaymentRefund['state'][] = ['requested', 'indeterminate', 'done'];

/** What may still be refunded of a credited payment: its amount less every refund not failed. */
export function refundableLeft(payment: { amountCentavos: number }, refunds: { state: OnlinePaymentRefund['state']; amountCentavos: number }[]): number {
  return payment.amountCentavos - refunds.filter((refund) => HOLDING.includes(refund.state)).reduce((sum, refund) => sum + refund.amountCentavos, 0);
}

/**
 * Refunds `amountCentavos` of a credited online payment (all that is left when omitted). Several
 * parts may be refunded, one at a time, adding up to at most the credited amount: the payment's row
 * is locked while the sum is checked and the refund written. The whole payment (nothing refunded
 * before) is refunded whole at the provider, fee included; a part is refunded exactly.
 */
export async function refundOnlinePayment(
  provider: PaymentProvider | null,
  staff: RefundStaff,
  paymentId: string,
  rawReason: string,
  amountCentavos?: number,
  now = new Date(),
): Promise<Result<RefundResult, RefundError>> {
  if (staff.role !== 'admin') return fail('forbidden', REFUND_MESSAGES.forbidden);
  if (provider === null) return fail('off', REFUND_MESSAGES.off);
  const reason = rawReason.trim();
  if (reason.length < 1 || reason.length > MAX_VOID_REASON_LENGTH || /[\u0000-\u001F]/.test(reason)) return fail('invalid', REFUND_MESSAGES.reasonInvalid);
  if (amountCentavos !== undefined && (!Number.isSafeInteger(amountCentavos) || amountCentavos <= 0)) return fail('invalid', REFUND_MESSAGES.amountInvalid);
  const handle = await db();
  const claimed = await handle.transaction(async (tx): Promise<Result<{ refund: OnlinePaymentRefund; created: boolean; moved: typeof integrations.$inferSelect | null }, RefundError>> => {
    const [payment] = await tx.select().from(onlinePayments).where(eq(onlinePayments.id, paymentId)).for('update');
    if (!payment) return fail('not_found', REFUND_MESSAGES.notFound);
    const earlier = await tx.select().from(onlinePaymentRefunds).where(eq(onlinePaymentRefunds.onlinePaymentId, payment.id));
    // One under way at a time: a second click or another administrator finds it and sends nothing.
    const open = earlier.find((refund) => refund.state === 'requested' || refund.state === 'indeterminate');
    if (open) return ok({ refund: open, created: false, moved: null });
    if (payment.state !== 'credited' || payment.ledgerEntryId === null || payment.providerPaymentId === null) return fail('not_credited', REFUND_MESSAGES.notCredited);
    const left = refundableLeft(payment, earlier);
    if (left <= 0) return fail('fully_refunded', REFUND_MESSAGES.fullyRefunded);
    const amount = amountCentavos ?? left;
    if (amount > left) return fail('over_left', refundOverLeftMessage(left));
    const whole = amount === payment.amountCentavos;
    if (!whole && provider.partialRefunds !== true) return fail('partial_unsupported', REFUND_MESSAGES.partialUnsupported);
    // The sale's current invoice: the last one, which replaced any corrected before it.
    const [invoice] = await tx.select().from(invoices).where(eq(invoices.ledgerEntryId, payment.ledgerEntryId)).orderBy(desc(invoices.id)).limit(1);
    if (!invoice || invoice.state !== 'certified') return fail('not_invoiced', REFUND_MESSAGES.notInvoiced);
    if (invoice.reversal === 'correction_pending') return fail('invoice_reversed', REFUND_MESSAGES.invoiceCorrectionUnderWay);
    // Every balance change locks the integration first; a console void or credit note of the
    // invoice takes the same lock, so it and a refund never both take the amount.
    const [integration] = await tx.select().from(integrations).where(eq(integrations.id, payment.integrationId)).for('update');
    const [reversed] = await tx
      .select({ id: invoiceReversals.id })
      .from(invoiceReversals)
      .where(and(eq(invoiceReversals.invoiceId, invoice.id), ne(invoiceReversals.state, 'refused'), eq(invoiceReversals.returnsOnRefusal, true)));
    if (reversed) return fail('invoice_reversed', REFUND_MESSAGES.invoiceReversed);
    // The balance never goes below zero: a refund larger than it is refused, a part it covers is not.
    if (integration!.balanceCentavos < amount) return fail('balance_spent', refundBalanceSpentMessage(integration!.balanceCentavos, amount));
    const [after] = await tx
      .update(integrations)
      .set({ balanceCentavos: sql`${integrations.balanceCentavos} - ${amount}`, updatedAt: sql`now()` })
      .where(eq(integrations.id, integration!.id))
      .returning();
    const auditId = await writeAudit(tx, staff.actor, {
      action: 'online_top_up.refund',
      targetType: 'integration',
      targetId: payment.integrationId,
      before: { balanceCentavos: integration!.balanceCentavos },
      after: { balanceCentavos: after!.balanceCentavos, amountCentavos: -amount, onlinePaymentId: payment.id, providerPaymentId: payment.providerPaymentId, whole, reason },
    });
    const [entry] = await tx
      .insert(ledgerEntries)
      .values({ integrationId: payment.integrationId, kind: 'adjustment', amountCentavos: -amount, postedCentavos: -amount, actor: describeActor(staff.actor), note: `Reembolso del pago en línea ${payment.id}: ${reason}`.slice(0, 500), auditId })
      .returning();
    const [refund] = await tx
      .insert(onlinePaymentRefunds)
      .values({ onlinePaymentId: payment.id, integrationId: payment.integrationId, amountCentavos: amount, whole, reason, requestedBy: describeActor(staff.actor), ledgerEntryId: entry!.id })
      .returning();
    return ok({ refund: refund!, created: true, moved: after! });
  });
  if (!claimed.ok) return claimed;
  const { refund, created, moved } = claimed.value;
  if (moved) await afterBalanceMoved(moved, -refund.amountCentavos);
  if (!created) {
    // Asked again: a refund still open is settled by reading, never sent a second time.
    return ok({ refund: await settleRefundByRead(provider, refund.id, now), created: false });
  }
  const [payment] = await handle.select({ providerPaymentId: onlinePayments.providerPaymentId }).from(onlinePayments).where(eq(onlinePayments.id, refund.onlinePaymentId));
  const outcome = await provider.refund({ paymentId: payment!.providerPaymentId!, amountCentavos: refund.whole ? null : refund.amountCentavos });
  return ok({ refund: await applyRefundOutcome(staff.actor, refund.id, outcome, now), created: true });
}

async function applyRefundOutcome(actor: Actor, refundId: number, outcome: RefundOutcome, now: Date): Promise<OnlinePaymentRefund> {
  switch (outcome.kind) {
    case 'refunded':
      return finish(actor, refundId, { kind: 'done', providerRefundId: outcome.refundId, detail: `refund ${outcome.status}` }, now);
    case 'indeterminate':
      return finish(actor, refundId, { kind: 'indeterminate', detail: `refund: ${outcome.reason}` }, now);
    default:
      // Nothing was refunded (a refusal, a retry-later, wrong keys, a partial refund not taken).
      return finish(actor, refundId, { kind: 'failed', detail: `refund: ${outcome.kind}` }, now);
  }
}

/**
 * Settles a refund still open (`requested` by a call that never finished, or `indeterminate`) by
 * reading the payment's refunded amount: all of it refunded is done; nothing refunded is failed (the
 * provider did not act); a read that fails changes nothing.
 */
export async function settleRefundByRead(provider: PaymentProvider, refundId: number, now = new Date()): Promise<OnlinePaymentRefund> {
  const handle = await db();
  const [row] = await handle
    .select({ refund: onlinePaymentRefunds, providerPaymentId: onlinePayments.providerPaymentId, paymentCentavos: onlinePayments.amountCentavos, feeCentavos: onlinePayments.feeCentavos })
    .from(onlinePaymentRefunds)
    .innerJoin(onlinePayments, eq(onlinePayments.id, onlinePaymentRefunds.onlinePaymentId))
    .where(eq(onlinePaymentRefunds.id, refundId));
  if (!row) throw new Error(`no online payment refund ${refundId}`);
  if (row.refund.state !== 'requested' && row.refund.state !== 'indeterminate') return row.refund;
  // A refund just requested may still be on its way to the provider from another instance: reading
  // "nothing refunded" then would give the money back while it leaves.
  if (row.refund.state === 'requested' && now.getTime() - row.refund.createdAt.getTime() < REQUESTED_SETTLE_AFTER_MS) return row.refund;
  const read = await provider.readPayment(row.providerPaymentId!);
  if (read.kind !== 'found' || read.state.kind !== 'approved') {
    log.warn({ refundId, outcome: read.kind }, 'an online payment refund could not be settled by reading its payment');
    return row.refund;
  }
  // What the provider returns for a refund: the whole payment with its fee, or exactly the part.
  const atProvider = (refund: OnlinePaymentRefund) => (refund.whole ? row.paymentCentavos + row.feeCentavos : refund.amountCentavos);
  // This is the payment's only open refund (one at a time), so what the provider refunded beyond
  // the refunds already done is this one's, or nothing.
  const done = await handle
    .select()
    .from(onlinePaymentRefunds)
    .where(and(eq(onlinePaymentRefunds.onlinePaymentId, row.refund.onlinePaymentId), eq(onlinePaymentRefunds.state, 'done')));
  const before = done.reduce((sum, refund) => sum + atProvider(refund), 0);
  const refunded = read.state.refundedCentavos;
  const actor: Actor = { kind: 'system', name: 'online-payment-refunds' };
  if (refunded >= before + atProvider(row.refund)) return finish(actor, refundId, { kind: 'done', providerRefundId: null, detail: `read: refunded ${refunded}` }, now);
  if (refunded <= before) return finish(actor, refundId, { kind: 'failed', detail: `read: nothing refunded of this one (${refunded} in all)` }, now);
  // Part of it refunded: not what we asked; support decides from the detail.
  return finish(actor, refundId, { kind: 'indeterminate', detail: `read: refunded ${refunded} of ${read.state.amountCentavos}, ${before} before this refund` }, now);
}

/**
 * One pass over the refunds left open (an unclear answer, or a call that never finished): each
 * settled by reading its payment, never by sending it again. Part of the online payments' poller,
 * so a stuck refund settles whether or not anyone opens its page.
 */
export async function pollOpenRefunds(provider: PaymentProvider, now = new Date(), limit = 100): Promise<number> {
  const open = await (await db())
    .select({ id: onlinePaymentRefunds.id })
    .from(onlinePaymentRefunds)
    .innerJoin(onlinePayments, eq(onlinePayments.id, onlinePaymentRefunds.onlinePaymentId))
    .where(
      and(
        eq(onlinePayments.provider, provider.name),
        or(
          eq(onlinePaymentRefunds.state, 'indeterminate'),
          and(eq(onlinePaymentRefunds.state, 'requested'), lt(onlinePaymentRefunds.createdAt, new Date(now.getTime() - REQUESTED_SETTLE_AFTER_MS))),
        ),
      ),
    )
    .orderBy(asc(onlinePaymentRefunds.id))
    .limit(limit);
  let settled = 0;
  for (const { id } of open) {
    try {
      const refund = await settleRefundByRead(provider, id, now);
      if (refund.state === 'done' || refund.state === 'failed') settled++;
    } catch (error) {
      // One refund that cannot be settled never holds up the others.
      log.error({ err: error, refundId: id }, 'settling an online payment refund by reading it failed');
    }
  }
  return settled;
}

type Finish = { kind: 'done'; providerRefundId: string | null; detail: string } | { kind: 'failed'; detail: string } | { kind: 'indeterminate'; detail: string };

async function finish(actor: Actor, refundId: number, to: Finish, now: Date): Promise<OnlinePaymentRefund> {
  const handle = await db();
  let returned: typeof integrations.$inferSelect | null = null;
  const refund = await handle.transaction(async (tx): Promise<OnlinePaymentRefund> => {
    // Only an open refund moves: a reader and the original call racing each other finish it once.
    const [open] = await tx
      .select()
      .from(onlinePaymentRefunds)
      .where(and(eq(onlinePaymentRefunds.id, refundId), inArray(onlinePaymentRefunds.state, ['requested', 'indeterminate'])))
      .for('update');
    if (!open) return (await tx.select().from(onlinePaymentRefunds).where(eq(onlinePaymentRefunds.id, refundId)))[0]!;
    if (to.kind === 'indeterminate') return update(tx, refundId, { state: 'indeterminate', detail: to.detail });
    if (to.kind === 'done') {
      const [payment] = await tx.select({ ledgerEntryId: onlinePayments.ledgerEntryId }).from(onlinePayments).where(eq(onlinePayments.id, open.onlinePaymentId));
      const [invoice] = await tx.select().from(invoices).where(eq(invoices.ledgerEntryId, payment!.ledgerEntryId!)).orderBy(desc(invoices.id)).limit(1);
      const note = await requestCreditNoteForEntryWithin(tx, actor, invoice!, `Reembolso del pago en línea: ${open.reason}`.slice(0, MAX_VOID_REASON_LENGTH), open.ledgerEntryId, open.amountCentavos, now);
      if (!note.ok) log.error({ refundId, code: note.error.code }, 'a refunded online payment’s credit note could not be written');
      return update(tx, refundId, { state: 'done', providerRefundId: to.providerRefundId ?? open.providerRefundId, detail: to.detail, invoiceReversalId: note.ok ? note.value.id : null, settledAt: now });
    }
    const [integration] = await tx.select().from(integrations).where(eq(integrations.id, open.integrationId)).for('update');
    const [after] = await tx
      .update(integrations)
      .set({ balanceCentavos: sql`${integrations.balanceCentavos} + ${open.amountCentavos}`, updatedAt: sql`now()` })
      .where(eq(integrations.id, open.integrationId))
      .returning();
    const auditId = await writeAudit(tx, actor, {
      action: 'online_top_up.refund_failed',
      targetType: 'integration',
      targetId: open.integrationId,
      before: { balanceCentavos: integration!.balanceCentavos },
      after: { balanceCentavos: after!.balanceCentavos, amountCentavos: open.amountCentavos, onlinePaymentId: open.onlinePaymentId, detail: to.detail },
    });
    const [entry] = await tx
      .insert(ledgerEntries)
      .values({ integrationId: open.integrationId, kind: 'adjustment', amountCentavos: open.amountCentavos, postedCentavos: open.amountCentavos, actor: describeActor(actor), note: `Devolución: el proveedor no reembolsó el pago en línea ${open.onlinePaymentId}.`, auditId })
      .returning();
    returned = after!;
    return update(tx, refundId, { state: 'failed', detail: to.detail, returnedEntryId: entry!.id, settledAt: now });
  });
  if (returned) await afterBalanceMoved(returned, refund.amountCentavos);
  return refund;
}

async function update(tx: Transaction, refundId: number, values: Partial<typeof onlinePaymentRefunds.$inferInsert>): Promise<OnlinePaymentRefund> {
  const [row] = await tx
    .update(onlinePaymentRefunds)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(onlinePaymentRefunds.id, refundId))
    .returning();
  return row!;
}

/** A refund with its credit note: two states, the money's (the refund's) and the document's. */
export type OnlinePaymentRefundView = OnlinePaymentRefund & { creditNote: InvoiceReversal | null };

/** The payment's refunds, oldest first, each with its credit note (the console's payment page). */
export async function refundsOfOnlinePayment(paymentId: string): Promise<OnlinePaymentRefundView[]> {
  const rows = await (await db())
    .select({ refund: onlinePaymentRefunds, creditNote: invoiceReversals })
    .from(onlinePaymentRefunds)
    .leftJoin(invoiceReversals, eq(invoiceReversals.id, onlinePaymentRefunds.invoiceReversalId))
    .where(eq(onlinePaymentRefunds.onlinePaymentId, paymentId))
    .orderBy(asc(onlinePaymentRefunds.id));
  return rows.map((row) => ({ ...row.refund, creditNote: row.creditNote }));
}

/**
 * Sends a refund's credit note again after the certifier refused it, with the same identifier. It
 * moves no money: the refund's amount left the balance once and stays out.
 */
export async function retryRefundCreditNote(actor: Actor, refundId: number, now = new Date()): Promise<Result<{ queued: boolean }, 'not_found' | 'not_to_correct'>> {
  const [refund] = await (await db()).select().from(onlinePaymentRefunds).where(eq(onlinePaymentRefunds.id, refundId));
  if (!refund || refund.invoiceReversalId === null) return fail('not_found', REFUND_MESSAGES.creditNoteNotFound);
  const retried = await retryCreditNote(actor, refund.invoiceReversalId, now);
  if (retried === null) return fail('not_found', REFUND_MESSAGES.creditNoteNotFound);
  return ok({ queued: retried.queued });
}

/** Each payment's refunds summed (what was given back, and whether one is under way), for the lists and pages. */
export async function refundSummaries(paymentIds: string[]): Promise<Map<string, RefundSummary>> {
  const summaries = new Map<string, RefundSummary>();
  if (paymentIds.length === 0) return summaries;
  const rows = await (await db())
    .select({ paymentId: onlinePaymentRefunds.onlinePaymentId, state: onlinePaymentRefunds.state, amountCentavos: onlinePaymentRefunds.amountCentavos, settledAt: onlinePaymentRefunds.settledAt })
    .from(onlinePaymentRefunds)
    .where(inArray(onlinePaymentRefunds.onlinePaymentId, paymentIds));
  for (const row of rows) {
    const summary = summaries.get(row.paymentId) ?? { ...NO_REFUNDS };
    if (row.state === 'done') {
      summary.refundedCentavos += row.amountCentavos;
      if (row.settledAt && (!summary.lastDoneAt || row.settledAt > summary.lastDoneAt)) summary.lastDoneAt = row.settledAt;
    }
    if (row.state === 'requested' || row.state === 'indeterminate') summary.open = true;
    summaries.set(row.paymentId, summary);
  }
  return summaries;
}
