// "Facturas": the FEL invoices of the session's integration's top-ups (lib/core/invoices), newest
// first, and one invoice's page. An id is looked up within the session's integration only, so
// another integration's invoice is answered exactly as one that does not exist.
import { and, desc, eq } from 'drizzle-orm';
import { db } from '@/db/client';
import { invoiceReversals, invoices, type InvoiceReversalStanding, type InvoiceState } from '@/db/schema';
import { creditNoteXmlOf, findCertifiedInvoice, LATEST_CERTIFIED_CREDIT_NOTE, type CertifiedInvoice } from '@/lib/core/invoices/documents';
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
  /** Its void or credit note, under way or done. */
  reversal: InvoiceReversalStanding | null;
  /** Its certified credit note's numbers. */
  creditNote: { serie: string | null; numero: string | null; uuid: string | null } | null;
}

/** The columns of a row, with the numbers of its certified credit note (joined below). */
const ROW = {
  id: invoices.id,
  createdAt: invoices.createdAt,
  state: invoices.state,
  serie: invoices.serie,
  numero: invoices.numero,
  totalCentavos: invoices.totalCentavos,
  reversal: invoices.reversal,
  creditNote: { serie: invoiceReversals.serie, numero: invoiceReversals.numero, uuid: invoiceReversals.uuid },
};

/** The latest certified credit note (one row per invoice, however many parts of it were refunded). */
const CERTIFIED_CREDIT_NOTE = LATEST_CERTIFIED_CREDIT_NOTE;

function rowOf(row: PortalInvoiceRow): PortalInvoiceRow {
  return { ...row, creditNote: row.creditNote?.uuid ? row.creditNote : null };
}

export async function portalInvoices(user: PortalUserSession): Promise<PortalInvoiceRow[]> {
  const rows = await (await db())
    .select(ROW)
    .from(invoices)
    .leftJoin(invoiceReversals, CERTIFIED_CREDIT_NOTE)
    .where(eq(invoices.integrationId, user.integrationId))
    .orderBy(desc(invoices.createdAt), desc(invoices.id))
    .limit(PORTAL_INVOICE_LIMIT);
  return rows.map(rowOf);
}

/** An invoice id as the address spells it (a positive integer the column can hold), or undefined. */
function invoiceIdOf(idText: string): number | undefined {
  return /^[1-9]\d{0,9}$/.test(idText) && Number(idText) <= 2_147_483_647 ? Number(idText) : undefined;
}

/** One invoice of the session's integration: its row, and its certified facts once certified. */
export async function portalInvoice(user: PortalUserSession, idText: string): Promise<{ row: PortalInvoiceRow; certified?: CertifiedInvoice } | undefined> {
  const invoiceId = invoiceIdOf(idText);
  if (invoiceId === undefined) return undefined;
  const [found] = await (await db())
    .select(ROW)
    .from(invoices)
    .leftJoin(invoiceReversals, CERTIFIED_CREDIT_NOTE)
    .where(and(eq(invoices.id, invoiceId), eq(invoices.integrationId, user.integrationId)));
  if (!found) return undefined;
  const row = rowOf(found);
  return { row, certified: row.state === 'certified' ? await findCertifiedInvoice(invoiceId, user.integrationId) : undefined };
}

/** A certified invoice of the session's integration for a download, or undefined. */
export async function portalCertifiedInvoice(user: PortalUserSession, idText: string): Promise<CertifiedInvoice | undefined> {
  const invoiceId = invoiceIdOf(idText);
  return invoiceId === undefined ? undefined : findCertifiedInvoice(invoiceId, user.integrationId);
}

/** The certified credit note of an invoice of the session's integration, its XML for a download, or undefined. */
export async function portalCreditNoteXml(user: PortalUserSession, idText: string): Promise<{ xml: string; serie: string; numero: string } | undefined> {
  const invoiceId = invoiceIdOf(idText);
  return invoiceId === undefined ? undefined : creditNoteXmlOf(invoiceId, user.integrationId);
}
