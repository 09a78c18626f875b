// GET /api/constancias/registro/inclusion?hoja=&tamano= - the proof that a leaf, by its hash, is in
// the log of a signed head's size (RFC 9162 §2.1.3). Public.
import { REQUEST_ID_HEADER } from '@/lib/platform/http/request-id';
import { CONSTANCIA_MESSAGES, inclusionBody } from '@/lib/surfaces/api/constancias';
import { jsonResponse } from '@/lib/surfaces/api/responses';

export const dynamic = 'force-dynamic';

export async function GET(request: Request) {
  const requestId = request.headers.get(REQUEST_ID_HEADER) ?? '';
  const body = await inclusionBody(new URL(request.url).searchParams);
  if (body === 'leaf') return jsonResponse(400, { message: CONSTANCIA_MESSAGES.leaf }, requestId);
  if (body === 'leafNotFound') return jsonResponse(404, { message: CONSTANCIA_MESSAGES.leafNotFound }, requestId);
  return jsonResponse(200, body, requestId);
}
