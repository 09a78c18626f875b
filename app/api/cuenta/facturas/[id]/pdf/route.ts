// GET /api/cuenta/facturas/:id/pdf - a certified invoice of the integration as PDF, the one the
// portal and the billing contact's e-mail give. Unknown, another integration's and not yet
// certified are the same 404.
import { invoiceFileName, invoicePdf } from '@/lib/flows/invoicing/documents';
import { accountCertifiedInvoice } from '@/lib/surfaces/api/account-invoices';
import { INVOICE_NOT_FOUND_MESSAGE } from '@/lib/surfaces/api/account-responses';
import { accountRouteWithParams } from '@/lib/surfaces/api/account-route';
import { bulkError } from '@/lib/surfaces/api/bulk-responses';
import { accountDownload } from '@/lib/surfaces/api/account-downloads';

export const dynamic = 'force-dynamic';

export const GET = accountRouteWithParams<{ id: string }>(async (_request, { integration, requestId }, { id }) => {
  const invoice = await accountCertifiedInvoice(integration.id, id);
  const pdf = invoice ? await invoicePdf(invoice) : null;
  if (!invoice || !pdf) return bulkError(404, INVOICE_NOT_FOUND_MESSAGE, requestId);
  return accountDownload(new Uint8Array(pdf), 'application/pdf', invoiceFileName(invoice, 'pdf'), requestId);
});
