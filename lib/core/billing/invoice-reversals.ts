// Undoing a certified invoice: a void within SAT's deadline (the due date of the IVA return of the
// month it was issued, lib/providers/fel/void-deadlines.ts), a credit note (NCRE) that references it
// after. The request takes the invoice's amount back from the balance and writes the reversal row,
// whose certifier identifier is fixed there, in one transaction: the invoice worker sends it later.
// The balance never goes below zero: if the integration already spent the money, nothing is written
// and nothing is sent. A second request (a double click, a resend) finds the row and moves nothing.
import { and, eq, isNotNull, ne, or, sql } from 'drizzle-orm';
import { db } from '@/db/client';
import { integrations, invoiceReversals, invoices, ledgerEntries, type Invoice, type InvoiceReversal, type InvoiceReversalKind } from '@/db/schema';
import { describeActor, writeAudit, type Actor } from '@/lib/core/audit/audit';
import { afterBalanceMoved, type Transaction } from './ledger';
import { ok } from '@/lib/platform/result';
import { guatemalanMonthOf, startOfNextGuatemalanDay } from '@/lib/platform/time/guatemala-time';
import { checkReceptor, MAX_VOID_REASON_LENGTH, receptorId } from '@/lib/providers/fel/document';
import { receptorOfIntegration } from '@/lib/core/invoices/receptor';
import { ivaReturnDueDate } from '@/lib/providers/fel/void-deadlines';
import { invoiceReversalMovementNote } from '@/lib/vocabulary/labels';

export type ReversalError = 'invalid' | 'not_found' | 'not_certified' | 'past_deadline' | 'credit_note_exists' | 'already_voided' | 'balance_spent' | 'receptor_unchanged' | 'receptor_refused';

/**
 * Why a reversal was refused, finer than its code, with what the sentence needs: the console and
 * the CLI say it in words (lib/presentation/invoice-messages.ts).
 */
export type ReversalRefusal = { code: ReversalError } & (
  | {
      why:
        | 'reason_invalid'
        | 'not_found'
        | 'not_certified'
        | 'credit_note_exists'
        | 'already_voided'
        | 'replaced'
        | 'correction_under_way'
        | 'correction_after_reversal'
        | 'receptor_unchanged'
        | 'cf_over_limit'
        | 'receptor_invalid';
    }
  | { why: 'past_deadline'; deadline: string }
  | { why: 'balance_spent'; balanceCentavos: number; totalCentavos: number }
);

/** A reversal's outcome: its value, or why it was refused. */
export type ReversalResult<T> = { ok: true; value: T } | { ok: false; error: ReversalRefusal };

const refuse = (error: ReversalRefusal): { ok: false; error: ReversalRefusal } => ({ ok: false, error });
const refused = (code: ReversalError, why: Exclude<ReversalRefusal['why'], 'past_deadline' | 'balance_spent'>) => refuse({ code, why } as ReversalRefusal);

/** The last day (YYYY-MM-DD, Guatemala) on which an invoice emitted then may be voided. */
export function voidDeadlineOf(emittedAt: Date): string {
  return ivaReturnDueDate(guatemalanMonthOf(emittedAt)).day;
}

/** Whether a void is still in time at `now`: through the whole deadline day, Guatemala's time. */
export function isVoidable(emittedAt: Date, now = new Date()): boolean {
  return now.getTime() < startOfNextGuatemalanDay(voidDeadlineOf(emittedAt)).getTime();
}

export interface RequestedReversal {
  reversal: InvoiceReversal;
  /** False when it had been requested before: nothing moved this time. */
  created: boolean;
  balanceCentavos: number;
}

/** Voids a certified invoice within SAT's deadline; after it, refused with the date. */
export function requestVoid(actor: Actor, invoiceId: number, reason: string, now = new Date()): Promise<ReversalResult<RequestedReversal>> {
  return requestReversal('void', actor, invoiceId, reason, now);
}

/** Issues a credit note (NCRE) for the whole of a certified invoice, referencing it. */
export function requestCreditNote(actor: Actor, invoiceId: number, reason: string, now = new Date()): Promise<ReversalResult<RequestedReversal>> {
  return requestReversal('credit_note', actor, invoiceId, reason, now);
}

function validReason(rawReason: string): string | null {
  const reason = rawReason.trim();
  return reason.length < 1 || reason.length > MAX_VOID_REASON_LENGTH || /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/.test(reason) ? null : reason;
}

