// The console's FEL invoices: the list under "Facturas" (every invoice newest first, by state and
// month) and an invoice's page (its numbers, the sale it invoices, and every call to the certifier).
import { and, asc, count, desc, eq, gte, isNull, lt } from 'drizzle-orm';
import { db, type Database } from '@/db/client';
import { integrations, invoiceAttempts, invoiceReversals, invoices, ledgerEntries, type InvoiceAttempt, type InvoiceReversalStanding, type InvoiceState } from '@/db/schema';
import { findCertifiedInvoice, LATEST_CERTIFIED_CREDIT_NOTE } from '@/lib/core/invoices/documents';
import { publishedInvoicing } from '@/lib/core/invoices/decision';
import { certifierHealth } from '@/lib/core/invoices/health';
import { invoiceVerificationLink } from '@/lib/flows/invoicing/documents';
import { receptorOfIntegration } from '@/lib/core/invoices/receptor';
import { receptorId } from '@/lib/providers/fel/document';
import { beyondCursor, cursorInstant, decodeCursor, encodeCursor, type KeysetCursor } from '@/lib/platform/paging/keyset';
import { startOfGuatemalanDay } from '@/lib/platform/time/guatemala-time';
import { INVOICE_STANDINGS, INVOICE_STATES, invoiceStanding, receptorText, type InvoiceStanding } from '@/lib/presentation/invoice-labels';

export const INVOICE_PAGE_SIZE = 50;


/** The list's filters as the address carries them: `estado` (a standing) and `mes` (YYYY-MM, Guatemala's calendar). */
export interface InvoiceFilters {
  state?: InvoiceStanding;
  month?: string;
}

/** The filters of the address; anything not one of ours is no filter. */
export function invoiceFilters(query: Record<string, string | string[] | undefined>): InvoiceFilters {
  const state = typeof query.estado === 'string' && (INVOICE_STANDINGS as string[]).includes(query.estado) ? (query.estado as InvoiceStanding) : undefined;
  const month = typeof query.mes === 'string' && /^\d{4}-(0[1-9]|1[0-2])$/.test(query.mes) ? query.mes : undefined;
  return { state, month };
}

/** The first instant of the month after `month` (YYYY-MM) in Guatemala. */
function startOfNextMonth(month: string): Date {
  const [year, number] = month.split('-').map(Number) as [number, number];
  const next = number === 12 ? `${year + 1}-01` : `${year}-${String(number + 1).padStart(2, '0')}`;
  return startOfGuatemalanDay(`${next}-01`);
}

/**
 * A standing as a condition: a state through invoices_state_created_idx, a void or credit note
 * through invoices_reversal_created_idx. "Certificada" is a certified invoice that still stands.
 */
function standingCondition(standing: InvoiceStanding | undefined) {
  if (!standing) return undefined;
  if ((INVOICE_STATES as string[]).includes(standing)) {
    return and(eq(invoices.state, standing as InvoiceState), standing === 'certified' ? isNull(invoices.reversal) : undefined);
  }
  return eq(invoices.reversal, standing as InvoiceReversalStanding);
}

/** The list's order and page, as invoicePage reads it (tests/foundation/query-plans.test.ts reads its plan). */
export function invoicesQuery(database: Database, filters: InvoiceFilters, cursor: KeysetCursor | undefined, limit: number) {
  const where = and(
    standingCondition(filters.state),
    filters.month ? gte(invoices.createdAt, startOfGuatemalanDay(`${filters.month}-01`)) : undefined,
    filters.month ? lt(invoices.createdAt, startOfNextMonth(filters.month)) : undefined,
    cursor ? beyondCursor(invoices.createdAt, invoices.id, cursor, 'older') : undefined,
  );
  return database
    .select({
      id: invoices.id,
      integrationId: invoices.integrationId,
      integrationName: integrations.nombre,
      createdAt: invoices.createdAt,
      receptorKind: invoices.receptorKind,
      receptorId: invoices.receptorId,
      receptorName: invoices.receptorName,
      totalCentavos: invoices.totalCentavos,
      state: invoices.state,
      serie: invoices.serie,
      numero: invoices.numero,
      lastErrorMessage: invoices.lastErrorMessage,
      reversal: invoices.reversal,
      creditNote: { serie: invoiceReversals.serie, numero: invoiceReversals.numero, uuid: invoiceReversals.uuid },
      cursorTimestamp: cursorInstant(invoices.createdAt),
    })
    .from(invoices)
    .innerJoin(integrations, eq(integrations.id, invoices.integrationId))
    // The latest certified credit note, for its numbers: one row per invoice.
    .leftJoin(invoiceReversals, LATEST_CERTIFIED_CREDIT_NOTE)
    .where(where)
    .orderBy(desc(invoices.createdAt), desc(invoices.id))
    .limit(limit);
}

