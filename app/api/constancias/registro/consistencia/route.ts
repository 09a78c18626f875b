// GET /api/constancias/registro/consistencia?desde=&hasta= - the proof that the log of size hasta
// extends the one of size desde without changing it (RFC 9162 §2.1.4). Public.
import { REQUEST_ID_HEADER } from '@/lib/platform/http/request-id';
import { consistencyBody, CONSTANCIA_MESSAGES } from '@/lib/surfaces/api/constancias';
import { jsonResponse } from '@/lib/surfaces/api/responses';

export const dynamic = 'force-dynamic';

export async function GET(request: Request) {
  const requestId = request.headers.get(REQUEST_ID_HEADER) ?? '';
  const body = await consistencyBody(new URL(request.url).searchParams);
  if (body === 'sizes') return jsonResponse(400, { message: CONSTANCIA_MESSAGES.sizes }, requestId);
  return jsonResponse(200, body, requestId);
}
