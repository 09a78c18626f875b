// What GET /api/cuenta/facturas and its downloads answer, for the authenticated integration only:
// its FEL invoices (one per credited top-up), each with its void or credit notes, and the XML and
// PDF of what is certified. An ERP reconciles a month from these and /cuenta/movimientos alone
// (docs/integrators.md): each invoice names the movement it invoices.
import { and, asc, desc, eq, gte, inArray, lt } from 'drizzle-orm';
import { db } from '@/db/client';
import { invoiceReversals, invoices, type InvoiceReversal } from '@/db/schema';
import { creditNoteXmlOf, findCertifiedInvoice, type CertifiedInvoice } from '@/lib/core/invoices/documents';
import { centavosAsDecimal, CURRENCY } from '@/lib/platform/money';
import { beyondCursor, cursorInstant, decodeCursor, encodeCursor } from '@/lib/platform/paging/keyset';
import { isCalendarDay, startOfGuatemalanDay, startOfNextGuatemalanDay } from '@/lib/platform/time/guatemala-time';
import { invoiceStanding, PORTAL_INVOICE_STANDING_LABELS, type InvoiceStanding } from '@/lib/presentation/invoice-labels';
import type { AccountRequestProblem } from './account-responses';
import type { InvoiceBody, InvoicesBody } from './account-schemas';

/** Invoices per page. */
export const INVOICES_PAGE_SIZE = 100;

const STATE_OF: Record<InvoiceStanding, InvoiceBody['estado']> = {
  awaiting_receptor: 'pendiente_nit',
  pending: 'en_tramite',
  indeterminate: 'en_tramite',
  to_correct: 'por_corregir',
  certified: 'certificada',
  void_pending: 'anulacion_en_tramite',
  voided: 'anulada',
  credit_note_pending: 'nota_de_credito_en_tramite',
  credited: 'con_nota_de_credito',
  correction_pending: 'correccion_en_tramite',
  corrected: 'corregida',
};

const DOCUMENT_STATE_OF: Record<InvoiceReversal['state'], InvoiceBody['documentos'][number]['estado']> = {
  pending: 'en_tramite',
  indeterminate: 'en_tramite',
  done: 'certificado',
  refused: 'rechazado',
  to_correct: 'por_corregir',
};

export interface InvoicesQuery {
  desde?: string;
  hasta?: string;
  cursor?: string;
}

/** The query of GET /api/cuenta/facturas, or the first problem with it (each answered 400). */
export function parseInvoicesQuery(search: URLSearchParams): { ok: true; query: InvoicesQuery } | { ok: false; problem: AccountRequestProblem } {
  const desde = search.get('desde') ?? undefined;
  const hasta = search.get('hasta') ?? undefined;
  const cursor = search.get('cursor') ?? undefined;
  if (desde !== undefined && !isCalendarDay(desde)) return { ok: false, problem: 'desde' };
  if (hasta !== undefined && !isCalendarDay(hasta)) return { ok: false, problem: 'hasta' };
  if (desde && hasta && hasta < desde) return { ok: false, problem: 'range' };
  if (cursor !== undefined && !decodeCursor(cursor)) return { ok: false, problem: 'cursor' };
  return { ok: true, query: { desde, hasta, cursor } };
}

/** One page of the integration's invoices, newest first, with their documents. */
export async function invoicesBody(integrationId: number, query: InvoicesQuery): Promise<InvoicesBody> {
  const handle = await db();
  const cursor = decodeCursor(query.cursor);
  const rows = await handle
    .select({ invoice: invoices, cursorTimestamp: cursorInstant(invoices.createdAt) })
    .from(invoices)
    .where(
      and(
        eq(invoices.integrationId, integrationId),
        query.desde ? gte(invoices.createdAt, startOfGuatemalanDay(query.desde)) : undefined,
        query.hasta ? lt(invoices.createdAt, startOfNextGuatemalanDay(query.hasta)) : undefined,
        cursor ? beyondCursor(invoices.createdAt, invoices.id, cursor, 'older') : undefined,
      ),
    )
    .orderBy(desc(invoices.createdAt), desc(invoices.id))
    .limit(INVOICES_PAGE_SIZE + 1);
  const page = rows.slice(0, INVOICES_PAGE_SIZE);
  const ids = page.map((row) => row.invoice.id);
  const documents = ids.length === 0 ? [] : await handle.select().from(invoiceReversals).where(inArray(invoiceReversals.invoiceId, ids)).orderBy(asc(invoiceReversals.id));
  const last = page.at(-1);
  return {
    facturas: page.map(({ invoice }) => invoiceOf(invoice, documents.filter((document) => document.invoiceId === invoice.id))),
    moneda: CURRENCY,
    siguiente: rows.length > INVOICES_PAGE_SIZE && last ? encodeCursor({ createdAt: last.cursorTimestamp, id: last.invoice.id }) : null,
  };
}

