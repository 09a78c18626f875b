// The invoices as the operator's CLI lists and shows them (invoices:list, invoices:show): the
// console's Facturas for a terminal or a script, newest first, each with its documents.
import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import { db } from '@/db/client';
import { integrations, invoiceReversals, invoices, type Invoice, type InvoiceReversal, type InvoiceState } from '@/db/schema';

export interface ListedInvoice {
  invoice: Invoice;
  integrationName: string;
  documents: InvoiceReversal[];
}

/** Up to `limit` invoices, newest first, of one integration or of all, optionally in one state. */
export async function listInvoices(options: { integrationId?: number; state?: InvoiceState; limit: number }): Promise<ListedInvoice[]> {
  const handle = await db();
  const rows = await handle
    .select({ invoice: invoices, integrationName: integrations.nombre })
    .from(invoices)
    .innerJoin(integrations, eq(integrations.id, invoices.integrationId))
    .where(and(options.integrationId === undefined ? undefined : eq(invoices.integrationId, options.integrationId), options.state === undefined ? undefined : eq(invoices.state, options.state)))
    .orderBy(desc(invoices.createdAt), desc(invoices.id))
    .limit(options.limit);
  const ids = rows.map((row) => row.invoice.id);
  const documents = ids.length === 0 ? [] : await handle.select().from(invoiceReversals).where(inArray(invoiceReversals.invoiceId, ids)).orderBy(asc(invoiceReversals.id));
  return rows.map((row) => ({ ...row, documents: documents.filter((document) => document.invoiceId === row.invoice.id) }));
}

/** One invoice with its documents, or undefined. */
export async function showInvoice(invoiceId: number): Promise<ListedInvoice | undefined> {
  const handle = await db();
  const [row] = await handle
    .select({ invoice: invoices, integrationName: integrations.nombre })
    .from(invoices)
    .innerJoin(integrations, eq(integrations.id, invoices.integrationId))
    .where(eq(invoices.id, invoiceId));
  if (!row) return undefined;
  const documents = await handle.select().from(invoiceReversals).where(eq(invoiceReversals.invoiceId, invoiceId)).orderBy(asc(invoiceReversals.id));
  return { ...row, documents };
}
