// GET /admin/facturas/:id/pdf - a certified invoice as PDF (lib/flows/invoicing/pdf.ts), for console
// users (administrators and support), as a download. 404 for an invoice not certified, or none.
import { findCertifiedInvoice } from '@/lib/core/invoices/documents';
import { consoleUserWithAccess } from '@/lib/surfaces/console/session';
import { invoiceFileName, invoicePdf } from '@/lib/flows/invoicing/documents';
import { plainText } from '@/lib/platform/http/plain-text';
import { INVOICE_PAGE_MESSAGES } from '@/lib/presentation/invoice-labels';
import { invoiceIdOf } from '@/lib/surfaces/console/invoices';
import { pdfAttachment } from '@/lib/platform/http/pdf-attachment';

export const dynamic = 'force-dynamic';

export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  if (!(await consoleUserWithAccess())) return plainText(401, INVOICE_PAGE_MESSAGES.signedOut);
  const invoiceId = invoiceIdOf((await params).id);
  const invoice = invoiceId === undefined ? undefined : await findCertifiedInvoice(invoiceId);
  const pdf = invoice && (await invoicePdf(invoice));
  if (!invoice || !pdf) return plainText(404, INVOICE_PAGE_MESSAGES.pdfNotFound);
  return pdfAttachment(pdf, invoiceFileName(invoice, 'pdf'));
}
