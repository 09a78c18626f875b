// "Facturas": the FEL invoices of the session's integration's top-ups (lib/core/invoices), newest
// first, and one invoice's page. An id is looked up within the session's integration only, so
// another integration's invoice is answered exactly as one that does not exist.
import { and, desc, eq } from 'drizzle-orm';
import { db } from '@/db/client';
import { invoices, type InvoiceState } from '@/db/schema';
import { findCertifiedInvoice, type CertifiedInvoice } from '@/lib/core/invoices/documents';
import type { PortalUserSession } from './session';

/** The most invoices the list shows (a top-up a day for more than six months). */
export const PORTAL_INVOICE_LIMIT = 200;

export interface PortalInvoiceRow {
  id: number;
  createdAt: Date;
  state: InvoiceState;
  serie: string | null;
  numero: string | null;
  totalCentavos: number;
}

export async function portalInvoices(user: PortalUserSession): Promise<PortalInvoiceRow[]> {
  return (await db())
    .select({ id: invoices.id, createdAt: invoices.createdAt, state: invoices.state, serie: invoices.serie, numero: invoices.numero, totalCentavos: invoices.totalCentavos })
    .from(invoices)
    .where(eq(invoices.integrationId, user.integrationId))
    .orderBy(desc(invoices.createdAt), desc(invoices.id))
    .limit(PORTAL_INVOICE_LIMIT);
}

/** An invoice id as the address spells it (a positive integer the column can hold), or undefined. */
function invoiceIdOf(idText: string): number | undefined {
  return /^[1-9]\d{0,9}$/.test(idText) && Number(idText) <= 2_147_483_647 ? Number(idText) : undefined;
}

/** One invoice of the session's integration: its row, and its certified facts once certified. */
export async function portalInvoice(user: PortalUserSession, idText: string): Promise<{ row: PortalInvoiceRow; certified?: CertifiedInvoice } | undefined> {
  const invoiceId = invoiceIdOf(idText);
  if (invoiceId === undefined) return undefined;
  const [row] = await (await db())
    .select({ id: invoices.id, createdAt: invoices.createdAt, state: invoices.state, serie: invoices.serie, numero: invoices.numero, totalCentavos: invoices.totalCentavos })
    .from(invoices)
    .where(and(eq(invoices.id, invoiceId), eq(invoices.integrationId, user.integrationId)));
  if (!row) return undefined;
  return { row, certified: row.state === 'certified' ? await findCertifiedInvoice(invoiceId, user.integrationId) : undefined };
}

/** A certified invoice of the session's integration for a download, or undefined. */
export async function portalCertifiedInvoice(user: PortalUserSession, idText: string): Promise<CertifiedInvoice | undefined> {
  const invoiceId = invoiceIdOf(idText);
  return invoiceId === undefined ? undefined : findCertifiedInvoice(invoiceId, user.integrationId);
}
