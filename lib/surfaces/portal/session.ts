import { cookies, headers } from 'next/headers';
import { forbidden, redirect } from 'next/navigation';
import { cache } from 'react';
import type { PortalRole } from '@/db/schema';
import { sessionCookiesAreSecure } from '@/lib/flows/auth/cookie-security';
import { CONSOLE_PATH_HEADER, PORTAL_AREA, safeReturnPath, signInPath, stepPath } from '@/lib/flows/auth/return-path';
import { KNOWN_DEVICE_MAX_AGE_SECONDS, knownDeviceCookieName, knownDeviceCookieValue, knownDeviceFor } from '@/lib/flows/auth/known-device';
import { sessionMaxAgeSeconds } from '@/lib/flows/auth/session-settings';
import { env } from '@/lib/platform/settings/env';
import { requestClientAddress, requestClientIp } from '@/lib/core/limits/client-ip';
import { PORTAL_SESSION_COOKIE } from '@/lib/flows/portal-identity/session-cookie-name';
import { findPortalSession, portalUserSessionOf, type PortalPendingStep, type PortalUserSession } from '@/lib/flows/portal-identity/sessions';

export type { PortalPendingStep };

// The portal's session in a request: its own cookie (an opaque random id; `__Host-` over https),
// read and checked in the database on every request, as the console's is. Pages call
// requirePortalPage, actions go through portalAction (lib/surfaces/portal/action.ts): there is no other way
// in, and both scope everything to the session's integration.

export function portalSessionCookieName(secure = sessionCookiesAreSecure()): string {
  return secure ? `__Host-${PORTAL_SESSION_COOKIE}` : PORTAL_SESSION_COOKIE;
}

export const PORTAL_PENDING_STEP_PATHS: Record<PortalPendingStep, string> = {
  second_factor: '/portal/verificacion',
  two_factor_enrolment: '/portal/activar-verificacion',
};

/** The signed-in portal user as the database says now. */
export type { PortalUserSession };

/** The session's user, or null (no cookie, an ended or expired session, a removed member). */
export const currentPortalUser = cache(async (): Promise<PortalUserSession | null> => {
  const sessionId = (await cookies()).get(portalSessionCookieName())?.value;
  if (!sessionId || sessionId.length > 100) return null;
  const requestHeaders = await headers();
  const found = await findPortalSession(sessionId, requestClientIp((name) => requestHeaders.get(name), env()));
  if (!found) return null;
  return portalUserSessionOf(found);
});

/**
 * For the portal's pages: no session goes to sign-in (saying the session ended when the browser
 * still held one), a pending step to its page (unless this page is that one), and a role this page
 * is not for gets a 403 at the same address (app/portal/(sesion)/forbidden.tsx names who may open it).
 */
export async function requirePortalPage(roles?: readonly PortalRole[], { allowPending }: { allowPending?: PortalPendingStep } = {}): Promise<PortalUserSession> {
  const user = await currentPortalUser();
  if (!user) {
    const held = (await cookies()).has(portalSessionCookieName());
    // Sign-in brings the visitor back to the page asked for (a deep link, an e-mail's link).
    redirect(signInPath((await headers()).get(CONSOLE_PATH_HEADER), held ? 'sesion' : undefined, PORTAL_AREA));
  }
  if (user.pendingStep && user.pendingStep !== allowPending) redirect(portalLandingPath(user.pendingStep, (await headers()).get(CONSOLE_PATH_HEADER)));
  if (roles && !roles.includes(user.role)) forbidden();
  return user;
}

/**
 * Where a session goes once signed in: its pending step's page, or the page asked for (`requested`,
 * only a portal page of this site), or Inicio. The second factor's page remembers the page asked
 * for and opens it once the code is typed; a required enrolment ends in "Mi cuenta".
 */
export function portalLandingPath(step: PortalPendingStep | null, requested?: string | null): string {
  if (step === 'second_factor') return stepPath(PORTAL_PENDING_STEP_PATHS.second_factor, requested, PORTAL_AREA);
  if (step) return PORTAL_PENDING_STEP_PATHS[step];
  return safeReturnPath(requested, PORTAL_AREA) ?? PORTAL_AREA.root;
}

/** The session cookie's attributes: HttpOnly, Lax, the whole site, Secure over https (as `__Host-` requires). */
function portalSessionCookieAttributes(secure: boolean) {
  return { httpOnly: true, sameSite: 'lax', path: '/', secure } as const;
}

/** Points the browser at a portal session (in an action's answer), for SESSION_MAX_HOURS. */
export async function setPortalSessionCookie(sessionId: string): Promise<void> {
  const secure = sessionCookiesAreSecure();
  (await cookies()).set(portalSessionCookieName(secure), sessionId, { ...portalSessionCookieAttributes(secure), maxAge: sessionMaxAgeSeconds() });
}

/**
 * Clears the cookie with the attributes it was set with: a browser ignores a `__Host-` cookie's
 * deletion without Secure and Path=/ (cookies().delete sends neither), and would keep sending it.
 */
export async function clearPortalSessionCookie(): Promise<void> {
  const secure = sessionCookiesAreSecure();
  (await cookies()).set(portalSessionCookieName(secure), '', { ...portalSessionCookieAttributes(secure), maxAge: 0 });
}

/** The id of the session this request's cookie names (to end it), if any. */
export async function portalSessionIdOfRequest(): Promise<string | undefined> {
  return (await cookies()).get(portalSessionCookieName())?.value;
}

/**
 * Marks the browser as a known device of this account after a password sign-in: exempt from the
 * account's pace while a stranger guesses its password (lib/flows/auth/known-device.ts, the portal's cookie).
 */
export async function rememberPortalDevice(email: string): Promise<void> {
  const secure = sessionCookiesAreSecure();
  const jar = await cookies();
  const name = knownDeviceCookieName(secure, 'portal');
  const known = knownDeviceFor(jar.get(name)?.value, email, Date.now(), 'portal');
  jar.set(name, knownDeviceCookieValue(email, known, Date.now(), 'portal'), { httpOnly: true, sameSite: 'strict', path: '/', secure, maxAge: KNOWN_DEVICE_MAX_AGE_SECONDS });
}

/** The path and query of the portal page this request asked for (proxy.ts's header), or null. */
export async function requestedPortalPath(): Promise<string | null> {
  return (await headers()).get(CONSOLE_PATH_HEADER);
}

/** The client address as the throttle and the per-IP limits see it. */
export async function requestAddress(): Promise<string> {
  const requestHeaders = await headers();
  return requestClientIp((name) => requestHeaders.get(name), env());
}

/**
 * The browser's own address as the API's allow-lists would match it (whole, never a network), read
 * as lib/surfaces/api/route.ts reads a lookup's: the socket's peer, or the address TRUSTED_PROXY_HOPS back in
 * X-Forwarded-For when trusted proxies are configured; null when it cannot be read.
 */
export async function requestAllowListAddress(): Promise<string | null> {
  const requestHeaders = await headers();
  return requestClientAddress((name) => requestHeaders.get(name), env());
}
