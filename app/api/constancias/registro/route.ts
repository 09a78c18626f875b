// GET /api/constancias/registro - the constancias' log: its newest signed head, and the newest one a
// time-stamping authority stamped (docs/constancias.md). Public: anyone verifies against it.
import { REQUEST_ID_HEADER } from '@/lib/platform/http/request-id';
import { CONSTANCIA_MESSAGES, headBody } from '@/lib/surfaces/api/constancias';
import { jsonResponse } from '@/lib/surfaces/api/responses';

export const dynamic = 'force-dynamic';

export async function GET(request: Request) {
  const requestId = request.headers.get(REQUEST_ID_HEADER) ?? '';
  const body = await headBody();
  if (!body) return jsonResponse(404, { message: CONSTANCIA_MESSAGES.noHead }, requestId);
  return jsonResponse(200, body, requestId);
}
