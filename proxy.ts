// Runs before every page and API request but the five lookups: security headers (a CSP nonce for
// pages), the request id and the global per-IP limit for the API (GET /api/estado and the account
// reads have their own), and the per-IP limit in front of the console's sign-in. The integrators' portal (/portal) gets what the
// console gets: no caching, and forms and server actions refused from another origin. The lookups do the same in their route
// wrapper (lib/surfaces/api/route.ts): this layer alone cost each lookup about as much as the rest of the
// gateway's own work.
// A route that writes its own policy or cache header (a deposit slip's sandbox) keeps it: the
// proxy leaves those out for the routes lib/platform/http/route-headers.ts lists.
import { NextResponse, type NextRequest } from 'next/server';
import { CONSOLE_PATH_HEADER } from '@/lib/flows/auth/return-path';
import { SIGN_IN_ERROR_PARAM, signInErrorCode } from '@/lib/flows/auth/sign-in-errors';
import { env } from '@/lib/platform/settings/env';
import { logger } from '@/lib/platform/logging/logger';
import { registerPageCallerKey } from '@/lib/root/server/page-callers';
import { newRequestId, REQUEST_ID_HEADER } from '@/lib/platform/http/request-id';
import { headersTheRouteWrites } from '@/lib/platform/http/route-headers';
import { newNonce, securityHeaders } from '@/lib/platform/http/security-headers';
import { requestClientIp } from '@/lib/core/limits/client-ip';
import { GLOBAL_LIMIT_BODY } from '@/lib/core/limits/global-limit-body';
import { consumeGlobalLimit, consumePaymentWebhookLimit, consumePublicPageLimit, consumeSignInLimit, consumeStatusApiLimit } from '@/lib/core/limits/limits';
import { STATUS_API_LIMIT_MESSAGE } from '@/lib/presentation/status-limit';
import { cachedPublicPage, freshPublicPage, isOwnRender, joinedBody, limitAlreadySpent, pageAnswer, registerDirectAnswerer } from '@/lib/surfaces/public-pages/cache';
import { answerableFromCache, isSignInPage } from '@/lib/surfaces/public-pages/pages';
import { typedRequestId } from '@/lib/core/request-ids/typed';

/** Lookups and the rest of the API spend from the global per-IP limit; probes, scrapes and sign-in do not. */
const OUTSIDE_GLOBAL_LIMIT = /^\/api\/(health$|ready$|metrics$|auth\/)/;
/** The sources' status: a per-IP limit of its own, so a client throttled on its lookups can still read it. */
const STATUS_API = '/api/estado';
/**
 * An integration's reads of its own account: outside the global per-IP limit, so checking the balance
 * never spends what the lookups need; their route wrapper spends a per-integration limit of their own
 * once the credentials are known (lib/surfaces/api/account-route.ts).
 */
const ACCOUNT_API = /^\/api\/cuenta(?:\/movimientos|\/facturas(?:\/[^/]+\/(?:xml|pdf|notas-de-credito\/[^/]+\/(?:xml|pdf)))?)?$/;
/** The payment provider's webhooks: a per-address limit of their own (lib/surfaces/api/payment-webhook.ts). */
const PAYMENT_WEBHOOKS = /^\/api\/pagos\/[a-z]+$/;
const SIGN_IN_CALLBACK = /^\/api\/auth\/callback\//;
/**
 * The public pages (/verificar too): a per-IP limit of their own, and /docs and /estado served from a short cache
 * (lib/surfaces/public-pages). The reads of the sign-in pages share both (isSignInPage); their forms' posts
 * do not.
 */
const PUBLIC_PAGES = /^\/(?:docs|estado|verificar)?$/;
const PUBLIC_PAGE_LIMIT_BODY = 'Demasiadas solicitudes desde su dirección. Espere un minuto y vuelva a intentarlo.';
/** The records list, whose search box also takes a request id (answered by its ./solicitud route). */
const RECORDS_LIST = '/admin/registros';
/** Pages whose search box takes a NIT or CUI, posted to their ./buscar route and kept behind a reference. */
const IDENTIFIER_SEARCH_PAGES = new Set([RECORDS_LIST, '/admin/datos-personales/quien-consulto']);

const PUBLIC_PAGE_LIMITED = (): NextResponse | Response =>
  new Response(PUBLIC_PAGE_LIMIT_BODY, { status: 429, headers: { 'content-type': 'text/plain; charset=utf-8', 'retry-after': '60' } });

