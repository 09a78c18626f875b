import { eq, sql } from 'drizzle-orm';
import { database, db, type Database } from '@/db/client';
import { integrations, ledgerEntries, type Integration, type LedgerEntry } from '@/db/schema';
import { describeActor, writeAudit, type Actor } from '@/lib/core/audit/audit';
import { adjustmentCentavosProblem, ledgerNoteProblem, positiveCentavosProblem, type AdjustmentProblem, type AmountProblem, type NoteProblem } from '@/lib/core/integrations/schemas';
import { notifyIntegrationChanged } from '@/lib/core/integrations/directory';
import { invoicingDecisionFor } from '@/lib/core/invoices/decision';
import { AWAITING_DECISION, planSaleInvoice, writeSaleInvoice } from '@/lib/core/invoices/sales';
import { ok } from '@/lib/platform/result';
import { balanceMayBeShort, saleAwaitsReceptor } from './events';

export type BalanceError = 'invalid' | 'not_found' | 'insufficient_balance';

/** Why a movement was refused, as lib/presentation/balance-refusals.ts words it for people. */
export type BalanceRefusalReason = AmountProblem | AdjustmentProblem | NoteProblem | 'integration_missing' | 'below_zero';

/** A refused movement: its code, why, and a diagnostic in English for logs (never shown to people). */
export interface BalanceRefusal {
  code: BalanceError;
  why: BalanceRefusalReason;
  integrationId: number;
  message: string;
}

/** A movement's outcome: what it did, or why it was refused. */
export type BalanceResult<T> = { ok: true; value: T } | { ok: false; error: BalanceRefusal };

function refused(code: BalanceError, why: BalanceRefusalReason, integrationId: number): { ok: false; error: BalanceRefusal } {
  return { ok: false, error: { code, why, integrationId, message: `balance movement refused for integration ${integrationId}: ${why}` } };
}

export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

/** Adds prepaid money to an integration (positive amount, with a note saying why). */
export function topUp(actor: Actor, integrationId: number, amountCentavos: number, note: string) {
  const problem = positiveCentavosProblem(amountCentavos);
  if (problem) return Promise.resolve(refused('invalid', problem, integrationId));
  return moveBalance(actor, integrationId, 'top_up', amountCentavos, note);
}

/** Corrects a balance up or down; it can never take the balance below zero. */
export function adjustBalance(actor: Actor, integrationId: number, amountCentavos: number, note: string) {
  const problem = adjustmentCentavosProblem(amountCentavos);
  if (problem) return Promise.resolve(refused('invalid', problem, integrationId));
  return moveBalance(actor, integrationId, 'adjustment', amountCentavos, note);
}

/**
 * `invoiceAwaitsReceptor`: the top-up was credited and its invoice waits for the integration's NIT;
 * `invoiceDeferred`: no app instance has said yet whether top-ups are invoiced, so the first one decides.
 */
type MovedBalance = { balanceCentavos: number; entry: LedgerEntry; integration: Integration; invoiceAwaitsReceptor: boolean; invoiceDeferred: boolean };

async function moveBalance(
  actor: Actor,
  integrationId: number,
  kind: 'top_up' | 'adjustment',
  amountCentavos: number,
  rawNote: string,
): Promise<BalanceResult<{ balanceCentavos: number; entry: LedgerEntry; invoiceAwaitsReceptor: boolean; invoiceDeferred: boolean }>> {
  const result = await (await db()).transaction((tx) => moveBalanceWithin(tx, actor, integrationId, kind, amountCentavos, rawNote));
  if (!result.ok) return result;
  await afterBalanceMoved(result.value.integration, amountCentavos, result.value);
  return ok({ balanceCentavos: result.value.balanceCentavos, entry: result.value.entry, invoiceAwaitsReceptor: result.value.invoiceAwaitsReceptor, invoiceDeferred: result.value.invoiceDeferred });
}

/**
 * A top-up written inside the caller's transaction: the console's manual top-up and an approved
 * top-up request (lib/flows/top-ups) credit through this one path, so a request's state change and its
 * money commit together. The caller calls `afterBalanceMoved` once its transaction committed.
 */
export function topUpWithin(tx: Transaction, actor: Actor, integrationId: number, amountCentavos: number, note: string) {
  const problem = positiveCentavosProblem(amountCentavos);
  if (problem) return Promise.resolve(refused('invalid', problem, integrationId));
  return moveBalanceWithin(tx, actor, integrationId, 'top_up', amountCentavos, note);
}

