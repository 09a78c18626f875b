// GET /api/lotes/{id} - a bulk job's state, counts, charged amount and estimated end.
import { bulkErrors, jobBody } from '@/lib/surfaces/api/bulk-responses';
import { bulkRoute } from '@/lib/surfaces/api/bulk-route';
import { jsonResponse } from '@/lib/surfaces/api/responses';
import { readJob } from '@/lib/flows/bulk/jobs';

export const dynamic = 'force-dynamic';

export const GET = bulkRoute<{ id: string }>(async (_request, { integration, requestId }, { id }) => {
  // Scoped to the caller's integration: another integration's job reads as an unknown id.
  const job = await readJob(integration.id, id);
  return job ? jsonResponse(200, jobBody(job), requestId) : bulkErrors.notFound(requestId);
});
