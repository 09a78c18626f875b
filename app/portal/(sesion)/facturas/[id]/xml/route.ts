// GET /portal/facturas/:id/xml - a certified invoice of the session's integration, its XML as the
// certifier returned it, as a download.
import { certifiedXmlOf } from '@/lib/core/invoices/documents';
import { invoiceFileName } from '@/lib/flows/invoicing/documents';
import { BILLING_READERS } from '@/lib/surfaces/portal/page-access';
import { portalInvoiceDownload, portalInvoiceMissing } from '@/lib/surfaces/portal/downloads';

export const dynamic = 'force-dynamic';

export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  const found = await portalInvoiceDownload(BILLING_READERS, params);
  if (found instanceof Response) return found;
  const xml = await certifiedXmlOf(found.invoice.id, found.user.integrationId);
  if (!xml) return portalInvoiceMissing(found.user);
  return new Response(xml, {
    headers: {
      'content-type': 'application/xml; charset=utf-8',
      'content-disposition': `attachment; filename="${invoiceFileName(found.invoice, 'xml')}"`,
      'cache-control': 'private, no-store',
      'content-security-policy': "sandbox; default-src 'none'; frame-ancestors 'none'",
      'x-content-type-options': 'nosniff',
    },
  });
}
