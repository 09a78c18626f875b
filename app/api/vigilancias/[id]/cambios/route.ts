// GET /api/vigilancias/{id}/cambios - what the list's runs found changed, with the before and the
// after, newest run first, a page at a time (?cursor= from the previous page's `siguiente`; the
// cursor names a run and a position, never a NIT).
import { bulkError } from '@/lib/surfaces/api/bulk-responses';
import { bulkRoute } from '@/lib/surfaces/api/bulk-route';
import { jsonResponse } from '@/lib/surfaces/api/responses';
import { WATCH_LIST_MESSAGES, watchListErrors } from '@/lib/surfaces/api/watch-list-responses';
import { listWatchListChanges } from '@/lib/flows/watch-lists';
import { watchListChangesBody } from '@/lib/flows/watch-lists/schemas';

export const dynamic = 'force-dynamic';

export const GET = bulkRoute<{ id: string }>(async (request, { integration, requestId }, { id }) => {
  const cursor = new URL(request.url).searchParams.get('cursor') ?? undefined;
  const page = await listWatchListChanges(integration.id, id, cursor);
  if (page === null) return watchListErrors.notFound(requestId);
  if (page === 'invalid_cursor') return bulkError(400, WATCH_LIST_MESSAGES.invalidCursor, requestId);
  return jsonResponse(200, watchListChangesBody(page), requestId);
});
