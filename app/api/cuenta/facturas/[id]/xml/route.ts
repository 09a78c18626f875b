// GET /api/cuenta/facturas/:id/xml - a certified invoice of the integration, its XML as the certifier
// returned it. Unknown, another integration's and not yet certified are the same 404.
import { certifiedXmlOf } from '@/lib/core/invoices/documents';
import { invoiceFileName } from '@/lib/flows/invoicing/documents';
import { accountCertifiedInvoice } from '@/lib/surfaces/api/account-invoices';
import { INVOICE_NOT_FOUND_MESSAGE } from '@/lib/surfaces/api/account-responses';
import { accountRouteWithParams } from '@/lib/surfaces/api/account-route';
import { bulkError } from '@/lib/surfaces/api/bulk-responses';
import { accountDownload } from '@/lib/surfaces/api/account-downloads';

export const dynamic = 'force-dynamic';

export const GET = accountRouteWithParams<{ id: string }>(async (_request, { integration, requestId }, { id }) => {
  const invoice = await accountCertifiedInvoice(integration.id, id);
  const xml = invoice ? await certifiedXmlOf(invoice.id, integration.id) : undefined;
  if (!invoice || !xml) return bulkError(404, INVOICE_NOT_FOUND_MESSAGE, requestId);
  return accountDownload(xml, 'application/xml; charset=utf-8', invoiceFileName(invoice, 'xml'), requestId);
});
