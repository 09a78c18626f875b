// POST /api/portal/sso/cierre-de-sesion: an integrator's identity provider's back-channel logout
// (OpenID Connect Back-Channel Logout 1.0, docs/sso.md). No session and no token: the logout
// token's signature by that provider's published keys is the credential. 200 once the sessions it
// names have ended, 400 for a token that does not verify, 503 while the provider's keys cannot be
// read. The proxy's per-address limit applies.
import { receivePortalLogoutToken } from '@/lib/flows/portal-identity/sso';
import { ClientAbortedError, readBoundedBody } from '@/lib/platform/http/json-body';
import { logger } from '@/lib/platform/logging/logger';

const log = logger('portal');

export async function companyLogoutRoute(request: Request): Promise<Response> {
  const answer = (status: number, body: Record<string, unknown>) => Response.json(body, { status, headers: { 'cache-control': 'no-store' } });
  let text: string;
  try {
    const read = await readBoundedBody(request, 16 * 1024);
    if (!read.ok) return answer(413, { error: 'invalid_request' });
    text = read.bytes.toString('utf8');
  } catch (error) {
    if (error instanceof ClientAbortedError) return answer(400, { error: 'invalid_request' });
    throw error;
  }
  const token = new URLSearchParams(text).get('logout_token');
  if (!token) return answer(400, { error: 'invalid_request', error_description: 'Falta logout_token.' });
  try {
    const result = await receivePortalLogoutToken(token);
    if (result.ok) return answer(200, { sesionesCerradas: result.ended });
    if (result.reason === 'unavailable') return answer(503, { error: 'temporarily_unavailable' });
    return answer(400, { error: 'invalid_request', error_description: 'El logout_token no es válido.' });
  } catch (error) {
    log.error({ err: error }, 'ending portal sessions for a logout token failed');
    return answer(503, { error: 'temporarily_unavailable' });
  }
}

