// GET /api/consultas/{request_id} - what one of the integration's request ids did: its record, a
// replay and its original's record, or a traced refusal or unserved answer, with its charge, in the
// portal's and support's words. Another integration's request id answers as an unknown one.
import { bulkError } from '@/lib/surfaces/api/bulk-responses';
import { bulkRoute } from '@/lib/surfaces/api/bulk-route';
import { jsonResponse } from '@/lib/surfaces/api/responses';
import { answerForRequestId, RECORD_API_MESSAGES } from '@/lib/surfaces/api/records';

export const dynamic = 'force-dynamic';

export const GET = bulkRoute<{ request_id: string }>(async (_request, { integration, requestId }, { request_id }) => {
  const answer = await answerForRequestId(integration.id, request_id);
  return answer ? jsonResponse(200, answer, requestId) : bulkError(404, RECORD_API_MESSAGES.notFound, requestId);
});
