// A certified invoice's PDF and its credit notes', as the console downloads them (administrators
// and support): 401 signed out, 404 for one not certified, or none.
import { findCertifiedCreditNote, findCertifiedInvoice } from '@/lib/core/invoices/documents';
import { creditNoteFileName, creditNotePdf, invoiceFileName, invoicePdf } from '@/lib/flows/invoicing/documents';
import { pdfAttachment } from '@/lib/platform/http/pdf-attachment';
import { plainText } from '@/lib/platform/http/plain-text';
import { INVOICE_PAGE_MESSAGES } from '@/lib/presentation/invoice-labels';
import { consoleUserWithAccess } from '@/lib/flows/auth/session';
import { invoiceIdOf } from '@/lib/surfaces/console/invoices';

export async function invoicePdfDownload(id: string): Promise<Response> {
  if (!(await consoleUserWithAccess())) return plainText(401, INVOICE_PAGE_MESSAGES.signedOut);
  const invoiceId = invoiceIdOf(id);
  const invoice = invoiceId === undefined ? undefined : await findCertifiedInvoice(invoiceId);
  const pdf = invoice && (await invoicePdf(invoice));
  if (!invoice || !pdf) return plainText(404, INVOICE_PAGE_MESSAGES.pdfNotFound);
  return pdfAttachment(pdf, invoiceFileName(invoice, 'pdf'));
}

export async function creditNotePdfDownload(id: string, nota: string): Promise<Response> {
  if (!(await consoleUserWithAccess())) return plainText(401, INVOICE_PAGE_MESSAGES.signedOut);
  const invoiceId = invoiceIdOf(id);
  const noteId = invoiceIdOf(nota);
  const note = invoiceId === undefined || noteId === undefined ? undefined : await findCertifiedCreditNote(invoiceId, undefined, noteId);
  const pdf = note && (await creditNotePdf(note));
  if (!note || !pdf) return plainText(404, INVOICE_PAGE_MESSAGES.creditNotePdfNotFound);
  return pdfAttachment(pdf, creditNoteFileName(note, 'pdf'));
}
