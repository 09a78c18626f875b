// GET /api/constancias/:id - a receipt of the integration's own lookup (docs/constancias.md): the
// signed receipt and where it stands in the log. Unknown and another integration's are the same 404.
import { accountRouteWithParams } from '@/lib/surfaces/api/account-route';
import { bulkError } from '@/lib/surfaces/api/bulk-responses';
import { constanciaBody, CONSTANCIA_MESSAGES } from '@/lib/surfaces/api/constancias';
import { jsonResponse } from '@/lib/surfaces/api/responses';

export const dynamic = 'force-dynamic';

export const GET = accountRouteWithParams<{ id: string }>(async (_request, { integration, requestId }, { id }) => {
  const found = await constanciaBody(integration.id, id);
  if (!found) return bulkError(404, CONSTANCIA_MESSAGES.notFound, requestId);
  return jsonResponse(200, found.body, requestId);
});
