// The FEL invoices of a statement's top-ups, read when its PDF is drawn rather than stored with its
// figures: an invoice certified after the statement was issued (a top-up of the month's last hours,
// one corrected later) still appears with its numbers (docs/decisions.md, "Invoices on statements").
import { invoicesOfTopUpsBetween, type TopUpInvoice } from '@/lib/core/invoices/documents';
import { monthPeriod } from './figures';
import type { Statement } from './statements';

export type { TopUpInvoice };

export async function statementInvoices(statement: Pick<Statement, 'integrationId' | 'month'>): Promise<TopUpInvoice[]> {
  const { from, until } = monthPeriod(statement.month);
  return invoicesOfTopUpsBetween(statement.integrationId, from, until);
}