function invoiceOf(invoice: typeof invoices.$inferSelect, documents: InvoiceReversal[]): InvoiceBody {
  const standing = invoiceStanding(invoice);
  const certified = invoice.state === 'certified';
  return {
    id: invoice.id,
    movimiento_id: invoice.ledgerEntryId,
    tipo_dte: invoice.documentType as InvoiceBody['tipo_dte'],
    estado: STATE_OF[standing],
    estado_texto: PORTAL_INVOICE_STANDING_LABELS[standing],
    fecha_emision: invoice.emittedAt.toISOString(),
    fecha_certificacion: invoice.certifiedAt?.toISOString() ?? null,
    serie: invoice.serie,
    numero: invoice.numero,
    uuid: invoice.uuid,
    total_centavos: invoice.totalCentavos,
    total: centavosAsDecimal(invoice.totalCentavos),
    gravable_centavos: invoice.taxableCentavos,
    iva_centavos: invoice.taxCentavos,
    receptor: { tipo: invoice.receptorKind, id: invoice.receptorId, nombre: invoice.receptorName },
    xml: certified && invoice.certifiedXml !== null ? `/cuenta/facturas/${invoice.id}/xml` : null,
    pdf: certified ? `/cuenta/facturas/${invoice.id}/pdf` : null,
    reemplaza_a: invoice.correctsInvoiceId,
    reemplazada_por: documents.find((document) => document.replacementInvoiceId !== null)?.replacementInvoiceId ?? null,
    documentos: documents.map((document) => ({
      id: document.id,
      tipo: document.kind === 'void' ? 'anulacion' : 'nota_de_credito',
      correccion: document.correctionReceptorKind !== null,
      estado: DOCUMENT_STATE_OF[document.state],
      monto_centavos: document.amountCentavos,
      monto: centavosAsDecimal(document.amountCentavos),
      motivo: document.reason,
      solicitado: document.requestedAt.toISOString(),
      certificado: document.doneAt?.toISOString() ?? null,
      serie: document.serie,
      numero: document.numero,
      uuid: document.uuid,
      xml: document.kind === 'credit_note' && document.state === 'done' && document.certifiedXml !== null ? `/cuenta/facturas/${invoice.id}/notas-de-credito/${document.id}/xml` : null,
      pdf: document.kind === 'credit_note' && document.state === 'done' && document.uuid !== null ? `/cuenta/facturas/${invoice.id}/notas-de-credito/${document.id}/pdf` : null,
    })),
  };
}

/** An id as a path segment spells it (a positive integer the column can hold), or undefined. */
export function pathId(text: string): number | undefined {
  return /^[1-9]\d{0,9}$/.test(text) && Number(text) <= 2_147_483_647 ? Number(text) : undefined;
}

/** A certified invoice of the integration, or undefined (unknown, another integration's, or not certified). */
export async function accountCertifiedInvoice(integrationId: number, idText: string): Promise<CertifiedInvoice | undefined> {
  const id = pathId(idText);
  return id === undefined ? undefined : findCertifiedInvoice(id, integrationId);
}

/** A certified credit note of one of the integration's invoices, its XML, or undefined. */
export async function accountCreditNoteXml(integrationId: number, invoiceIdText: string, noteIdText: string): Promise<{ xml: string; serie: string; numero: string } | undefined> {
  const invoiceId = pathId(invoiceIdText);
  const noteId = pathId(noteIdText);
  return invoiceId === undefined || noteId === undefined ? undefined : creditNoteXmlOf(invoiceId, integrationId, noteId);
}


