// GET /admin/facturas/:id/nota-de-credito/:nota/pdf - a certified credit note of an invoice as PDF
// (lib/flows/invoicing/pdf.ts), for console users, as a download. 404 for one not certified, or none.
import { findCertifiedCreditNote } from '@/lib/core/invoices/documents';
import { consoleUserWithAccess } from '@/lib/surfaces/console/session';
import { creditNoteFileName, creditNotePdf } from '@/lib/flows/invoicing/documents';
import { plainText } from '@/lib/platform/http/plain-text';
import { INVOICE_PAGE_MESSAGES } from '@/lib/presentation/invoice-labels';
import { invoiceIdOf } from '@/lib/surfaces/console/invoices';
import { pdfAttachment } from '@/lib/platform/http/pdf-attachment';

export const dynamic = 'force-dynamic';

export async function GET(_request: Request, { params }: { params: Promise<{ id: string; nota: string }> }) {
  if (!(await consoleUserWithAccess())) return plainText(401, INVOICE_PAGE_MESSAGES.signedOut);
  const { id, nota } = await params;
  const invoiceId = invoiceIdOf(id);
  const noteId = invoiceIdOf(nota);
  const note = invoiceId === undefined || noteId === undefined ? undefined : await findCertifiedCreditNote(invoiceId, undefined, noteId);
  const pdf = note && (await creditNotePdf(note));
  if (!note || !pdf) return plainText(404, INVOICE_PAGE_MESSAGES.creditNotePdfNotFound);
  return pdfAttachment(pdf, creditNoteFileName(note, 'pdf'));
}
