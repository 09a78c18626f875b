// A credited sale's invoice row, written in the credit's own transaction: the credit and the
// promise to invoice it commit together or not at all, and the row's identifier is fixed there
// for good (the worker in lib/flows/invoicing certifies it). Adjustments never come here.
import type { Database } from '@/db/client';
import { invoices, type Integration, type NewInvoice } from '@/db/schema';
import { env, type Env } from '@/lib/platform/env';
import { checkReceptor, DOCUMENT_TYPE_OF_AFFILIATION, lineAmounts, receptorId } from '@/lib/providers/fel/document';
import { INVOICE_MESSAGES } from './messages';
import { receptorOfIntegration, type IntegrationReceptorColumns } from './receptor';

type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

export type SaleInvoicePlan =
  /** FEL is off: nothing to invoice. */
  | { kind: 'off' }
  /** The sale cannot be invoiced as it stands: refuse the credit, with this sentence. */
  | { kind: 'refused'; message: string }
  | { kind: 'planned'; values: Omit<NewInvoice, 'ledgerEntryId'> };

/**
 * What a sale of `totalCentavos` to this integration will be invoiced as, checked before anything
 * is written: CF is refused from Q 2,500.00 (SAT's rule), so such a credit never happens uninvoiced.
 */
export function planSaleInvoice(
  integration: Pick<Integration, 'id'> & IntegrationReceptorColumns,
  totalCentavos: number,
  settings: Pick<Env, 'FEL_ENABLED' | 'FEL_ISSUER_AFFILIATION'> = env(),
  now = new Date(),
): SaleInvoicePlan {
  if (!settings.FEL_ENABLED) return { kind: 'off' };
  const checked = checkReceptor(receptorOfIntegration(integration), totalCentavos);
  if (!checked.ok) return { kind: 'refused', message: checked.problem.code === 'cf_over_limit' ? INVOICE_MESSAGES.cfOverLimit : INVOICE_MESSAGES.receptorInvalid };
  const documentType = DOCUMENT_TYPE_OF_AFFILIATION[settings.FEL_ISSUER_AFFILIATION ?? 'GEN'];
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
