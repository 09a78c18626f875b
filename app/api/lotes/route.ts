// POST /api/lotes - submit a bulk job (lote): a catalog and up to 10,000 identifiers, run in the
// background, each a real lookup charged only when found (docs/integrators.md). GET - the
// integration's jobs, newest first, a page at a time (the portal's Lotes list, its figures from each job's row).
import { bulkError, BULK_MESSAGES, bulkErrors, jobBody } from '@/lib/surfaces/api/bulk-responses';
import { bulkRoute } from '@/lib/surfaces/api/bulk-route';
import { jsonResponse } from '@/lib/surfaces/api/responses';
import { readJobOrThrow, submitJob } from '@/lib/flows/bulk/jobs';
import { listConsoleJobs } from '@/lib/flows/bulk/console';
import { decodeCursor } from '@/lib/platform/paging/keyset';
import { wakeBulkRunner } from '@/lib/flows/bulk/runner';
import { MAX_BULK_BODY_BYTES, parseBulkJobRequest } from '@/lib/flows/bulk/requests';
import { CATALOG_MESSAGES } from '@/lib/contract/messages';
import { readJsonBody } from '@/lib/platform/http/json-body';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_REFUSAL_REASONS, readIdempotencyKey, REFUSAL_REASON_HEADER } from '@/lib/core/idempotency/key';
import { LOOKUP_FLAGS } from '@/lib/core/integrations/flags';

export const dynamic = 'force-dynamic';

const submit = bulkRoute<object>(async (request, { integration, requestId }) => {
  const body = await readJsonBody(request, MAX_BULK_BODY_BYTES);
  if (!body.ok) return bulkError(400, body.problem === 'too_large' || body.problem === 'content_type' ? BULK_MESSAGES[body.problem] : BULK_MESSAGES.malformed, requestId);
  const parsed = parseBulkJobRequest(body.value);
  if (!parsed.ok) return bulkError(400, BULK_MESSAGES[parsed.problem], requestId);
  if (!integration[LOOKUP_FLAGS[parsed.catalog]]) return bulkErrors.notEnabled(requestId);
  if (parsed.constancias && !integration.constanciasEnabled) return bulkErrors.constanciasNotEnabled(requestId);

  const key = readIdempotencyKey(request.headers.get(IDEMPOTENCY_KEY_HEADER));
  if (key.kind === 'absent') return bulkError(400, BULK_MESSAGES.idempotencyKeyMissing, requestId);
  if (key.kind === 'invalid') return keyRefusal('idempotency_key_invalid', requestId);

  const submitted = await submitJob(integration.id, parsed.catalog, parsed.identifiers, key.key, { constancias: parsed.constancias });
  if (submitted.kind === 'key_reused') return keyRefusal('idempotency_key_reused', requestId);
  // This instance's runner may be sleeping off an idle spell: it starts the new job now.
  if (submitted.kind === 'created') wakeBulkRunner();
  const job = await readJobOrThrow(integration.id, submitted.publicId);
  const response = jsonResponse(submitted.kind === 'created' ? 202 : 200, jobBody(job), requestId);
  response.headers.set('location', `/api/lotes/${job.publicId}`);
  return response;
});

export function POST(request: Request): Promise<Response> {
  return submit(request, { params: Promise.resolve({}) });
}

const list = bulkRoute<object>(async (request, { integration, requestId }) => {
  const cursor = new URL(request.url).searchParams.get('cursor') ?? undefined;
  if (cursor !== undefined && decodeCursor(cursor) === undefined) return bulkError(400, BULK_MESSAGES.invalidCursor, requestId);
  const page = await listConsoleJobs({ integrationId: integration.id }, cursor);
  return jsonResponse(200, { lotes: page.rows.map(jobBody), siguiente: page.older ?? null }, requestId);
});

export function GET(request: Request): Promise<Response> {
  return list(request, { params: Promise.resolve({}) });
}

/** The catalogs' 400 for an Idempotency-Key, with the same header naming which problem it was. */
function keyRefusal(problem: keyof typeof IDEMPOTENCY_REFUSAL_REASONS, requestId: string): Response {
  const response = bulkError(400, CATALOG_MESSAGES.sourceRejectedData, requestId);
  response.headers.set(REFUSAL_REASON_HEADER, IDEMPOTENCY_REFUSAL_REASONS[problem]);
  return response;
}
