// A certified invoice's PDF and its credit notes', as the console downloads them (administrators
// and support): the file, or the answer instead of it (401 signed out, 404 for one not certified,
// or none). The route answers with the file itself (pdfAttachment), so the headers it writes are
// its own (lib/platform/http/route-headers.ts).
import { findCertifiedCreditNote, findCertifiedInvoice } from '@/lib/core/invoices/documents';
import { creditNoteFileName, creditNotePdf, invoiceFileName, invoicePdf } from '@/lib/flows/invoicing/documents';
import { plainText } from '@/lib/platform/http/plain-text';
import { INVOICE_PAGE_MESSAGES } from '@/lib/presentation/invoice-labels';
import { consoleUserWithAccess } from '@/lib/flows/auth/session';
import { invoiceIdOf } from '@/lib/surfaces/console/invoices';

/** A PDF and the name it downloads under. */
export interface PdfFile {
  pdf: Buffer;
  fileName: string;
}

export async function invoicePdfFile(id: string): Promise<PdfFile | Response> {
  if (!(await consoleUserWithAccess())) return plainText(401, INVOICE_PAGE_MESSAGES.signedOut);
  const invoiceId = invoiceIdOf(id);
  const invoice = invoiceId === undefined ? undefined : await findCertifiedInvoice(invoiceId);
  const pdf = invoice && (await invoicePdf(invoice));
  if (!invoice || !pdf) return plainText(404, INVOICE_PAGE_MESSAGES.pdfNotFound);
  return { pdf, fileName: invoiceFileName(invoice, 'pdf') };
}

export async function creditNotePdfFile(id: string, nota: string): Promise<PdfFile | Response> {
  if (!(await consoleUserWithAccess())) return plainText(401, INVOICE_PAGE_MESSAGES.signedOut);
  const invoiceId = invoiceIdOf(id);
  const noteId = invoiceIdOf(nota);
  const note = invoiceId === undefined || noteId === undefined ? undefined : await findCertifiedCreditNote(invoiceId, undefined, noteId);
  const pdf = note && (await creditNotePdf(note));
  if (!note || !pdf) return plainText(404, INVOICE_PAGE_MESSAGES.creditNotePdfNotFound);
  return { pdf, fileName: creditNoteFileName(note, 'pdf') };
}