async function moveBalanceWithin(
  tx: Transaction,
  actor: Actor,
  integrationId: number,
  kind: 'top_up' | 'adjustment',
  amountCentavos: number,
  rawNote: string,
): Promise<BalanceResult<MovedBalance>> {
  const note = rawNote.trim();
  const noteProblem = ledgerNoteProblem(note);
  if (noteProblem) return refused('invalid', noteProblem, integrationId);
  const [before] = await tx.select().from(integrations).where(eq(integrations.id, integrationId)).for('update');
  if (!before) return refused('not_found', 'integration_missing', integrationId);
  if (before.balanceCentavos + amountCentavos < 0) return refused('insufficient_balance', 'below_zero', integrationId);
  // A top-up is a sale: its invoice is planned before anything is written, and written with it.
  const invoice = kind === 'top_up' ? planSaleInvoice(before, amountCentavos, await invoicingDecisionFor(tx)) : ({ kind: 'off' } as const);
  const [after] = await tx
    .update(integrations)
    .set({ balanceCentavos: sql`${integrations.balanceCentavos} + ${amountCentavos}`, updatedAt: sql`now()` })
    .where(eq(integrations.id, integrationId))
    .returning();
  const auditId = await writeAudit(tx, actor, {
    action: kind === 'top_up' ? 'balance.top_up' : 'balance.adjust',
    targetType: 'integration',
    targetId: integrationId,
    before: { balanceCentavos: before.balanceCentavos },
    after: { balanceCentavos: after!.balanceCentavos, amountCentavos, note: note },
  });
  const [entry] = await tx
    .insert(ledgerEntries)
    .values({ integrationId, kind, amountCentavos, postedCentavos: amountCentavos, actor: describeActor(actor), note: note, auditId, noInvoiceReason: noInvoiceReasonOf(kind, invoice) })
    .returning();
  await writeSaleInvoice(tx, invoice, entry!.id);
  return ok({
    balanceCentavos: after!.balanceCentavos,
    entry: entry!,
    integration: after!,
    invoiceAwaitsReceptor: invoice.kind === 'planned' && invoice.awaitsReceptor,
    invoiceDeferred: invoice.kind === 'deferred',
  });
}

/** Why a top-up has no invoice row ('invoicing_off', or 'awaiting_decision' until an instance decides), or null: it has one, or it is no sale. */
export function noInvoiceReasonOf(kind: 'top_up' | 'adjustment', plan: { kind: string }): string | null {
  if (kind !== 'top_up') return null;
  return plan.kind === 'off' ? 'invoicing_off' : plan.kind === 'deferred' ? AWAITING_DECISION : null;
}

/**
 * What follows a committed balance change: every instance's copy refreshed, the low-balance alert,
 * and for a top-up whose invoice waits for the NIT, the people who can give it.
 */
export async function afterBalanceMoved(integration: Integration, amountCentavos: number, moved?: Pick<MovedBalance, 'entry' | 'invoiceAwaitsReceptor'>): Promise<void> {
  await notifyIntegrationChanged();
  if (moved?.invoiceAwaitsReceptor) {
    await saleAwaitsReceptor.emit({ integration: { id: integration.id, nombre: integration.nombre }, ledgerEntryId: moved.entry.id, amountCentavos });
  }
  // Lowered by hand: perhaps below the alert threshold, or below what one lookup costs.
  if (amountCentavos < 0) await balanceMayBeShort.emit(integration);
}

/** The balance column and the ledger's sum side by side; they must always agree. */
export async function balanceAndLedgerSum(integrationId: number): Promise<{ balanceCentavos: number; ledgerSumCentavos: number }> {
  const handle = await database();
  const [row] = await handle.rows<{ balance: string | number; ledger_sum: string | number }>(sql`
    select i.balance_centavos as balance,
           coalesce((select sum(amount_centavos) from ledger_entries l where l.integration_id = i.id), 0) as ledger_sum
    from integrations i where i.id = ${integrationId}`);
  if (!row) throw new Error(`integration ${integrationId} not found`);
  return { balanceCentavos: Number(row.balance), ledgerSumCentavos: Number(row.ledger_sum) };
}