export interface InvoiceRow {
  id: number;
  integrationId: number;
  integrationName: string;
  createdAt: Date;
  receptor: string;
  totalCentavos: number;
  state: InvoiceState;
  serie: string | null;
  numero: string | null;
  /** The certifier's last message (shown in "Por corregir"). */
  lastErrorMessage: string | null;
  standing: InvoiceStanding;
  /** Its certified credit note's numbers. */
  creditNote: CreditNoteNumbers | null;
}

export interface CreditNoteNumbers {
  serie: string | null;
  numero: string | null;
  uuid: string | null;
}


/** An integration's receptor as set today (CF when none), as the console writes it. */
function currentReceptorText(columns: Parameters<typeof receptorOfIntegration>[0]): string {
  const receptor = receptorOfIntegration(columns);
  return receptorText({ receptorKind: receptor.kind, receptorId: receptorId(receptor), receptorName: receptor.kind === 'cf' ? null : receptor.name });
}

/** How many invoices the certifier refused and wait for a person ("Por corregir"). */
export async function invoicesToCorrect(): Promise<number> {
  const [row] = await (await db()).select({ total: count() }).from(invoices).where(eq(invoices.state, 'to_correct'));
  return Number(row?.total ?? 0);
}

/** One page of invoices, newest first; `next` leads to older ones. */
export async function invoicePage(filters: InvoiceFilters, after?: string, pageSize = INVOICE_PAGE_SIZE): Promise<{ rows: InvoiceRow[]; next?: string }> {
  const rows = await invoicesQuery(await db(), filters, decodeCursor(after), pageSize + 1);
  const page = rows.slice(0, pageSize);
  const last = page.at(-1);
  return {
    rows: page.map((row) => ({
      id: row.id,
      integrationId: row.integrationId,
      integrationName: row.integrationName,
      createdAt: row.createdAt,
      receptor: receptorText(row),
      totalCentavos: row.totalCentavos,
      state: row.state,
      serie: row.serie,
      numero: row.numero,
      lastErrorMessage: row.lastErrorMessage,
      standing: invoiceStanding(row),
      creditNote: row.creditNote?.uuid ? row.creditNote : null,
    })),
    next: rows.length > pageSize && last ? encodeCursor({ createdAt: last.cursorTimestamp, id: last.id }) : undefined,
  };
}

/** An invoice id from the address: a positive integer, or undefined (the page answers 404). */
export function invoiceIdOf(text: string): number | undefined {
  return /^\d{1,9}$/.test(text) && Number(text) > 0 ? Number(text) : undefined;
}

export interface InvoiceDetail {
  id: number;
  integrationId: number;
  integrationName: string;
  state: InvoiceState;
  /** Its state, or its void or credit note once certified. */
  standing: InvoiceStanding;
  identifier: string;
  documentType: string;
  createdAt: Date;
  emittedAt: Date;
  uuid: string | null;
  serie: string | null;
  numero: string | null;
  certifiedAt: Date | null;
  certifier: string | null;
  receptor: string;
  taxableCentavos: number;
  taxCentavos: number;
  totalCentavos: number;
  hasXml: boolean;
  lastErrorCode: string | null;
  lastErrorMessage: string | null;
  /** Whom a retry or a correction would name now: the integration's receptor as it is set today. */
  integrationReceptor: string;
  /** Whether that is someone else than this invoice names (a correction has something to correct). */
  integrationReceptorDiffers: boolean;
  /** The invoice this one replaced when its receptor was corrected. */
  correctsInvoiceId: number | null;
  sale: { id: number; amountCentavos: number; createdAt: Date; note: string | null };
  attempts: InvoiceAttempt[];
}

