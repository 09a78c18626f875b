// A credited sale's invoice row, written in the credit's own transaction: the credit and the
// promise to invoice it commit together or not at all, and the row's identifier is fixed there
// for good (the worker in lib/flows/invoicing certifies it). Adjustments never come here.
import type { Database } from '@/db/client';
import { invoices, type Integration, type NewInvoice } from '@/db/schema';
import { checkReceptor, lineAmounts, receptorId } from '@/lib/providers/fel/document';
import type { InvoicingDecision } from './decision';
import { INVOICE_MESSAGES } from './messages';
import { receptorOfIntegration, type IntegrationReceptorColumns } from './receptor';

type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

export type SaleInvoicePlan =
  /** The service does not invoice: nothing to invoice. */
  | { kind: 'off' }
  /** No app instance said yet whether it invoices, and this process cannot tell: refuse the credit. */
  | { kind: 'undecided'; message: string }
  /** The sale cannot be invoiced as it stands: refuse the credit, with this sentence. */
  | { kind: 'refused'; message: string }
  | { kind: 'planned'; values: Omit<NewInvoice, 'ledgerEntryId'> };

/**
 * What a sale of `totalCentavos` to this integration will be invoiced as, checked before anything
 * is written, as the service's `decision` says (lib/core/invoices/decision.ts, read in the sale's
 * transaction): CF is refused from Q 2,500.00 (SAT's rule), so such a credit never happens uninvoiced.
 */
export function planSaleInvoice(
  integration: Pick<Integration, 'id'> & IntegrationReceptorColumns,
  totalCentavos: number,
  decision: InvoicingDecision | null,
  now = new Date(),
): SaleInvoicePlan {
  if (decision === null) return { kind: 'undecided', message: INVOICE_MESSAGES.undecided };
  if (!decision.invoices) return { kind: 'off' };
  const checked = checkReceptor(receptorOfIntegration(integration), totalCentavos);
  if (!checked.ok) return { kind: 'refused', message: checked.problem.code === 'cf_over_limit' ? INVOICE_MESSAGES.cfOverLimit : INVOICE_MESSAGES.receptorInvalid };
  const { documentType } = decision;
  const amounts = lineAmounts({ quantity: 1, unitPriceCentavos: totalCentavos }, documentType === 'FACT');
  const { receptor } = checked;
  return {
    kind: 'planned',
    values: {
      integrationId: integration.id,
      documentType,
      emittedAt: now,
      totalCentavos: amounts.totalCentavos,
      taxableCentavos: amounts.taxableCentavos,
      taxCentavos: amounts.taxCentavos,
      receptorKind: receptor.kind,
      receptorId: receptorId(receptor),
      receptorName: receptor.kind === 'cf' ? null : receptor.name,
    },
  };
}

/** Writes the planned invoice of the sale's ledger entry, in the sale's transaction. */
export async function writeSaleInvoice(tx: Transaction, plan: SaleInvoicePlan, ledgerEntryId: number): Promise<void> {
  if (plan.kind !== 'planned') return;
  await tx.insert(invoices).values({ ...plan.values, ledgerEntryId });
}

/** The one line of a top-up's invoice: a service ("S"). */
export const TOP_UP_LINE_DESCRIPTION = 'Saldo prepago para consultas de contribuyentes';
