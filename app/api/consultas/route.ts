// GET /api/consultas - the integration's query records, newest first, a page at a time, filtered by
// lookup, HTTP status or outcome class and Guatemalan dates; NIT and CUI masked (lib/surfaces/api/records.ts).
// The credentials and per-minute counter of /api/lotes: a read never spends the lookups' limits.
import { bulkError } from '@/lib/surfaces/api/bulk-responses';
import { bulkRoute } from '@/lib/surfaces/api/bulk-route';
import { jsonResponse } from '@/lib/surfaces/api/responses';
import { RECORD_API_MESSAGES, recordListFilters, recordPage } from '@/lib/surfaces/api/records';

export const dynamic = 'force-dynamic';

const list = bulkRoute<object>(async (request, { integration, requestId }) => {
  const parsed = recordListFilters(integration.id, new URL(request.url).searchParams);
  if (!parsed.ok) return bulkError(400, RECORD_API_MESSAGES[parsed.problem], requestId);
  return jsonResponse(200, await recordPage(parsed.filters, parsed.cursor), requestId);
});

export function GET(request: Request): Promise<Response> {
  return list(request, { params: Promise.resolve({}) });
}