/** An invoice with its sale and its attempts (oldest first), or undefined when there is none with that id. */
export async function findInvoice(invoiceId: number): Promise<InvoiceDetail | undefined> {
  const database = await db();
  const [row] = await database
    .select({
      invoice: invoices,
      integrationName: integrations.nombre,
      integrationReceptor: { receptorKind: integrations.receptorKind, receptorId: integrations.receptorId, receptorName: integrations.receptorName },
      sale: { id: ledgerEntries.id, amountCentavos: ledgerEntries.amountCentavos, createdAt: ledgerEntries.createdAt, note: ledgerEntries.note },
    })
    .from(invoices)
    .innerJoin(integrations, eq(integrations.id, invoices.integrationId))
    .innerJoin(ledgerEntries, eq(ledgerEntries.id, invoices.ledgerEntryId))
    .where(eq(invoices.id, invoiceId));
  if (!row) return undefined;
  const attempts = await database.select().from(invoiceAttempts).where(eq(invoiceAttempts.invoiceId, invoiceId)).orderBy(asc(invoiceAttempts.id));
  const { invoice } = row;
  return {
    id: invoice.id,
    integrationId: invoice.integrationId,
    integrationName: row.integrationName,
    state: invoice.state,
    standing: invoiceStanding(invoice),
    identifier: invoice.identifier,
    documentType: invoice.documentType,
    createdAt: invoice.createdAt,
    emittedAt: invoice.emittedAt,
    uuid: invoice.uuid,
    serie: invoice.serie,
    numero: invoice.numero,
    certifiedAt: invoice.certifiedAt,
    certifier: invoice.certifier,
    receptor: receptorText(invoice),
    taxableCentavos: invoice.taxableCentavos,
    taxCentavos: invoice.taxCentavos,
    totalCentavos: invoice.totalCentavos,
    hasXml: invoice.certifiedXml !== null && invoice.state === 'certified',
    lastErrorCode: invoice.lastErrorCode,
    lastErrorMessage: invoice.lastErrorMessage,
    integrationReceptor: currentReceptorText(row.integrationReceptor),
    integrationReceptorDiffers: currentReceptorText(row.integrationReceptor) !== receptorText(invoice),
    correctsInvoiceId: invoice.correctsInvoiceId,
    sale: row.sale,
    attempts,
  };
}

/** A certified invoice's XML as the certifier returned it, or undefined (no such invoice, not certified, or not stored). */
export async function certifiedInvoiceXml(invoiceId: number): Promise<{ xml: string; serie: string; numero: string } | undefined> {
  const [row] = await (await db())
    .select({ xml: invoices.certifiedXml, serie: invoices.serie, numero: invoices.numero })
    .from(invoices)
    .where(and(eq(invoices.id, invoiceId), eq(invoices.state, 'certified')));
  if (!row?.xml || !row.serie || !row.numero) return undefined;
  return { xml: row.xml, serie: row.serie, numero: row.numero };
}

/** Whether invoicing is on (as published at start-up) and how the certifier has answered lately: the banners above the invoices. */
export async function invoicingStatus() {
  const [invoicing, certifier] = await Promise.all([publishedInvoicing(), certifierHealth()]);
  return { invoicing, certifier };
}

/** A certified invoice's documents on its page: whether its PDF can be made, and SAT's link to verify it. */
export async function invoiceDocuments(invoice: Pick<InvoiceDetail, 'id' | 'state'>): Promise<{ pdf: boolean; verification: string | null }> {
  const certified = invoice.state === 'certified' ? await findCertifiedInvoice(invoice.id) : undefined;
  return { pdf: certified !== undefined, verification: certified ? invoiceVerificationLink(certified) : null };
}
