// POST /api/sso/cierre-de-sesion: OpenID Connect Back-Channel Logout 1.0's endpoint (docs/sso.md).
// No session and no token: the logout token's signature, by the identity provider's published
// keys, is the credential. 200 once the sessions it names have ended (none is fine), 400 for a
// token that does not verify, 503 while the provider's keys cannot be read (it sends it again),
// 404 while the console has no identity provider. The proxy's per-address limit applies.
import { receiveLogoutToken } from '@/lib/flows/auth/backchannel-logout';
import { ClientAbortedError, readBoundedBody } from '@/lib/platform/http/json-body';
import { logger } from '@/lib/platform/logging/logger';

const log = logger('auth');
/** A logout token is a few hundred bytes; anything far larger is not one. */
const MAX_BODY_BYTES = 16 * 1024;
const NO_STORE = { 'cache-control': 'no-store' };

export async function backchannelLogoutRoute(request: Request): Promise<Response> {
  const answer = (status: number, body: Record<string, unknown>) => Response.json(body, { status, headers: NO_STORE });
  let text: string;
  try {
    const read = await readBoundedBody(request, MAX_BODY_BYTES);
    if (!read.ok) return answer(413, { error: 'invalid_request', error_description: 'Cuerpo demasiado grande.' });
    text = read.bytes.toString('utf8');
  } catch (error) {
    if (error instanceof ClientAbortedError) return answer(400, { error: 'invalid_request' });
    throw error;
  }
  const logoutToken = new URLSearchParams(text).get('logout_token');
  if (!logoutToken) return answer(400, { error: 'invalid_request', error_description: 'Falta logout_token.' });
  try {
    const result = await receiveLogoutToken(logoutToken);
    if (result.ok) return answer(200, { sesionesCerradas: result.ended });
    if (result.reason === 'off') return answer(404, { error: 'invalid_request', error_description: 'La consola no tiene un proveedor de identidad configurado.' });
    if (result.reason === 'unavailable') return answer(503, { error: 'temporarily_unavailable', error_description: 'No se pudieron leer las llaves del proveedor; reintente.' });
    return answer(400, { error: 'invalid_request', error_description: 'El logout_token no es válido.' });
  } catch (error) {
    log.error({ err: error }, 'ending sessions for a logout token failed');
    return answer(503, { error: 'temporarily_unavailable', error_description: 'No se pudo procesar; reintente.' });
  }
}
