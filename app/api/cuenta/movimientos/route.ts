// GET /api/cuenta/movimientos - the balance's movements (top-ups, adjustments, charged lookups) as the
// portal's Movimientos lists them: newest first, filtered by Guatemalan days and kind, paged by cursor.
import { ACCOUNT_MESSAGES } from '@/lib/surfaces/api/account-responses';
import { accountRoute } from '@/lib/surfaces/api/account-route';
import { movementsBody, parseMovementsQuery } from '@/lib/surfaces/api/account';
import { bulkError } from '@/lib/surfaces/api/bulk-responses';
import { jsonResponse } from '@/lib/surfaces/api/responses';

export const dynamic = 'force-dynamic';

export const GET = accountRoute(async (request, { integration, requestId }) => {
  const parsed = parseMovementsQuery(new URL(request.url).searchParams);
  if (!parsed.ok) return bulkError(400, ACCOUNT_MESSAGES[parsed.problem], requestId);
  return jsonResponse(200, await movementsBody(integration.id, parsed.query), requestId);
});
