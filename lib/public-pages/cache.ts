import { randomBytes } from 'node:crypto';
import { env } from '@/lib/env';

// The public pages (/docs, /estado) as a micro-cache in front of Next: rendered at most once per
// interval per instance, and answered from memory in between, with the Content-Security-Policy
// (and its nonce) of the render they came from. Rendered afresh per request, ten connections
// asking for /docs took a lookup beside them from 9 ms to 578 ms (issue 30, point 1). A page
// cannot be prerendered at build time because its scripts carry a CSP nonce; caching the render,
// policy included, gives the same result without weakening the policy to 'unsafe-inline'. The
// pages hold nothing personal and nothing a visitor can inject, so one nonce per render (for a
// few minutes) keeps what the nonce is for: no script but the ones the app rendered.

/**
 * How long each page's render is served: the documentation changes with a deploy; the status page
 * as long as the status it shows is kept (STATUS_PAGE_CACHE_SECONDS, lib/status-page).
 */
function ttlMs(path: string): number | undefined {
  if (path === '/docs') return 5 * 60_000;
  if (path === '/estado') return env().STATUS_PAGE_CACHE_SECONDS * 1000;
  return undefined;
}

/** The header an instance's own render request carries, with a token only this process knows. */
export const PUBLIC_PAGE_RENDER_HEADER = 'x-public-page-render';
const RENDER_TOKEN = Symbol.for('gateway.publicPageRenderToken');
// On globalThis: server.mjs lets the instance's own render requests past the public pages' turn
// (the request waiting for the render holds it).
const renderToken = ((globalThis as Record<symbol, unknown>)[RENDER_TOKEN] ??= randomBytes(24).toString('base64url')) as string;

/** With no public URL configured, each Host gets its own render (the pages name the API's address); at most this many. */
const MAX_ENTRIES = 32;

export interface CachedPage {
  status: number;
  body: ArrayBuffer;
  contentType: string;
  contentSecurityPolicy: string;
  renderedAt: number;
}

interface Entry {
  page?: CachedPage;
  refreshing?: Promise<CachedPage>;
}

const entries = new Map<string, Entry>();

/** Whether this request is this instance rendering a page for its cache (it goes to Next as it is). */
export function isOwnRender(headers: Headers): boolean {
  return headers.get(PUBLIC_PAGE_RENDER_HEADER) === renderToken;
}

/** Where this instance answers itself: the address server.mjs listens on. */
function ownOrigin(): string {
  const host = process.env.HOST ?? '0.0.0.0';
  const local = host === '0.0.0.0' || host === '::' || host === '' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return `http://${local}:${process.env.PORT ?? 3000}`;
}

async function render(path: string, forwardedHost: string | null, forwardedProto: string | null): Promise<CachedPage> {
  const headers: Record<string, string> = { [PUBLIC_PAGE_RENDER_HEADER]: renderToken };
  if (forwardedHost) headers['x-forwarded-host'] = forwardedHost;
  if (forwardedProto) headers['x-forwarded-proto'] = forwardedProto;
  const answer = await fetch(`${ownOrigin()}${path}`, { headers, redirect: 'manual', signal: AbortSignal.timeout(20_000) });
  return {
    status: answer.status,
    body: await answer.arrayBuffer(),
    contentType: answer.headers.get('content-type') ?? 'text/html; charset=utf-8',
    contentSecurityPolicy: answer.headers.get('content-security-policy') ?? '',
    renderedAt: Date.now(),
  };
}

/**
 * The page for this path (and host, when the deployment has no public URL), from memory while
 * fresh. One render at a time per key: everyone waiting for a page gets the same render. Undefined when the
 * page cannot be cached (not a 200: answered by Next as usual).
 */
export async function cachedPublicPage(path: string, request: { host: string | null; forwardedHost: string | null; forwardedProto: string | null; publicUrlConfigured: boolean }): Promise<CachedPage | undefined> {
  const ttl = ttlMs(path);
  if (ttl === undefined) return undefined;
  const key = request.publicUrlConfigured ? path : `${path} ${request.forwardedHost ?? request.host ?? ''}`;
  let entry = entries.get(key);
  if (!entry) {
    if (entries.size >= MAX_ENTRIES) return undefined;
    entry = {};
    entries.set(key, entry);
  }
  const fresh = entry.page && Date.now() - entry.page.renderedAt < ttl;
  if (!fresh && !entry.refreshing) {
    const current = entry;
    current.refreshing = render(path, request.forwardedHost ?? request.host, request.forwardedProto)
      .then((page) => {
        if (page.status === 200) current.page = page;
        return page;
      })
      .finally(() => {
        current.refreshing = undefined;
      });
  }
  // Never older than its interval: a stale page waits for the render under way (one for everyone).
  const page = fresh ? entry.page : await entry.refreshing!.catch(() => undefined);
  return page?.status === 200 ? page : undefined;
}

/** An answer server.mjs writes itself, without Next: a refusal by the per-IP limit, or a cached page. */
export interface DirectAnswer {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array | string;
}

/**
 * What server.mjs asks before handing a public page to Next (registered by proxy.ts, which has the
 * limiter and the headers): undefined sends the request on to Next (a page not cached yet, or one
 * that is not cached at all). Hits are then a map lookup and a write, as the probes' are: through
 * Next's proxy a cached /docs still cost 2.4 ms of CPU, which a crowd of readers multiplies.
 */
export type DirectAnswerer = (path: string, method: string, header: (name: string) => string | null) => Promise<DirectAnswer | undefined>;

const DIRECT_ANSWERER = Symbol.for('gateway.publicPageAnswerer');

export function registerDirectAnswerer(answerer: DirectAnswerer): void {
  (globalThis as Record<symbol, unknown>)[DIRECT_ANSWERER] = answerer;
}

/** The cached page for this key if it is fresh; never renders (server.mjs's hits). */
export function freshPublicPage(path: string, request: { host: string | null; forwardedHost: string | null; publicUrlConfigured: boolean }): CachedPage | undefined {
  const ttl = ttlMs(path);
  if (ttl === undefined) return undefined;
  const page = entries.get(request.publicUrlConfigured ? path : `${path} ${request.forwardedHost ?? request.host ?? ''}`)?.page;
  return page && Date.now() - page.renderedAt < ttl ? page : undefined;
}

/** Marks a request whose public-page limit server.mjs already spent (proxy.ts does not spend it again). */
export const LIMIT_SPENT_HEADER = 'x-public-page-limit-spent';
export function limitAlreadySpent(headers: Headers): boolean {
  return headers.get(LIMIT_SPENT_HEADER) === renderToken;
}
export function limitSpentMark(): string {
  return renderToken;
}