// server.mjs answers the public pages' hits and refusals itself, with what this module knows: the
// limiter, the client address and the headers a page gets (lib/surfaces/public-pages/cache.ts); and it
// tells the callers of its pages' turns apart by what this module can read (lib/root/server/page-callers.ts).
registerPageCallerKey();
registerDirectAnswerer(async (path, search, method, header) => {
  const settings = env();
  const headers = securityHeaders({ https: (settings.NEXTAUTH_URL ?? '').startsWith('https://'), development: false, noStore: isSignInPage(path) });
  if (!(await consumePublicPageLimit(requestClientIp(header, settings)))) {
    const refusal = PUBLIC_PAGE_LIMITED();
    return { status: 429, headers: { ...headers, ...Object.fromEntries(refusal.headers) }, body: PUBLIC_PAGE_LIMIT_BODY };
  }
  const readsPage = method === 'GET' || method === 'HEAD';
  const page = readsPage && answerableFromCache(path, search, header) ? freshPublicPage(path, { host: header('host'), forwardedHost: header('x-forwarded-host'), publicUrlConfigured: Boolean(settings.NEXTAUTH_URL) }) : undefined;
  if (!page) return undefined;
  const answer = pageAnswer(page, newNonce());
  return {
    status: 200,
    headers: { ...headers, 'Content-Security-Policy': answer.contentSecurityPolicy, 'content-type': page.contentType, 'Cache-Control': page.cacheControl, 'content-length': String(answer.length) },
    body: answer.chunks,
  };
});

