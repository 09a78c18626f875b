// GET /portal/facturas/:id/pdf - a certified invoice of the session's integration, as PDF.
import { invoiceFileName, invoicePdf } from '@/lib/flows/invoicing/documents';
import { BILLING_READERS } from '@/lib/surfaces/portal/page-access';
import { portalInvoiceDownload, portalInvoiceMissing } from '@/lib/surfaces/portal/downloads';
import { pdfAttachment } from '@/lib/platform/http/pdf-attachment';

export const dynamic = 'force-dynamic';

export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  const found = await portalInvoiceDownload(BILLING_READERS, params);
  if (found instanceof Response) return found;
  const pdf = await invoicePdf(found.invoice);
  if (!pdf) return portalInvoiceMissing(found.user);
  return pdfAttachment(pdf, invoiceFileName(found.invoice, 'pdf'));
}
