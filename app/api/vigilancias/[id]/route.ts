// GET /api/vigilancias/{id} - a watch list, its next run and its last; DELETE - deletes it (a run
// still going is cancelled; its NITs and changes are deleted with it).
import { REQUEST_ID_HEADER } from '@/lib/platform/http/request-id';
import { bulkRoute } from '@/lib/surfaces/api/bulk-route';
import { jsonResponse } from '@/lib/surfaces/api/responses';
import { watchListErrors } from '@/lib/surfaces/api/watch-list-responses';
import { deleteWatchList, readWatchList } from '@/lib/flows/watch-lists';
import { watchListBody } from '@/lib/flows/watch-lists/schemas';

export const dynamic = 'force-dynamic';

export const GET = bulkRoute<{ id: string }>(async (_request, { integration, requestId }, { id }) => {
  // Scoped to the caller's integration: another integration's list reads as an unknown id.
  const list = await readWatchList(integration.id, id);
  return list ? jsonResponse(200, watchListBody(list), requestId) : watchListErrors.notFound(requestId);
});

export const DELETE = bulkRoute<{ id: string }>(async (_request, { integration, requestId }, { id }) => {
  const deleted = await deleteWatchList(integration.id, id);
  return deleted ? new Response(null, { status: 204, headers: { [REQUEST_ID_HEADER]: requestId } }) : watchListErrors.notFound(requestId);
});
