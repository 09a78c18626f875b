import { certifiedXmlOf, findCertifiedCreditNote } from '@/lib/core/invoices/documents';
import { creditNoteFileName, creditNotePdf, invoiceFileName, invoicePdf } from '@/lib/flows/invoicing/documents';
import { statementChargesCsvStream } from '@/lib/flows/statements/csv';
import { statementInvoices } from '@/lib/flows/statements/invoices';
import { renderStatementPdf, renderStatementPreviewPdf } from '@/lib/flows/statements/pdf';
import { BILLING_READERS } from '@/lib/flows/portal-identity/roles';
import { logger } from '@/lib/platform/logging/logger';
import { env } from '@/lib/platform/settings/env';
import { portalDownloadPage } from './download-page';
import { portalDownloadUser, portalInvoiceDownload, portalInvoiceMissing, portalStatementDownload } from './downloads';
import { invoiceIdOf, portalCreditNoteXml } from './invoices';
import { portalStatementPreview } from './statements';

// The documents of "Estados de cuenta" and "Facturas" as downloads (app/portal/(sesion)/estados and
// facturas, route handlers): each for those who read billing (BILLING_READERS), of the session's
// integration only, with downloads.ts's answers for a signed-out session, a refused role or a
// missing document.

const log = logger('portal');

type IdParams = Promise<{ id: string }>;

/**
 * A document to download, or the answer that refuses it (signed out, a role that does not read
 * billing, no such document). The route writes the file with its own headers
 * (lib/platform/http/pdf-attachment.ts, xml-attachment.ts), where the header check sees them.
 */
export interface PdfDownload {
  file: Buffer;
  fileName: string;
}

export interface XmlDownload {
  xml: string;
  fileName: string;
}

/** GET /portal/estados/:id/pdf: an issued monthly statement, as PDF. */
export async function portalStatementPdfDownload(params: IdParams): Promise<Response | PdfDownload> {
  const found = await portalStatementDownload(BILLING_READERS, params);
  if (found instanceof Response) return found;
  const { statement, user } = found;
  const pdf = await renderStatementPdf(statement, env().SERVICE_NAME, await statementInvoices(statement));
  return { file: pdf, fileName: `estado-de-cuenta-${user.integrationName}-${statement.month}.pdf` };
}

/** GET /portal/estados/:id/csv: the charged queries of an issued statement's month, identifiers masked. */
export async function portalStatementCsvResponse(params: IdParams): Promise<Response> {
  const found = await portalStatementDownload(BILLING_READERS, params);
  if (found instanceof Response) return found;
  const { statement, user } = found;
  // Masked as the portal shows identifiers everywhere: billing reads statements but not the query
  // records, and the identifiers in full would be those records by another door (docs/decisions.md).
  const stream = statementChargesCsvStream(
    statement.integrationId,
    statement.month,
    (error) => log.error({ err: error, statementId: statement.id }, 'portal statement CSV failed'),
    'masked',
  );
  return new Response(stream, {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="consultas-cobradas-${user.integrationName}-${statement.month}.csv"`,
      'cache-control': 'no-store',
    },
  });
}

/** GET /portal/estados/vista-previa/pdf: the running month's statement preview, as PDF. */
export async function portalStatementPreviewPdfDownload(): Promise<Response | PdfDownload> {
  const user = await portalDownloadUser(BILLING_READERS);
  if (user instanceof Response) return user;
  const preview = await portalStatementPreview(user);
  // The running month always exists and its records are kept: what remains is figures that do not reconcile.
  if (!preview.ok) return portalDownloadPage(409, user, 'No se pudo preparar la vista previa', preview.error.message);
  const { desde, hasta } = preview.value.range;
  const pdf = await renderStatementPreviewPdf(preview.value, env().SERVICE_NAME);
  return { file: pdf, fileName: `vista-previa-estado-de-cuenta-${user.integrationName}-${desde}-a-${hasta}.pdf` };
}

/** GET /portal/facturas/:id/pdf: a certified invoice, as PDF. */
export async function portalInvoicePdfDownload(params: IdParams): Promise<Response | PdfDownload> {
  const found = await portalInvoiceDownload(BILLING_READERS, params);
  if (found instanceof Response) return found;
  const pdf = await invoicePdf(found.invoice);
  if (!pdf) return portalInvoiceMissing(found.user);
  return { file: pdf, fileName: invoiceFileName(found.invoice, 'pdf') };
}

/** GET /portal/facturas/:id/xml: a certified invoice's XML as the certifier returned it. */
export async function portalInvoiceXmlDownload(params: IdParams): Promise<Response | XmlDownload> {
  const found = await portalInvoiceDownload(BILLING_READERS, params);
  if (found instanceof Response) return found;
  const xml = await certifiedXmlOf(found.invoice.id, found.user.integrationId);
  if (!xml) return portalInvoiceMissing(found.user);
  return { xml: xml, fileName: invoiceFileName(found.invoice, 'xml') };
}

/** GET /portal/facturas/:id/nota-de-credito/pdf: an invoice's certified credit note (its latest), as PDF; anything else the same 404. */
export async function portalCreditNotePdfDownload(params: IdParams): Promise<Response | PdfDownload> {
  const user = await portalDownloadUser(BILLING_READERS);
  if (user instanceof Response) return user;
  const invoiceId = invoiceIdOf((await params).id);
  const note = invoiceId === undefined ? undefined : await findCertifiedCreditNote(invoiceId, user.integrationId);
  const pdf = note && (await creditNotePdf(note));
  if (!note || !pdf) return portalInvoiceMissing(user);
  return { file: pdf, fileName: creditNoteFileName(note, 'pdf') };
}

/** GET /portal/facturas/:id/nota-de-credito/xml: an invoice's certified credit note, its XML; without one, the same 404. */
export async function portalCreditNoteXmlDownload(params: IdParams): Promise<Response | XmlDownload> {
  const user = await portalDownloadUser(BILLING_READERS);
  if (user instanceof Response) return user;
  const note = await portalCreditNoteXml(user, (await params).id);
  if (!note) return portalInvoiceMissing(user);
  return { xml: note.xml, fileName: creditNoteFileName(note) };
}