async function requestReversal(kind: InvoiceReversalKind, actor: Actor, invoiceId: number, rawReason: string, now: Date): Promise<ReversalResult<RequestedReversal>> {
  const reason = validReason(rawReason);
  if (reason === null) return refused('invalid', 'reason_invalid');
  const handle = await db();
  const [invoice] = await handle.select().from(invoices).where(eq(invoices.id, invoiceId));
  if (!invoice) return refused('not_found', 'not_found');
  if (invoice.state !== 'certified' || !invoice.uuid) return refused('not_certified', 'not_certified');
  if (kind === 'void' && !isVoidable(invoice.emittedAt, now)) return refuse({ code: 'past_deadline', why: 'past_deadline', deadline: voidDeadlineOf(invoice.emittedAt) });

  const result = await handle.transaction(async (tx): Promise<ReversalResult<RequestedReversal & { moved: typeof integrations.$inferSelect | null }>> => {
    // Every balance change locks the integration first: two requests for one invoice take turns here.
    const [integration] = await tx.select().from(integrations).where(eq(integrations.id, invoice.integrationId)).for('update');
    if (!integration) return refused('not_found', 'not_found');
    const [live] = await tx.select().from(invoiceReversals).where(and(eq(invoiceReversals.invoiceId, invoiceId), ne(invoiceReversals.state, 'refused')));
    if (live?.correctionReceptorKind) return refused(live.kind === 'credit_note' ? 'credit_note_exists' : 'already_voided', live.state === 'done' ? 'replaced' : 'correction_under_way');
    if (live) {
      if (live.kind === kind) return ok({ reversal: live, created: false, balanceCentavos: integration.balanceCentavos, moved: null });
      return refused(live.kind === 'credit_note' ? 'credit_note_exists' : 'already_voided', live.kind === 'credit_note' ? 'credit_note_exists' : 'already_voided');
    }
    const amount = invoice.totalCentavos;
    if (integration.balanceCentavos < amount) return refuse({ code: 'balance_spent', why: 'balance_spent', balanceCentavos: integration.balanceCentavos, totalCentavos: amount });
    const [after] = await tx
      .update(integrations)
      .set({ balanceCentavos: sql`${integrations.balanceCentavos} - ${amount}`, updatedAt: sql`now()` })
      .where(eq(integrations.id, integration.id))
      .returning();
    const numbers = `${invoice.serie}-${invoice.numero}`;
    const auditId = await writeAudit(tx, actor, {
      action: kind === 'void' ? 'invoice.void' : 'invoice.credit_note',
      targetType: 'integration',
      targetId: integration.id,
      before: { balanceCentavos: integration.balanceCentavos },
      after: { balanceCentavos: after!.balanceCentavos, amountCentavos: -amount, invoiceId, invoice: numbers, reason },
    });
    const note = invoiceReversalMovementNote(kind, numbers, reason).slice(0, 500);
    const [entry] = await tx
      .insert(ledgerEntries)
      .values({ integrationId: integration.id, kind: 'adjustment', amountCentavos: -amount, postedCentavos: -amount, actor: describeActor(actor), note, auditId })
      .returning();
    const [reversal] = await tx
      .insert(invoiceReversals)
      .values({ invoiceId, integrationId: integration.id, kind, reason, requestedAt: now, amountCentavos: amount, ledgerEntryId: entry!.id, requestedBy: describeActor(actor) })
      .returning();
    // The invoice's standing, which its lists show and filter by, moves with its reversal.
    await tx.update(invoices).set({ reversal: kind === 'void' ? 'void_pending' : 'credit_note_pending' }).where(eq(invoices.id, invoiceId));
    return ok({ reversal: reversal!, created: true, balanceCentavos: after!.balanceCentavos, moved: after! });
  });
  if (!result.ok) return result;
  const { moved, ...requested } = result.value;
  if (moved) await afterBalanceMoved(moved, -requested.reversal.amountCentavos);
  return ok(requested);
}

/**
 * A credit note of a certified invoice (for `amountCentavos`, all or part of it) whose amount already
 * left the balance by the caller's own entry (a refund of an online payment): written in the caller's transaction, moving nothing, and
 * refused by the certifier it moves nothing either (it waits to be corrected: the money already went
 * back to the customer). The invoice may carry one live reversal, as for any other.
 */
