// GET /api/cuenta/facturas - the integration's FEL invoices as the portal's Facturas lists them,
// newest first, each with its void or credit notes and where to download what is certified.
import { ACCOUNT_MESSAGES } from '@/lib/surfaces/api/account-responses';
import { accountRoute } from '@/lib/surfaces/api/account-route';
import { invoicesBody, parseInvoicesQuery } from '@/lib/surfaces/api/account-invoices';
import { bulkError } from '@/lib/surfaces/api/bulk-responses';
import { jsonResponse } from '@/lib/surfaces/api/responses';

export const dynamic = 'force-dynamic';

export const GET = accountRoute(async (request, { integration, requestId }) => {
  const parsed = parseInvoicesQuery(new URL(request.url).searchParams);
  if (!parsed.ok) return bulkError(400, ACCOUNT_MESSAGES[parsed.problem], requestId);
  return jsonResponse(200, await invoicesBody(integration.id, parsed.query), requestId);
});
