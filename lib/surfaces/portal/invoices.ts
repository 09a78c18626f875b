// "Facturas": the FEL invoices of the session's integration's top-ups (lib/core/invoices), newest
// first, and one invoice's page. An id is looked up within the session's integration only, so
// another integration's invoice is answered exactly as one that does not exist.
import { and, desc, eq, sql } from 'drizzle-orm';
import { db } from '@/db/client';
import { integrations, invoiceReversals, invoices, type InvoiceReversalStanding, type InvoiceState } from '@/db/schema';
import { invoiceVerificationLink } from '@/lib/flows/invoicing/documents';
import { receptorIdText } from '@/lib/flows/invoicing/pdf';
import { integrationReceptor } from '@/lib/flows/invoicing/receptor';
import type { Receptor } from '@/lib/providers/fel/document';
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
  /** The invoice it replaced, and the one that replaced it, when a receptor was corrected. */
  correctsInvoiceId: number | null;
  replacedBy: number | null;
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
  correctsInvoiceId: invoices.correctsInvoiceId,
  replacedBy: sql<number | null>`(select replacing.id from invoices replacing where replacing.corrects_invoice_id = ${invoices.id})`,
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
export function invoiceIdOf(idText: string): number | undefined {
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

/** An invoice's page: its row, its certified facts, SAT's verification link (null when FEL is not configured) and its receptor's NIT or CUI as written. */
export async function portalInvoicePage(
  user: PortalUserSession,
  idText: string,
): Promise<{ row: PortalInvoiceRow; certified?: CertifiedInvoice; verification: string | null; receptorIdText: string | null } | undefined> {
  const found = await portalInvoice(user, idText);
  if (!found) return undefined;
  const { certified } = found;
  return { ...found, verification: certified ? invoiceVerificationLink(certified) : null, receptorIdText: certified ? receptorIdText(certified) : null };
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

/** Whom the integration's invoices name today, and how many wait for a receptor SAT takes. */
export interface PortalBillingReceptor {
  receptor: Receptor;
  /** Whether a receptor was registered (else invoices name consumidor final). */
  set: boolean;
  setAt: Date | null;
  /** Invoices of credited top-ups that wait for the NIT ("Factura pendiente: falta el NIT"). */
  awaiting: { count: number; totalCentavos: number };
  /** The rest of the billing profile: the fiscal address and the invoices' e-mail (null: none). */
  address: string | null;
  invoiceEmail: string | null;
}

export async function portalBillingReceptor(user: Pick<PortalUserSession, 'integrationId'>): Promise<PortalBillingReceptor> {
  const handle = await db();
  const [row] = await handle
    .select({
      receptorKind: integrations.receptorKind,
      receptorId: integrations.receptorId,
      receptorName: integrations.receptorName,
      receptorSetAt: integrations.receptorSetAt,
      billingAddress: integrations.billingAddress,
      invoiceEmail: integrations.invoiceEmail,
    })
    .from(integrations)
    .where(eq(integrations.id, user.integrationId));
  const [waiting] = await handle
    .select({ count: sql<number>`count(*)::integer`, total: sql<string>`coalesce(sum(${invoices.totalCentavos}), 0)` })
    .from(invoices)
    .where(and(eq(invoices.integrationId, user.integrationId), eq(invoices.state, 'awaiting_receptor')));
  const { receptor, set, setAt } = integrationReceptor(row!);
  return { receptor, set, setAt, awaiting: { count: Number(waiting?.count ?? 0), totalCentavos: Number(waiting?.total ?? 0) }, address: row!.billingAddress, invoiceEmail: row!.invoiceEmail };
}
