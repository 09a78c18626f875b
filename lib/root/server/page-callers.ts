import { CONSOLE_SESSION_COOKIE } from '@/lib/flows/auth/session-cookie-name';
import { env } from '@/lib/platform/settings/env';
import { requestClientIp } from '@/lib/core/limits/client-ip';
import { PORTAL_SESSION_COOKIE } from '@/lib/flows/portal-identity/session-cookie-name';
import { SERVER_BRIDGES } from '@/lib/platform/runtime/server-bridges.mjs';

/** The turns server.mjs keeps for pages rendered per request (lib/platform/http/fair-turn.mjs). */
export type PageArea = 'api' | 'console' | 'portal' | 'sign-in' | 'public';

/**
 * Who a page request comes from, as server.mjs's turns tell callers apart: on the console and the
 * portal, the session (the value of its cookie, the same on every connection the browser opens),
 * otherwise the client's address as the per-IP limits count it. The key stays in the instance's
 * memory: never logged.
 */
export function pageCallerKey(area: PageArea, header: (name: string) => string | null): string {
  const sessionCookie = area === 'console' ? CONSOLE_SESSION_COOKIE : area === 'portal' ? PORTAL_SESSION_COOKIE : undefined;
  if (sessionCookie) {
    const session = sessionCookieValue(header('cookie'), sessionCookie);
    if (session) return `session:${session}`;
  }
  return `address:${requestClientIp(header, env())}`;
}

/** The session cookie's value: next-auth splits a long one into `.0`, `.1`…, the first part is enough. */
function sessionCookieValue(cookieHeader: string | null, name: string): string | undefined {
  if (!cookieHeader) return undefined;
  for (const pair of cookieHeader.split(';')) {
    const separator = pair.indexOf('=');
    if (separator < 0) continue;
    const cookieName = pair.slice(0, separator).trim();
    const value = pair.slice(separator + 1).trim();
    if (value && cookieName.includes(name)) return value;
  }
  return undefined;
}

const PAGE_CALLER_KEY = SERVER_BRIDGES.pageCallerKey;

/** Lets server.mjs ask (registered by proxy.ts, which every page request loads). */
export function registerPageCallerKey(): void {
  (globalThis as Record<symbol, unknown>)[PAGE_CALLER_KEY] = pageCallerKey;
}
