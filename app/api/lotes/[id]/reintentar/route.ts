// POST /api/lotes/{id}/reintentar - a new job of only the rows of a finished job that the source
// answered with an error; the same job retried again answers the same new job.
import { bulkError, BULK_MESSAGES, bulkErrors, jobBody } from '@/lib/surfaces/api/bulk-responses';
import { bulkRoute } from '@/lib/surfaces/api/bulk-route';
import { jsonResponse } from '@/lib/surfaces/api/responses';
import { wakeBulkRunner } from '@/lib/flows/bulk/runner';
import { readJob, readJobOrThrow } from '@/lib/flows/bulk/jobs';
import { retryFailedItems } from '@/lib/flows/bulk/retry';
import { LOOKUP_FLAGS } from '@/lib/core/integrations/flags';

export const dynamic = 'force-dynamic';

export const POST = bulkRoute<{ id: string }>(async (_request, { integration, requestId }, { id }) => {
  const original = await readJob(integration.id, id);
  if (!original) return bulkErrors.notFound(requestId);
  // The retry runs the same catalog: refused as a new list for it would be.
  if (!integration[LOOKUP_FLAGS[original.catalog]]) return bulkErrors.notEnabled(requestId);
  const retried = await retryFailedItems(integration.id, id);
  if (retried.kind === 'unknown') return bulkErrors.notFound(requestId);
  if (retried.kind === 'not_finished') return bulkError(409, BULK_MESSAGES.jobNotFinished, requestId);
  if (retried.kind === 'nothing_to_retry') return bulkError(409, BULK_MESSAGES.nothingToRetry, requestId);
  // This instance's runner may be sleeping off an idle spell: it starts the new job now.
  if (retried.kind === 'created') wakeBulkRunner();
  const job = await readJobOrThrow(integration.id, retried.publicId);
  const response = jsonResponse(retried.kind === 'created' ? 202 : 200, jobBody(job), requestId);
  response.headers.set('location', `/api/lotes/${job.publicId}`);
  return response;
});
