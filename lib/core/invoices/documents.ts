// A certified invoice as people read it (its PDF, the console's and the portal's pages, the notice
// to the integrator), the invoices of a period's top-ups (the monthly statement), and SAT's public
// verification link. Reads only: the worker (lib/flows/invoicing) writes.
import { and, asc, desc, eq, gte, inArray, lt, ne, sql } from 'drizzle-orm';
import { db } from '@/db/client';
import { invoiceReversals, invoices, ledgerEntries, type InvoiceReceptorKind, type InvoiceReversalStanding, type InvoiceState } from '@/db/schema';
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
  /** The certifier as SAT knows it (NombreCertificador, NITCertificador of the certified XML); null when no XML is kept. */
  certifierIdentity: CertifierIdentity | null;
  /** What became of it since: a void or a credit note, under way or done; null while it stands. */
  reversal: InvoiceReversalOf | null;
}

export interface CertifierIdentity {
  name: string;
  nit: string;
}

const XML_ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&apos;': "'" };

/** The certifier's legal name and NIT as a certified DTE states them (its Certificacion element), or null. */
export function certifierOfXml(xml: string | null): CertifierIdentity | null {
  if (!xml) return null;
  const field = (name: string) => new RegExp(`<(?:[A-Za-z0-9]+:)?${name}>([^<]{1,300})</(?:[A-Za-z0-9]+:)?${name}>`).exec(xml)?.[1]?.replace(/&(?:amp|lt|gt|quot|apos);/g, (entity) => XML_ENTITIES[entity]!).trim();
  const nit = field('NITCertificador');
  const name = field('NombreCertificador');
  return nit && name ? { nit, name } : null;
}

export interface InvoiceReversalOf {
  standing: InvoiceReversalStanding;
  /** When SAT voided it or certified the credit note. */
  doneAt: Date | null;
  /** The certified credit note's numbers, and whether its XML is kept. */
  creditNote: { uuid: string; serie: string; numero: string; hasXml: boolean } | null;
  /** Undone by a void (else by a credit note). */
  voided: boolean;
  /** The invoice that replaces it once its receptor was corrected. */
  replacementInvoiceId: number | null;
}

/**
 * The invoice's latest live reversal: the console's void or credit note (at most one:
 * invoice_reversals_one_live), or the last of the credit notes of its payment's refunds, so a join
 * gives one row per invoice.
 */
const liveReversal = and(
  eq(invoiceReversals.invoiceId, invoices.id),
  sql`${invoiceReversals.id} = (select max(latest.id) from invoice_reversals latest where latest.invoice_id = ${invoices.id} and latest.state <> 'refused')`,
);

/** The invoice's latest certified credit note, for the lists: one row per invoice. */
export const LATEST_CERTIFIED_CREDIT_NOTE = and(
  eq(invoiceReversals.invoiceId, invoices.id),
  sql`${invoiceReversals.id} = (select max(latest.id) from invoice_reversals latest where latest.invoice_id = ${invoices.id} and latest.kind = 'credit_note' and latest.state = 'done')`,
);

/**
 * The certified invoice with this id, or undefined (none, not certified yet). With `integrationId`
 * only that integration's: another's answers as one that does not exist.
 */
export async function findCertifiedInvoice(invoiceId: number, integrationId?: number): Promise<CertifiedInvoice | undefined> {
  const [found] = await (await db())
    .select({
      row: invoices,
      reversal: { kind: invoiceReversals.kind, replacementInvoiceId: invoiceReversals.replacementInvoiceId, doneAt: invoiceReversals.doneAt, uuid: invoiceReversals.uuid, serie: invoiceReversals.serie, numero: invoiceReversals.numero, hasXml: sql<boolean>`${invoiceReversals.certifiedXml} is not null` },
    })
    .from(invoices)
    .leftJoin(invoiceReversals, liveReversal)
    .where(and(eq(invoices.id, invoiceId), eq(invoices.state, 'certified'), integrationId === undefined ? undefined : eq(invoices.integrationId, integrationId)));
  const row = found?.row;
  if (!row || !row.uuid || !row.serie || !row.numero) return undefined;
  const live = found.reversal;
  const note = (row.reversal === 'credited' || row.reversal === 'corrected') && live?.kind === 'credit_note' && live.uuid && live.serie && live.numero ? { uuid: live.uuid, serie: live.serie, numero: live.numero, hasXml: Boolean(live.hasXml) } : null;
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
    certifierIdentity: certifierOfXml(row.certifiedXml),
    reversal: row.reversal
      ? { standing: row.reversal, doneAt: live?.doneAt ?? null, creditNote: note, voided: live?.kind === 'void', replacementInvoiceId: live?.replacementInvoiceId ?? null }
      : null,
  };
}

