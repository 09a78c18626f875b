import { randomBytes } from 'node:crypto';
import { cachedPageRule } from './pages';
import { SERVER_BRIDGES } from '@/lib/platform/runtime/server-bridges.mjs';

// The public pages (/docs, /estado) and the signed-out sign-in pages (/admin/login,
// /portal/ingresar) as a micro-cache in front of Next: rendered at most once per interval per
// instance, and answered from memory in between (which pages, to whom and for how long: pages.ts).
// Rendered afresh per request, ten connections asking for /docs took a lookup beside them from
// 9 ms to 578 ms, a hundred on a sign-in page from 9 ms to 350 ms. A page
// cannot be prerendered at build time because its scripts carry a CSP nonce; the render is kept
// cut where its nonce was, and each answer gets a nonce of its own, put back in the body and in
// its policy: no answer's nonce tells anyone another's, and the policy is never weakened to
// 'unsafe-inline'.

function ttlMs(path: string): number | undefined {
  return cachedPageRule(path)?.ttlMs();
}

/** The header an instance's own render request carries, with a token only this process knows. */
export const PUBLIC_PAGE_RENDER_HEADER = 'x-public-page-render';
const RENDER_TOKEN = SERVER_BRIDGES.publicPageRenderToken;
// On globalThis: server.mjs lets the instance's own render requests past the public pages' turn
// (the request waiting for the render holds it).
const renderToken = ((globalThis as Record<symbol, unknown>)[RENDER_TOKEN] ??= randomBytes(24).toString('base64url')) as string;

/** With no public URL configured, each Host gets its own render (the pages name the API's address); at most this many. */
const MAX_ENTRIES = 32;

export interface CachedPage {
  /** A 200 without cookies: a redirect, an error or an answer that sets a cookie is for its own request. */
  cacheable: boolean;
  contentType: string;
  cacheControl: string;
  renderedAt: number;
  /** The body and the Content-Security-Policy cut where the render's nonce was (pageAnswer joins them). */
  bodyParts: Buffer[];
  policyParts: string[];
}

export interface PageAnswer {
  /** The body in the order it is written: the render's pieces with this answer's nonce between them (never copied into one). */
  chunks: Uint8Array[];
  length: number;
  contentSecurityPolicy: string;
}

/** The cached page as one answer sends it: with `nonce` wherever the render had its own. */
export function pageAnswer(page: CachedPage, nonce: string): PageAnswer {
  const nonceBytes = Buffer.from(nonce);
  const chunks: Uint8Array[] = [];
  let length = 0;
  page.bodyParts.forEach((part, index) => {
    if (index > 0) chunks.push(nonceBytes);
    chunks.push(part);
    length += part.length + (index > 0 ? nonceBytes.length : 0);
  });
  return { chunks, length, contentSecurityPolicy: page.policyParts.join(nonce) };
}

/** The answer's body in one piece, for a Response (the answers that go through Next: misses, HEAD aside). */
export function joinedBody(answer: PageAnswer): Uint8Array<ArrayBuffer> {
  const body = new Uint8Array(answer.length);
  let offset = 0;
  for (const chunk of answer.chunks) {
    body.set(chunk, offset);
    offset += chunk.length;
  }
  return body;
}

/** A render's body and policy cut where its nonce was (Next puts the request's nonce on every script it renders). */
export function cutAtNonce(body: Buffer, policy: string): { bodyParts: Buffer[]; policyParts: string[] } {
  const nonce = /'nonce-([^']+)'/.exec(policy)?.[1];
  if (!nonce) return { bodyParts: [body], policyParts: [policy] };
  return { bodyParts: cutAround(body, nonce), policyParts: policy.split(nonce) };
}

/** `body` in the pieces between the occurrences of `marker`. */
function cutAround(body: Buffer, marker: string): Buffer[] {
  const needle = Buffer.from(marker);
  const parts: Buffer[] = [];
  let start = 0;
  for (let at = body.indexOf(needle); at !== -1; at = body.indexOf(needle, start)) {
    parts.push(body.subarray(start, at));
    start = at + needle.length;
  }
  parts.push(body.subarray(start));
  return parts;
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
  const body = Buffer.from(await answer.arrayBuffer());
  return {
    cacheable: answer.status === 200 && !answer.headers.has('set-cookie'),
    contentType: answer.headers.get('content-type') ?? 'text/html; charset=utf-8',
    cacheControl: cachedPageRule(path)?.cacheControl ?? 'no-store',
    renderedAt: Date.now(),
    ...cutAtNonce(body, answer.headers.get('content-security-policy') ?? ''),
  };
}

/**
 * The page for this path (and host, when the deployment has no public URL), from memory while
 * fresh. One render at a time per key: everyone waiting for a page gets the same render. Undefined when the
 * page cannot be cached (see `cacheable`: answered by Next as usual). Whether the request may have
 * it is the caller's question (pages.ts, answerableFromCache).
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
        if (page.cacheable) current.page = page;
        return page;
      })
      .finally(() => {
        current.refreshing = undefined;
      });
  }
  // Never older than its interval: a stale page waits for the render under way (one for everyone).
  const page = fresh ? entry.page : await entry.refreshing!.catch(() => undefined);
  return page?.cacheable ? page : undefined;
}

/** An answer server.mjs writes itself, without Next: a refusal by the per-IP limit, or a cached page. */
export interface DirectAnswer {
  status: number;
  headers: Record<string, string>;
  /** A text, or a page's pieces, written in turn (Content-Length among the headers). */
  body: string | Uint8Array[];
}

/**
 * What server.mjs asks before handing a public page to Next (registered by proxy.ts, which has the
 * limiter and the headers): undefined sends the request on to Next (a page not cached yet, or one
 * that is not cached at all). Hits are then a map lookup and a write, as the probes' are: through
 * Next's proxy a cached /docs still cost 2.4 ms of CPU, which a crowd of readers multiplies.
 */
export type DirectAnswerer = (path: string, search: string, method: string, header: (name: string) => string | null) => Promise<DirectAnswer | undefined>;

const DIRECT_ANSWERER = SERVER_BRIDGES.publicPageAnswerer;

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
