// GET /api/lotes/{id}/resultados - a bulk job's rows, CSV by default or JSON lines
// (Accept: application/x-ndjson), streamed a page at a time.
import { bulkErrors } from '@/lib/surfaces/api/bulk-responses';
import { bulkRoute } from '@/lib/surfaces/api/bulk-route';
import { REQUEST_ID_HEADER } from '@/lib/platform/http/request-id';
import { csvHeader, csvLine, jobResults, type ResultRow } from '@/lib/flows/bulk/results';

export const dynamic = 'force-dynamic';

const NDJSON = 'application/x-ndjson';

export const GET = bulkRoute<{ id: string }>(async (request, { integration, requestId }, { id }) => {
  const rows = await jobResults(integration.id, id);
  if (!rows) return bulkErrors.notFound(requestId);
  const asJsonLines = (request.headers.get('accept') ?? '').toLowerCase().includes(NDJSON);
  const line = asJsonLines ? (row: ResultRow) => `${JSON.stringify(row)}\n` : (row: ResultRow) => csvLine(row, rows.catalog);
  const encoder = new TextEncoder();
  const iterator = rows[Symbol.asyncIterator]();
  let headerSent = asJsonLines;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!headerSent) {
        headerSent = true;
        controller.enqueue(encoder.encode(csvHeader(rows.catalog)));
        return;
      }
      const next = await iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(line(next.value)));
    },
  });
  return new Response(body, {
    status: 200,
    headers: {
      'content-type': asJsonLines ? `${NDJSON}; charset=utf-8` : 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${id}.${asJsonLines ? 'ndjson' : 'csv'}"`,
      [REQUEST_ID_HEADER]: requestId,
    },
  });
});
