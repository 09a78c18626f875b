// A credited sale's invoice row, written in the credit's own transaction: the credit and the
// promise to invoice it commit together or not at all, and the row's identifier is fixed there
// for good (the worker in lib/flows/invoicing certifies it). Adjustments never come here.
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { integrations, invoices, ledgerEntries, type Integration, type NewInvoice } from '@/db/schema';
import { checkReceptor, lineAmounts, receptorId, type Receptor } from '@/lib/providers/fel/document';
import { invoicingDecisionFor, type InvoicingDecision } from './decision';
import { receptorOfIntegration, type IntegrationReceptorColumns } from './receptor';

type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

export type SaleInvoicePlan =
  /** The service does not invoice: nothing to invoice. */
  | { kind: 'off' }
  /**
   * No app instance said yet whether it invoices, and this process cannot tell: the credit is made
   * and its invoice is decided by the first instance that publishes (resolveDeferredSales).
   */
  | { kind: 'deferred' }
  /**
   * The invoice to write with the credit. `awaitsReceptor`: the integration has no receptor SAT
   * takes for this amount (consumidor final from Q 2,500.00), so the invoice waits for its NIT.
   */
  | { kind: 'planned'; values: Omit<NewInvoice, 'ledgerEntryId'>; awaitsReceptor: boolean };

/** The invoice's receptor columns for a receptor. */
function receptorColumns(receptor: Receptor): Pick<NewInvoice, 'receptorKind' | 'receptorId' | 'receptorName'> {
  return { receptorKind: receptor.kind, receptorId: receptorId(receptor), receptorName: receptor.kind === 'cf' ? null : receptor.name };
}

/**
 * What a sale of `totalCentavos` to this integration will be invoiced as, as the service's
 * `decision` says (lib/core/invoices/decision.ts, read in the sale's transaction). Money received
 * is always credited: a sale SAT would refuse to invoice as it stands (CF from Q 2,500.00, a
 * receptor stored before today's checks) gets an invoice that waits for the receptor, never no
 * invoice and never a refused credit.
 */
export function planSaleInvoice(
  integration: Pick<Integration, 'id'> & IntegrationReceptorColumns,
  totalCentavos: number,
  decision: InvoicingDecision | null,
  now = new Date(),
): SaleInvoicePlan {
  if (decision === null) return { kind: 'deferred' };
  if (!decision.invoices) return { kind: 'off' };
  const checked = checkReceptor(receptorOfIntegration(integration), totalCentavos);
  const { documentType } = decision;
  const amounts = lineAmounts({ quantity: 1, unitPriceCentavos: totalCentavos }, documentType === 'FACT');
  const values = {
    integrationId: integration.id,
    documentType,
    emittedAt: now,
    totalCentavos: amounts.totalCentavos,
    taxableCentavos: amounts.taxableCentavos,
    taxCentavos: amounts.taxCentavos,
  };
  if (!checked.ok) return { kind: 'planned', awaitsReceptor: true, values: { ...values, ...receptorColumns({ kind: 'cf' }), state: 'awaiting_receptor' } };
  return { kind: 'planned', awaitsReceptor: false, values: { ...values, ...receptorColumns(checked.receptor) } };
}

/**
 * Whether a sale of `totalCentavos` to this integration would be credited with its invoice waiting
 * for the receptor, as things stand: asked before taking money that can be refused (a card
 * checkout), or to warn before it arrives (a deposit reported).
 */
export async function saleWouldAwaitReceptor(handle: Pick<Transaction, 'select'>, integrationId: number, totalCentavos: number): Promise<boolean> {
  const decision = await invoicingDecisionFor(handle);
  if (!decision?.invoices) return false;
  const [row] = await handle
    .select({ receptorKind: integrations.receptorKind, receptorId: integrations.receptorId, receptorName: integrations.receptorName })
    .from(integrations)
    .where(eq(integrations.id, integrationId));
  return row !== undefined && !checkReceptor(receptorOfIntegration(row), totalCentavos).ok;
}

/** Writes the planned invoice of the sale's ledger entry, in the sale's transaction. */
export async function writeSaleInvoice(tx: Transaction, plan: SaleInvoicePlan, ledgerEntryId: number): Promise<void> {
  if (plan.kind !== 'planned') return;
  await tx.insert(invoices).values({ ...plan.values, ledgerEntryId });
}

/**
 * The integration's receptor changed (in the caller's transaction): every invoice of its that waits
 * for one and that the new receptor can name goes to the queue, naming it, with its identifier
 * unchanged and dated now (SAT takes an emission time at most 5 days before the certification).
 * Those the new receptor still cannot name (CF again) keep waiting. Returns how many were queued.
 */
export async function releaseAwaitingInvoices(tx: Transaction, integration: Pick<Integration, 'id'> & IntegrationReceptorColumns, now = new Date()): Promise<number> {
  const receptor = receptorOfIntegration(integration);
  const waiting = await tx
    .select({ id: invoices.id, totalCentavos: invoices.totalCentavos })
    .from(invoices)
    .where(and(eq(invoices.integrationId, integration.id), eq(invoices.state, 'awaiting_receptor')))
    .for('update');
  let queued = 0;
  for (const invoice of waiting) {
    const checked = checkReceptor(receptor, invoice.totalCentavos);
    if (!checked.ok) continue;
    await tx
      .update(invoices)
      .set({ ...receptorColumns(checked.receptor), state: 'pending', emittedAt: now, nextAttemptAt: sql`now()`, updatedAt: sql`now()` })
      .where(and(eq(invoices.id, invoice.id), eq(invoices.state, 'awaiting_receptor')));
    queued++;
  }
  return queued;
}

/** A top-up's `no_invoice_reason` while no app instance has said whether top-ups are invoiced. */
export const AWAITING_DECISION = 'awaiting_decision';

/**
 * The service's decision, just published by an instance, applied to the top-ups credited before any
 * instance had decided (the CLI beside a database only migrated so far): each gets its invoice row
 * (dated now, naming the receptor the integration has now) or the reason it has none. Each entry is
 * taken under a row lock and only while it still waits, so instances starting together apply it once.
 */
export async function resolveDeferredSales(handle: Pick<Database, 'transaction'>, decision: InvoicingDecision, now = new Date()): Promise<number> {
  return handle.transaction(async (tx) => {
    const waiting = await tx
      .select({ entry: ledgerEntries, integration: integrations })
      .from(ledgerEntries)
      .innerJoin(integrations, eq(integrations.id, ledgerEntries.integrationId))
      .where(and(eq(ledgerEntries.kind, 'top_up'), eq(ledgerEntries.noInvoiceReason, AWAITING_DECISION)))
      .for('update', { of: ledgerEntries });
    for (const { entry, integration } of waiting) {
      const plan = planSaleInvoice(integration, entry.amountCentavos, decision, now);
      await tx.update(ledgerEntries).set({ noInvoiceReason: plan.kind === 'off' ? 'invoicing_off' : null }).where(eq(ledgerEntries.id, entry.id));
      await writeSaleInvoice(tx, plan, entry.id);
    }
    return waiting.length;
  });
}
