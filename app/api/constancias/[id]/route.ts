// GET /api/constancias/:id - a receipt of the integration's own lookup (docs/constancias.md): the
// signed receipt and where it stands in the log, or with Accept: application/pdf its «Constancia de
// consulta» for the client file. Unknown and another integration's are the same 404.
import { constanciaPdfOf } from '@/lib/presentation/constancia-pdf';
import { accountDownload } from '@/lib/surfaces/api/account-downloads';
import { accountRouteWithParams } from '@/lib/surfaces/api/account-route';
import { bulkError } from '@/lib/surfaces/api/bulk-responses';
import { constanciaBody, CONSTANCIA_MESSAGES } from '@/lib/surfaces/api/constancias';
import { jsonResponse } from '@/lib/surfaces/api/responses';

export const dynamic = 'force-dynamic';

export const GET = accountRouteWithParams<{ id: string }>(async (request, { integration, requestId }, { id }) => {
  const found = await constanciaBody(integration.id, id);
  if (!found) return bulkError(404, CONSTANCIA_MESSAGES.notFound, requestId);
  if ((request.headers.get('accept') ?? '').includes('application/pdf')) {
    const pdf = await constanciaPdfOf(found.stored);
    if (!pdf) return bulkError(404, CONSTANCIA_MESSAGES.purged, requestId);
    return accountDownload(new Uint8Array(pdf.file), 'application/pdf', pdf.fileName, requestId);
  }
  return jsonResponse(200, found.body, requestId);
});
