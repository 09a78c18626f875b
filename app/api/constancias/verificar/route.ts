// POST /api/constancias/verificar - verifies a receipt as anyone could offline (the published keys,
// the public log) and says what it holds (docs/constancias.md). Public; the global per-IP limit.
import { readJsonBody } from '@/lib/platform/http/json-body';
import { REQUEST_ID_HEADER } from '@/lib/platform/http/request-id';
import { CONSTANCIA_MESSAGES, verificationBody } from '@/lib/surfaces/api/constancias';
import { jsonResponse } from '@/lib/surfaces/api/responses';

export const dynamic = 'force-dynamic';

/** A receipt is a few kilobytes; its answer's body is bounded by the lookups' own. */
const MAX_BODY_BYTES = 256 * 1024;

export async function POST(request: Request) {
  const requestId = request.headers.get(REQUEST_ID_HEADER) ?? '';
  const read = await readJsonBody(request, MAX_BODY_BYTES).catch(() => null);
  const value = read?.ok ? read.value : null;
  const jws = typeof value === 'object' && value !== null && 'constancia' in value ? (value as { constancia: unknown }).constancia : undefined;
  if (typeof jws !== 'string' || jws.length === 0 || jws.length > MAX_BODY_BYTES) return jsonResponse(400, { message: CONSTANCIA_MESSAGES.verifyBody }, requestId);
  const { body } = await verificationBody(jws);
  return jsonResponse(200, body, requestId);
}
