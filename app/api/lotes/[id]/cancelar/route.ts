// POST /api/lotes/{id}/cancelar - stops a bulk job: nothing pending runs or is charged after it.
import { bulkError, BULK_MESSAGES, bulkErrors, jobBody } from '@/lib/surfaces/api/bulk-responses';
import { bulkRoute } from '@/lib/surfaces/api/bulk-route';
import { jsonResponse } from '@/lib/surfaces/api/responses';
import { cancelJob, readJobOrThrow } from '@/lib/flows/bulk/jobs';

export const dynamic = 'force-dynamic';

export const POST = bulkRoute<{ id: string }>(async (_request, { integration, requestId }, { id }) => {
  const cancelled = await cancelJob(integration.id, id);
  if (cancelled.kind === 'unknown') return bulkErrors.notFound(requestId);
  // Cancelling a cancelled job again is answered as the first time (a retried request); a completed one cannot be.
  if (cancelled.kind === 'already_finished' && cancelled.state === 'completado') return bulkError(409, BULK_MESSAGES.jobFinished, requestId);
  return jsonResponse(200, jobBody(await readJobOrThrow(integration.id, id)), requestId);
});
