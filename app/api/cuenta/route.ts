// GET /api/cuenta - the integration's balance, low-balance threshold, tariff, enabled lookups,
// per-minute limits with this minute's use, and what this month and the last cost.
import { accountRoute } from '@/lib/surfaces/api/account-route';
import { accountBody } from '@/lib/surfaces/api/account';
import { bulkErrors } from '@/lib/surfaces/api/bulk-responses';
import { jsonResponse } from '@/lib/surfaces/api/responses';

export const dynamic = 'force-dynamic';

export const GET = accountRoute(async (_request, { integration, requestId }) => {
  const body = await accountBody(integration.id);
  // Deleted since the credentials' copy was read: as unknown credentials would be once it is reloaded.
  if (!body) return bulkErrors.credentialsInvalid(requestId);
  return jsonResponse(200, body, requestId);
});