export async function proxy(request: NextRequest) {
  const settings = env();
  const path = request.nextUrl.pathname;
  const isApi = path === '/api' || path.startsWith('/api/');
  const nonce = isApi ? undefined : newNonce();
  const headers = securityHeaders({
    nonce,
    https: (settings.NEXTAUTH_URL ?? '').startsWith('https://'),
    development: process.env.NODE_ENV === 'development',
    noStore: isApi || isSignedInArea(path),
  });
  /** An answer the proxy writes itself: all of its headers. */
  const respond = (response: NextResponse) => {
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
    return response;
  };
  /**
   * The request passed on to the page or route at `target`: its headers, but those the route writes
   * itself (a slip's sandbox, a public document's caching), which Next would otherwise drop for ours.
   */
  const passOn = (response: NextResponse, target: string) => {
    const routeWrites = headersTheRouteWrites(target);
    for (const [name, value] of Object.entries(headers)) if (!routeWrites.has(name.toLowerCase())) response.headers.set(name, value);
    return response;
  };
  const clientIp = () => requestClientIp((name) => request.headers.get(name), settings);

  if (SIGN_IN_CALLBACK.test(path) && !(await consumeSignInLimit(clientIp()))) {
    // next-auth's client reads `url` and shows the error code it carries (lib/flows/auth/sign-in-errors.ts).
    const url = new URL('/admin/login', settings.NEXTAUTH_URL ?? request.nextUrl.origin);
    url.searchParams.set(SIGN_IN_ERROR_PARAM, signInErrorCode({ kind: 'rate_limited' }));
    return respond(NextResponse.json({ url: url.toString() }, { status: 429 }));
  }

  const readsPage = request.method === 'GET' || request.method === 'HEAD';
  if ((PUBLIC_PAGES.test(path) || (readsPage && isSignInPage(path))) && !isOwnRender(request.headers)) {
    if (!limitAlreadySpent(request.headers) && !(await consumePublicPageLimit(clientIp()))) {
      return respond(new NextResponse(PUBLIC_PAGE_LIMIT_BODY, { status: 429, headers: { 'content-type': 'text/plain; charset=utf-8', 'retry-after': '60' } }));
    }
    // next dev compiles and renders each visit anyway; a built app answers from its cache.
    if (readsPage && process.env.NODE_ENV !== 'development' && answerableFromCache(path, request.nextUrl.search, (name) => request.headers.get(name))) {
      const page = await cachedPublicPage(path, {
        host: request.headers.get('host'),
        forwardedHost: request.headers.get('x-forwarded-host'),
        forwardedProto: request.headers.get('x-forwarded-proto'),
        publicUrlConfigured: Boolean(settings.NEXTAUTH_URL),
      });
      if (page) {
        // This request's nonce, in the page's scripts and in its policy.
        const answer = pageAnswer(page, nonce!);
        headers['Content-Security-Policy'] = answer.contentSecurityPolicy;
        return respond(new NextResponse(request.method === 'HEAD' ? null : joinedBody(answer), { status: 200, headers: { 'content-type': page.contentType, 'cache-control': page.cacheControl } }));
      }
    }
  }

  const forwarded = new Headers(request.headers);
  // A form posted before the page's scripts ran (the portal's sign-in, say) carries its action in
  // the body, not in a Next-Action header: every POST to the console or the portal is checked.
  if (request.method === 'POST' && (request.headers.has('next-action') || isSignedInArea(path))) {
    // A server action or a console form (a search, an export) from another site: refused here with
    // a 403 (Next's own check would throw and answer 500). The hosts it may come from are this request's Host and the public URL's,
    // never a client's X-Forwarded-Host, which Next's check would believe.
    const origin = request.headers.get('origin');
    const originUrl = origin && URL.canParse(origin) ? new URL(origin) : undefined;
    const originHost = originUrl?.host;
    // Under the console's Referrer-Policy (no-referrer) a browser sends "Origin: null" with a form
    // posted by navigation (the records search, the full export); it also says whether the form
    // came from this site in Sec-Fetch-Site, a header no page's script can set.
    const sameSiteForm = origin === 'null' && request.headers.get('sec-fetch-site') === 'same-origin';
    if (origin !== null && !sameSiteForm) {
      // Scheme, host and port: the public URL's origin, or this request's own (its Host under the
      // scheme it arrived by, as the trusted proxy says it). A page of the same host on another
      // scheme (http beside https) is another site.
      const publicUrl = settings.NEXTAUTH_URL ? new URL(settings.NEXTAUTH_URL) : undefined;
      const forwardedProto = settings.TRUSTED_PROXY_HOPS > 0 ? request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase() : undefined;
      const scheme = forwardedProto === 'https' || forwardedProto === 'http' ? `${forwardedProto}:` : request.nextUrl.protocol;
      const allowed = [publicUrl?.origin, `${scheme}//${request.headers.get('host')}`];
      if (!originUrl || !allowed.includes(originUrl.origin)) {
        logger('security').warn({ path, originHost: originHost ?? null }, 'cross-origin console form refused');
        return respond(new NextResponse('Solicitud rechazada: el formulario no viene de esta consola.', { status: 403, headers: { 'content-type': 'text/plain; charset=utf-8' } }));
      }
      // What Next compares the origin with: the host just checked, not whatever a client sent.
      forwarded.set('x-forwarded-host', originUrl.host);
    }
  }
  // Console and portal pages learn their own path from here (a signed-out visit is sent to sign in
  // and brought back, lib/flows/auth/return-path.ts); whatever a client sent under this name is replaced.
  forwarded.delete(CONSOLE_PATH_HEADER);
  if (isSignedInArea(path)) {
    const query = new URLSearchParams(request.nextUrl.searchParams);
    query.delete('_rsc'); // Next's cache-busting mark on client navigations, not part of the page's address
    const search = query.toString();
    forwarded.set(CONSOLE_PATH_HEADER, search ? `${path}?${search}` : path);
  }
  if (nonce) {
    // Next reads the nonce from the request's CSP header and puts it on the scripts it renders.
    forwarded.set('x-nonce', nonce);
    forwarded.set('Content-Security-Policy', headers['Content-Security-Policy']!);
  }
  if (isApi && !OUTSIDE_GLOBAL_LIMIT.test(path)) {
    // Every API answer gets an id; one sent by the client is replaced so ids stay unique.
    const requestId = newRequestId();
    headers[REQUEST_ID_HEADER] = requestId;
    if (path === STATUS_API) {
      if (!(await consumeStatusApiLimit(clientIp()))) {
        return respond(
          NextResponse.json(
            { message: STATUS_API_LIMIT_MESSAGE },
            { status: 429, headers: { 'retry-after': '60', 'access-control-allow-origin': '*', 'cache-control': 'no-store' } },
          ),
        );
      }
    } else if (PAYMENT_WEBHOOKS.test(path)) {
      if (!(await consumePaymentWebhookLimit(clientIp()))) {
        return respond(NextResponse.json({ error: 'Demasiadas solicitudes.' }, { status: 429, headers: { 'retry-after': '60', 'cache-control': 'no-store' } }));
      }
    } else if (!ACCOUNT_API.test(path) && !(await consumeGlobalLimit(clientIp()))) {
      return respond(new NextResponse(GLOBAL_LIMIT_BODY, { status: 429, headers: { 'content-type': 'text/plain; charset=utf-8' } }));
    }
    forwarded.set(REQUEST_ID_HEADER, requestId);
  }
  const typedSearch = request.nextUrl.searchParams.get('identificador');
  if (request.method === 'GET' && typedSearch !== null && IDENTIFIER_SEARCH_PAGES.has(path)) {
    // An address that still carries what was typed in a search box (an old link, a bookmark): a
    // request id opens its record through the list's ./solicitud route, a NIT or CUI is put behind
    // a reference by the page's ./buscar route. Both answer with a real
    // redirect, which the page cannot once its skeleton is on the way.
    const target = request.nextUrl.clone();
    target.pathname = path === RECORDS_LIST && typedRequestId(typedSearch) ? `${RECORDS_LIST}/solicitud` : `${path}/buscar`;
    return passOn(NextResponse.rewrite(target, { request: { headers: forwarded } }), target.pathname);
  }
  return passOn(NextResponse.next({ request: { headers: forwarded } }), path);
}

/** The console and the integrators' portal: pages with people's sessions and their data. */
function isSignedInArea(path: string): boolean {
  return path === '/admin' || path.startsWith('/admin/') || path === '/portal' || path.startsWith('/portal/');
}

export const config = {
  // Everything but Next's static files and images, the benchmark's bare baseline, which must
  // measure a route with none of the gateway's work, and the lookups: the registries' two paths and
  // every name under /api/catalogos/ (lib/surfaces/api/route.ts answers every method on them, with
  // the same headers, and a name that is no catalog with a 404). server.mjs gives whatever this
  // skips the baseline headers (lib/platform/http/baseline-headers.mjs).
  matcher: ['/((?!_next/static/|_next/image|favicon\\.ico|api/bench/|api/renap/buscar-cui$|api/rtu/nits$|api/catalogos/[^/]+$).*)'],
};
