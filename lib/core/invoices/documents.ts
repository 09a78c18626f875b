// A certified invoice as people read it (its PDF, the console's and the portal's pages, the notice
// to the integrator), the invoices of a period's top-ups (the monthly statement), and SAT's public
// verification link. Reads only: the worker (lib/flows/invoicing) writes.
import { and, asc, eq, gte, lt } from 'drizzle-orm';
import { db } from '@/db/client';
import { invoices, ledgerEntries, type InvoiceReceptorKind, type InvoiceState } from '@/db/schema';
import { CF_ID } from '@/lib/providers/fel/document';

/** A certified invoice's facts: its SAT numbers, the receptor and the amounts as at the sale. */
export interface CertifiedInvoice {
  id: number;
  integrationId: number;
  documentType: string;
  uuid: string;
  serie: string;
  numero: string;
  certifiedAt: Date;
  emittedAt: Date;
  certifier: string | null;
  receptorKind: InvoiceReceptorKind;
  receptorId: string;
  receptorName: string | null;
  taxableCentavos: number;
  taxCentavos: number;
  totalCentavos: number;
  hasXml: boolean;
}

/**
 * The certified invoice with this id, or undefined (none, not certified yet). With `integrationId`
 * only that integration's: another's answers as one that does not exist.
 */
export async function findCertifiedInvoice(invoiceId: number, integrationId?: number): Promise<CertifiedInvoice | undefined> {
  const [row] = await (await db())
    .select()
    .from(invoices)
    .where(and(eq(invoices.id, invoiceId), eq(invoices.state, 'certified'), integrationId === undefined ? undefined : eq(invoices.integrationId, integrationId)));
  if (!row || !row.uuid || !row.serie || !row.numero) return undefined;
  return {
    id: row.id,
    integrationId: row.integrationId,
    documentType: row.documentType,
    uuid: row.uuid,
    serie: row.serie,
    numero: row.numero,
    // An invoice settled by lookup has its numbers but the moment it was found, not SAT's stamp.
    certifiedAt: row.certifiedAt ?? row.updatedAt,
    emittedAt: row.emittedAt,
    certifier: row.certifier,
    receptorKind: row.receptorKind,
    receptorId: row.receptorId,
    receptorName: row.receptorName,
    taxableCentavos: row.taxableCentavos,
    taxCentavos: row.taxCentavos,
    totalCentavos: row.totalCentavos,
    hasXml: row.certifiedXml !== null,
  };
}

/** The invoice of one top-up in a period, as a statement lists it. */
export interface TopUpInvoice {
  invoiceId: number;
  /** The top-up's moment (its ledger entry). */
  toppedUpAt: Date;
  state: InvoiceState;
  uuid: string | null;
  serie: string | null;
  numero: string | null;
  totalCentavos: number;
}

/** The invoices of an integration's top-ups credited from `from` until `until`, oldest first. */
export async function invoicesOfTopUpsBetween(integrationId: number, from: Date, until: Date): Promise<TopUpInvoice[]> {
  return (await db())
    .select({
      invoiceId: invoices.id,
      toppedUpAt: ledgerEntries.createdAt,
      state: invoices.state,
      uuid: invoices.uuid,
      serie: invoices.serie,
      numero: invoices.numero,
      totalCentavos: invoices.totalCentavos,
    })
    .from(invoices)
    .innerJoin(ledgerEntries, eq(ledgerEntries.id, invoices.ledgerEntryId))
    .where(and(eq(invoices.integrationId, integrationId), gte(ledgerEntries.createdAt, from), lt(ledgerEntries.createdAt, until)))
    .orderBy(asc(ledgerEntries.createdAt), asc(invoices.id));
}

/**
 * SAT's public verification of a DTE: its page (FEL_VERIFICATION_URL) with the query the
 * certifiers' printed invoices carry: tipo=autorizacion, numero (the UUID), emisor and receptor
 * (NITs without separators; the receptor's CUI, or CF) and monto (the total, in quetzales).
 */
export function satVerificationUrl(base: string, invoice: { uuid: string; issuerNit: string; receptorId: string; totalCentavos: number }): string {
  const url = new URL(base);
  url.searchParams.set('tipo', 'autorizacion');
  url.searchParams.set('numero', invoice.uuid);
  url.searchParams.set('emisor', invoice.issuerNit.replace(/-/g, '').toUpperCase());
  url.searchParams.set('receptor', invoice.receptorId === CF_ID ? CF_ID : invoice.receptorId.replace(/-/g, '').toUpperCase());
  url.searchParams.set('monto', (invoice.totalCentavos / 100).toFixed(2));
  return url.toString();
}

/** A certified invoice's XML as the certifier returned it, within one integration; undefined when none is stored. */
export async function certifiedXmlOf(invoiceId: number, integrationId: number): Promise<string | undefined> {
  const [row] = await (await db())
    .select({ xml: invoices.certifiedXml })
    .from(invoices)
    .where(and(eq(invoices.id, invoiceId), eq(invoices.integrationId, integrationId), eq(invoices.state, 'certified')));
  return row?.xml ?? undefined;
}