/** The invoice of one top-up in a period, as a statement lists it. */
export interface TopUpInvoice {
  invoiceId: number;
  /** The top-up's moment (its ledger entry). */
  toppedUpAt: Date;
  state: InvoiceState;
  /** Its void or credit note, under way or done. */
  reversal: InvoiceReversalStanding | null;
  uuid: string | null;
  serie: string | null;
  numero: string | null;
  totalCentavos: number;
  /** Its void or credit notes (none refused), oldest first, with their own numbers once certified. */
  /** Each one's `correction` is true when it undid the invoice to reissue it to a corrected receptor (no money moved). */
  documents: Array<{ kind: 'void' | 'credit_note'; done: boolean; serie: string | null; numero: string | null; uuid: string | null; amountCentavos: number; correction: boolean }>;
}

/** The invoices of an integration's top-ups credited from `from` until `until`, oldest first. */
export async function invoicesOfTopUpsBetween(integrationId: number, from: Date, until: Date): Promise<TopUpInvoice[]> {
  const handle = await db();
  const rows = await handle
    .select({
      invoiceId: invoices.id,
      toppedUpAt: ledgerEntries.createdAt,
      state: invoices.state,
      reversal: invoices.reversal,
      uuid: invoices.uuid,
      serie: invoices.serie,
      numero: invoices.numero,
      totalCentavos: invoices.totalCentavos,
    })
    .from(invoices)
    .innerJoin(ledgerEntries, eq(ledgerEntries.id, invoices.ledgerEntryId))
    .where(and(eq(invoices.integrationId, integrationId), gte(ledgerEntries.createdAt, from), lt(ledgerEntries.createdAt, until)))
    .orderBy(asc(ledgerEntries.createdAt), asc(invoices.id));
  const ids = rows.map((row) => row.invoiceId);
  const reversals =
    ids.length === 0
      ? []
      : await handle
          .select()
          .from(invoiceReversals)
          .where(and(inArray(invoiceReversals.invoiceId, ids), ne(invoiceReversals.state, 'refused')))
          .orderBy(asc(invoiceReversals.id));
  return rows.map((row) => ({
    ...row,
    documents: reversals
      .filter((reversal) => reversal.invoiceId === row.invoiceId)
      .map((reversal) => ({
        kind: reversal.kind,
        done: reversal.state === 'done',
        serie: reversal.serie,
        numero: reversal.numero,
        uuid: reversal.uuid,
        amountCentavos: reversal.amountCentavos,
        correction: reversal.correctionReceptorKind !== null,
      })),
  }));
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

/**
 * A certified credit note of an invoice, within one integration: the one named by `noteId`, else
 * the latest. Its XML and numbers; undefined when there is none or no XML is kept.
 */
export async function creditNoteXmlOf(invoiceId: number, integrationId: number, noteId?: number): Promise<{ xml: string; serie: string; numero: string } | undefined> {
  const [row] = await (await db())
    .select({ xml: invoiceReversals.certifiedXml, serie: invoiceReversals.serie, numero: invoiceReversals.numero })
    .from(invoiceReversals)
    .where(
      and(
        eq(invoiceReversals.invoiceId, invoiceId),
        noteId === undefined ? undefined : eq(invoiceReversals.id, noteId),
        eq(invoiceReversals.integrationId, integrationId),
        eq(invoiceReversals.kind, 'credit_note'),
        eq(invoiceReversals.state, 'done'),
      ),
    )
    .orderBy(desc(invoiceReversals.id))
    .limit(1);
  if (!row?.xml || !row.serie || !row.numero) return undefined;
  return { xml: row.xml, serie: row.serie, numero: row.numero };
}

/** A certified credit note as its PDF prints it: its numbers, what it reverts, and the invoice it references. */
export interface CertifiedCreditNote {
  id: number;
  uuid: string;
  serie: string;
  numero: string;
  amountCentavos: number;
  reason: string;
  certifiedAt: Date;
  certifierIdentity: CertifierIdentity | null;
  invoice: CertifiedInvoice;
}

/**
 * A certified credit note of an invoice, within one integration: the one named by `noteId`, or the
 * latest when none is named. Undefined when there is none.
 */
export async function findCertifiedCreditNote(invoiceId: number, integrationId: number | undefined, noteId?: number): Promise<CertifiedCreditNote | undefined> {
  const invoice = await findCertifiedInvoice(invoiceId, integrationId);
  if (!invoice) return undefined;
  const [row] = await (await db())
    .select()
    .from(invoiceReversals)
    .where(
      and(
        eq(invoiceReversals.invoiceId, invoiceId),
        noteId === undefined ? undefined : eq(invoiceReversals.id, noteId),
        eq(invoiceReversals.kind, 'credit_note'),
        eq(invoiceReversals.state, 'done'),
      ),
    )
    .orderBy(desc(invoiceReversals.id))
    .limit(1);
  if (!row?.uuid || !row.serie || !row.numero) return undefined;
  return {
    id: row.id,
    uuid: row.uuid,
    serie: row.serie,
    numero: row.numero,
    amountCentavos: row.amountCentavos,
    reason: row.reason,
    certifiedAt: row.doneAt ?? row.updatedAt,
    certifierIdentity: certifierOfXml(row.certifiedXml),
    invoice,
  };
}
