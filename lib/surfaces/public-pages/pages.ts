import { CONSOLE_SESSION_COOKIE } from '@/lib/flows/auth/session-cookie-name';
import { statusPageSettings } from '@/lib/reactions/status-page/settings';
import { PORTAL_SESSION_COOKIE } from '@/lib/flows/portal-identity/session-cookie-name';
import { CLIENT_NAVIGATION_HEADER } from './client-navigation.mjs';

// Which pages are served from the render cache (cache.ts), for how long, and to which requests.
// The public pages are the same for everyone. The sign-in pages are the same for everyone who is
// signed out and asks for them with no query: what they show per visitor (a refusal, the reason a
// session ended, the page to return to) comes in the query or from a session cookie, and their
// forms carry no per-visitor token (the console's next-auth form fetches its CSRF token from
// /api/auth/csrf when it is sent; the portal's server action is checked by origin). A crowd of
// signed-out visitors took a lookup beside them from 9 ms to 350 ms when each got a render.

interface CachedPageRule {
  /** How long a render is served. */
  ttlMs: () => number;
  /** What the answer tells browsers and shared caches: the console's and the portal's are never stored. */
  cacheControl: string;
  /** Served from the cache only when signed out, with no query and as a full page (not a client navigation). */
  signIn: boolean;
}

const RULES = new Map<string, CachedPageRule>([
  // The home page changes only with a deploy.
  ['/', { ttlMs: () => 5 * 60_000, cacheControl: 'public, max-age=30', signIn: false }],
  // The documentation changes with a deploy.
  ['/docs', { ttlMs: () => 5 * 60_000, cacheControl: 'public, max-age=30', signIn: false }],
  // As long as the status it shows is kept (STATUS_PAGE_CACHE_SECONDS, lib/reactions/status-page).
  ['/estado', { ttlMs: () => statusPageSettings().STATUS_PAGE_CACHE_SECONDS * 1000, cacheControl: 'public, max-age=30', signIn: false }],
  // Changed only by a deploy (the form) or the deployment's settings (the sandbox banner).
  ['/admin/login', { ttlMs: () => 5 * 60_000, cacheControl: 'no-store', signIn: true }],
  ['/portal/ingresar', { ttlMs: () => 5 * 60_000, cacheControl: 'no-store', signIn: true }],
]);

export function cachedPageRule(path: string): CachedPageRule | undefined {
  return RULES.get(path);
}

/** The sign-in pages, whose reads take the public pages' per-IP limit (proxy.ts) and turn (server.mjs). */
export function isSignInPage(path: string): boolean {
  return RULES.get(path)?.signIn === true;
}

/**
 * Whether this request may get the page's cached render. Next's client navigation to any of them
 * (server.mjs's mark, client-navigation.mjs) wants the page's RSC payload, not its HTML. A sign-in
 * page asked with a query or with a session cookie of the console or the portal (it redirects, or
 * says the session ended) is rendered for that request.
 */
export function answerableFromCache(path: string, search: string, header: (name: string) => string | null): boolean {
  const rule = RULES.get(path);
  if (!rule) return false;
  if (header(CLIENT_NAVIGATION_HEADER) !== null) return false;
  if (!rule.signIn) return true;
  return search === '' && !carriesSessionCookie(header('cookie'));
}

function carriesSessionCookie(cookieHeader: string | null): boolean {
  if (!cookieHeader) return false;
  return cookieHeader.split(';').some((pair) => {
    const name = pair.split('=', 1)[0]!;
    return name.includes(CONSOLE_SESSION_COOKIE) || name.includes(PORTAL_SESSION_COOKIE);
  });
}
