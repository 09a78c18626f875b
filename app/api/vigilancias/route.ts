// POST /api/vigilancias - save a watch list (Vigilancia): NITs, a catalog and a schedule; each run is
// a bulk job charged as one, and the integrator is told only of what changed
// (docs/integrators.md). The same credentials, error shapes and per-minute counter as /api/lotes.
// GET - the integration's lists, newest first, a page at a time (the portal's Vigilancia list).
import { bulkError, BULK_MESSAGES, bulkErrors } from '@/lib/surfaces/api/bulk-responses';
import { bulkRoute } from '@/lib/surfaces/api/bulk-route';
import { jsonResponse } from '@/lib/surfaces/api/responses';
import { WATCH_LIST_MESSAGES } from '@/lib/surfaces/api/watch-list-responses';
import { MAX_BULK_BODY_BYTES } from '@/lib/flows/bulk/requests';
import { wakeBulkRunner } from '@/lib/flows/bulk/runner';
import { CATALOG_MESSAGES } from '@/lib/contract/messages';
import { readJsonBody } from '@/lib/platform/http/json-body';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_REFUSAL_REASONS, readIdempotencyKey, REFUSAL_REASON_HEADER } from '@/lib/core/idempotency/key';
import { LOOKUP_FLAGS } from '@/lib/core/integrations/flags';
import { createWatchList, isPublicWatchListId, listWatchLists } from '@/lib/flows/watch-lists';
import { parseWatchListRequest, watchListBody, watchListCreatedBody } from '@/lib/flows/watch-lists/schemas';

export const dynamic = 'force-dynamic';

const create = bulkRoute<object>(async (request, { integration, requestId }) => {
  const body = await readJsonBody(request, MAX_BULK_BODY_BYTES);
  if (!body.ok) return bulkError(400, body.problem === 'too_large' || body.problem === 'content_type' ? BULK_MESSAGES[body.problem] : BULK_MESSAGES.malformed, requestId);
  const parsed = parseWatchListRequest(body.value);
  if (!parsed.ok) return bulkError(400, WATCH_LIST_MESSAGES[parsed.problem], requestId);
  // A list of a catalog the integration cannot call would only ever run into the flag.
  if (!integration[LOOKUP_FLAGS[parsed.value.catalogo]]) return bulkErrors.notEnabled(requestId);
  if (parsed.value.constancias && !integration.constanciasEnabled) return bulkErrors.constanciasNotEnabled(requestId);
  // Required, as for a job: a list sent again after a lost answer must not become a second list
  // that runs, and charges, on every schedule.
  const key = readIdempotencyKey(request.headers.get(IDEMPOTENCY_KEY_HEADER));
  if (key.kind === 'absent') return bulkError(400, WATCH_LIST_MESSAGES.idempotencyKeyMissing, requestId);
  if (key.kind === 'invalid') return keyRefusal('idempotency_key_invalid', requestId);
  const created = await createWatchList(integration.id, {
    name: parsed.value.nombre,
    catalog: parsed.value.catalogo,
    schedule: parsed.value.frecuencia,
    nits: parsed.value.nits,
    idempotencyKey: key.key,
    constancias: parsed.value.constancias,
  });
  if (created.kind === 'nothing_to_watch') return bulkError(400, WATCH_LIST_MESSAGES.nothingToWatch, requestId);
  if (created.kind === 'key_reused') return keyRefusal('idempotency_key_reused', requestId);
  // Its first run (the baseline) is due now: this instance's runner starts it at its next look.
  if (created.kind === 'created') wakeBulkRunner();
  const response = jsonResponse(created.kind === 'created' ? 201 : 200, watchListCreatedBody(created.list, created.setAside), requestId);
  response.headers.set('location', `/api/vigilancias/${created.list.publicId}`);
  return response;
});

export function POST(request: Request): Promise<Response> {
  return create(request, { params: Promise.resolve({}) });
}

const list = bulkRoute<object>(async (request, { integration, requestId }) => {
  // The cursor is the previous page's last list id: one of another integration's pages nothing.
  const cursor = new URL(request.url).searchParams.get('cursor') ?? undefined;
  if (cursor !== undefined && !isPublicWatchListId(cursor)) return bulkError(400, WATCH_LIST_MESSAGES.invalidCursor, requestId);
  const page = await listWatchLists(integration.id, cursor);
  return jsonResponse(200, { vigilancias: page.lists.map(watchListBody), siguiente: page.next ?? null }, requestId);
});

export function GET(request: Request): Promise<Response> {
  return list(request, { params: Promise.resolve({}) });
}

/** The catalogs' 400 for an Idempotency-Key, with the header naming which problem it was (as /api/lotes). */
function keyRefusal(problem: keyof typeof IDEMPOTENCY_REFUSAL_REASONS, requestId: string): Response {
  const response = bulkError(400, CATALOG_MESSAGES.sourceRejectedData, requestId);
  response.headers.set(REFUSAL_REASON_HEADER, IDEMPOTENCY_REFUSAL_REASONS[problem]);
  return response;
}
