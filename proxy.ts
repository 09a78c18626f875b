// The global per-IP limit (100 per 15 minutes over the whole API) and the request id.
import { NextResponse, type NextRequest } from 'next/server';
import { env } from '@/lib/env';
import { newRequestId, REQUEST_ID_HEADER } from '@/lib/http/request-id';
import { clientIp, PEER_IP_HEADER } from '@/lib/limits/client-ip';
import { GLOBAL_LIMIT_BODY } from '@/lib/limits/global-limit-body';
import { consumeGlobalLimit } from '@/lib/limits/limits';
import { lookupOfPath } from '@/lib/lookups/paths';
import { countRefusal } from '@/lib/rollups/refusals';


export async function proxy(request: NextRequest) {
  // Every response gets an id; one sent by the client is replaced so ids stay unique.
  const requestId = newRequestId();
  const ip = clientIp(request.headers.get(PEER_IP_HEADER), request.headers.get('x-forwarded-for'), env().TRUSTED_PROXY_HOPS);
  if (!(await consumeGlobalLimit(ip))) {
    const lookup = lookupOfPath(request.nextUrl.pathname);
    if (lookup) countRefusal({ lookup, reason: 'ip_rate_limited' });
    return new NextResponse(GLOBAL_LIMIT_BODY, {
      status: 429,
      headers: { 'content-type': 'text/plain; charset=utf-8', [REQUEST_ID_HEADER]: requestId },
    });
  }
  const headers = new Headers(request.headers);
  headers.set(REQUEST_ID_HEADER, requestId);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set(REQUEST_ID_HEADER, requestId);
  return response;
}

export const config = {
  // The whole integrator API. Not the health check (load balancers poll it), the console's
  // sign-in endpoints (they have their own per-account and per-IP throttling), nor the benchmark's
  // bare baseline (it must measure a route with none of the gateway's work).
  matcher: ['/api/((?!health$|auth/|bench/).*)'],
};
