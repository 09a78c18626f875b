// GET /api/vigilancias/{id} - a watch list, its next run and its last; DELETE - deletes it (a run
// still going is cancelled; its NITs and changes are deleted with it); PATCH - renames it, changes
// its frequency, pauses or resumes it, adds or removes NITs, keeping its history (lib/flows/watch-lists/edit.ts).
import { REQUEST_ID_HEADER } from '@/lib/platform/http/request-id';
import { bulkRoute } from '@/lib/surfaces/api/bulk-route';
import { jsonResponse } from '@/lib/surfaces/api/responses';
import { WATCH_LIST_MESSAGES, watchListErrors } from '@/lib/surfaces/api/watch-list-responses';
import { bulkError, BULK_MESSAGES, bulkErrors } from '@/lib/surfaces/api/bulk-responses';
import { deleteWatchList, readWatchList } from '@/lib/flows/watch-lists';
import { editWatchList } from '@/lib/flows/watch-lists/edit';
import { parseWatchListEdit, watchListBody, watchListEditedBody } from '@/lib/flows/watch-lists/schemas';
import { MAX_BULK_BODY_BYTES } from '@/lib/flows/bulk/requests';
import { readJsonBody } from '@/lib/platform/http/json-body';

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

export const PATCH = bulkRoute<{ id: string }>(async (request, { integration, requestId }, { id }) => {
  const body = await readJsonBody(request, MAX_BULK_BODY_BYTES);
  if (!body.ok) return bulkError(400, body.problem === 'too_large' || body.problem === 'content_type' ? BULK_MESSAGES[body.problem] : BULK_MESSAGES.malformed, requestId);
  const parsed = parseWatchListEdit(body.value);
  if (!parsed.ok) return bulkError(400, WATCH_LIST_MESSAGES[parsed.problem], requestId);
  const { nombre, frecuencia, estado, agregar_nits, quitar_nits, constancias } = parsed.value;
  if (constancias && !integration.constanciasEnabled) return bulkErrors.constanciasNotEnabled(requestId);
  const actor = { kind: 'api', integrationId: integration.id, integrationName: integration.nombre } as const;
  const edited = await editWatchList(actor, integration.id, id, { name: nombre, schedule: frecuencia, state: estado, add: agregar_nits, remove: quitar_nits, constancias });
  if (edited.kind === 'unknown') return watchListErrors.notFound(requestId);
  if (edited.kind === 'nothing_left') return bulkError(400, WATCH_LIST_MESSAGES.nothingLeft, requestId);
  if (edited.kind === 'too_many') return bulkError(400, WATCH_LIST_MESSAGES.tooMany, requestId);
  return jsonResponse(200, watchListEditedBody(edited.list, edited.setAside), requestId);
});