export async function requestCreditNoteForEntryWithin(tx: Transaction, actor: Actor, invoice: Invoice, reason: string, ledgerEntryId: number, amountCentavos: number, now: Date): Promise<ReversalResult<InvoiceReversal>> {
  if (invoice.state !== 'certified' || !invoice.uuid) return refused('not_certified', 'not_certified');
  // The console's own void or credit note excludes any other; several of these (one per part
  // refunded) may stand together, adding up to at most the invoice (the caller checks it).
  const [live] = await tx
    .select()
    .from(invoiceReversals)
    .where(and(eq(invoiceReversals.invoiceId, invoice.id), ne(invoiceReversals.state, 'refused'), or(eq(invoiceReversals.returnsOnRefusal, true), isNotNull(invoiceReversals.correctionReceptorKind))));
  if (live?.correctionReceptorKind) return refused('already_voided', live.state === 'done' ? 'replaced' : 'correction_under_way');
  if (live) return refused(live.kind === 'credit_note' ? 'credit_note_exists' : 'already_voided', live.kind === 'credit_note' ? 'credit_note_exists' : 'already_voided');
  const [reversal] = await tx
    .insert(invoiceReversals)
    .values({ invoiceId: invoice.id, integrationId: invoice.integrationId, kind: 'credit_note', reason, requestedAt: now, amountCentavos, ledgerEntryId, requestedBy: describeActor(actor), returnsOnRefusal: false })
    .returning();
  await tx.update(invoices).set({ reversal: 'credit_note_pending' }).where(eq(invoices.id, invoice.id));
  return ok(reversal!);
}

/**
 * «Corregir receptor»: a certified invoice reissued, for the same sale and amount, to whom the
 * integration's billing data names now. Its void (within SAT's deadline) or its credit note (after
 * it) is written here with no ledger entry, since the sale stays paid; once the certifier took it,
 * the worker writes the replacing invoice in the same transaction (lib/flows/invoicing/reversals.ts).
 * A second request, from any instance, finds the live correction and writes nothing.
 */
export async function requestReceptorCorrection(actor: Actor, invoiceId: number, rawReason: string, now = new Date()): Promise<ReversalResult<RequestedReversal>> {
  const reason = validReason(rawReason);
  if (reason === null) return refused('invalid', 'reason_invalid');
  return (await db()).transaction(async (tx): Promise<ReversalResult<RequestedReversal>> => {
    const [found] = await tx.select({ integrationId: invoices.integrationId }).from(invoices).where(eq(invoices.id, invoiceId));
    if (!found) return refused('not_found', 'not_found');
    // The integration first, as every request that writes a reversal locks it: they take turns.
    const [integration] = await tx.select().from(integrations).where(eq(integrations.id, found.integrationId)).for('update');
    const [invoice] = await tx.select().from(invoices).where(eq(invoices.id, invoiceId)).for('update');
    if (!integration || !invoice) return refused('not_found', 'not_found');
    const [live] = await tx.select().from(invoiceReversals).where(and(eq(invoiceReversals.invoiceId, invoiceId), ne(invoiceReversals.state, 'refused')));
    if (live?.correctionReceptorKind) return ok({ reversal: live, created: false, balanceCentavos: integration.balanceCentavos });
    if (live) return refused(live.kind === 'credit_note' ? 'credit_note_exists' : 'already_voided', 'correction_after_reversal');
    if (invoice.state !== 'certified' || !invoice.uuid) return refused('not_certified', 'not_certified');
    const checked = checkReceptor(receptorOfIntegration(integration), invoice.totalCentavos);
    if (!checked.ok) return refused('receptor_refused', checked.problem.code === 'cf_over_limit' ? 'cf_over_limit' : 'receptor_invalid');
    const receptor = checked.receptor;
    const corrected = { kind: receptor.kind, id: receptorId(receptor), name: receptor.kind === 'cf' ? null : receptor.name };
    if (corrected.kind === invoice.receptorKind && corrected.id === invoice.receptorId && corrected.name === invoice.receptorName) {
      return refused('receptor_unchanged', 'receptor_unchanged');
    }
    const kind: InvoiceReversalKind = isVoidable(invoice.emittedAt, now) ? 'void' : 'credit_note';
    const [reversal] = await tx
      .insert(invoiceReversals)
      .values({
        invoiceId,
        integrationId: integration.id,
        kind,
        reason,
        requestedAt: now,
        amountCentavos: invoice.totalCentavos,
        ledgerEntryId: null,
        returnsOnRefusal: false,
        correctionReceptorKind: corrected.kind,
        correctionReceptorId: corrected.id,
        correctionReceptorName: corrected.name,
        requestedBy: describeActor(actor),
      })
      .returning();
    await tx.update(invoices).set({ reversal: 'correction_pending' }).where(eq(invoices.id, invoiceId));
    await writeAudit(tx, actor, {
      action: 'invoice.correct_receptor',
      targetType: 'integration',
      targetId: integration.id,
      before: { invoiceId, invoice: `${invoice.serie}-${invoice.numero}`, receptorKind: invoice.receptorKind, receptorId: invoice.receptorId, receptorName: invoice.receptorName },
      after: { invoiceId, reversal: kind, reason, receptorKind: corrected.kind, receptorId: corrected.id, receptorName: corrected.name },
    });
    return ok({ reversal: reversal!, created: true, balanceCentavos: integration.balanceCentavos });
  });
}
