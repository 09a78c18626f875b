import { headers } from 'next/headers';
import { PORTAL_AREA, RETURN_PATH_PARAM, safeReturnPath } from '@/lib/flows/auth/return-path';
import { renderingAfterOwnAction } from '@/lib/flows/auth/session-cookie';
import { signInRefusalMessage } from '@/lib/flows/auth/sign-in-errors';
import { endPortalSession } from '@/lib/flows/portal-identity/sessions';
import { signInToPortal } from '@/lib/flows/portal-identity/sign-in';
import { portalTwoFactorService } from '@/lib/flows/portal-identity/two-factor';
import { clearPortalSessionCookie, portalLandingPath, portalSessionIdOfRequest, rememberPortalDevice, requestAddress, setPortalSessionCookie, type PortalUserSession } from './session';

// Signing in and out of the portal, and the pages of the steps between (the second factor, a
// required enrolment): what app/portal/ingresar, verificacion, activar-verificacion and the sign-out
// button read and do, through lib/flows/portal-identity and the console's sign-in rules (lib/flows/auth).

/** The portal page a sign-in returns to, from a link's parameter: only a portal page of this site, never a link elsewhere. */
export function portalReturnPath(params: Record<string, string | string[] | undefined>): string | undefined {
  return safeReturnPath(params[RETURN_PATH_PARAM], PORTAL_AREA);
}

/** Where the second factor's page continues: the page asked for, or Inicio. */
export function portalReturnPathOrHome(params: Record<string, string | string[] | undefined>): string {
  return portalReturnPath(params) ?? PORTAL_AREA.root;
}

/**
 * A sign-in with e-mail and password, throttled in the portal's own counts: a refusal's words
 * (the console's), or the page the new session lands on, its cookies set (the session's and the
 * known device's). What the new session still owes (a code, an enrolment) decides where it lands;
 * then the page asked for (`requested`), taken only when it is a portal page of this site.
 */
export async function signInToPortalWithPassword(email: string, password: string, requested: FormDataEntryValue | null): Promise<{ ok: false; error: string } | { ok: true; landingPath: string }> {
  const requestHeaders = await headers();
  const result = await signInToPortal(email, password, (name) => requestHeaders.get(name));
  if (!result.ok) return { ok: false, error: signInRefusalMessage(result.refusal) };
  await setPortalSessionCookie(result.sessionId);
  await rememberPortalDevice(result.account.email);
  return { ok: true, landingPath: portalLandingPath(result.pendingStep, typeof requested === 'string' ? requested : null) };
}

/** "Cerrar sesión": the session's row is deleted (a copy of the cookie stops working on every instance), and the cookie with it. */
export async function endPortalSessionOfRequest(): Promise<void> {
  const sessionId = await portalSessionIdOfRequest();
  if (sessionId) await endPortalSession(sessionId);
  await clearPortalSessionCookie();
}

/**
 * True while a step's page renders inside the answer of its own action: it must not redirect then,
 * or the browser leaves before showing what the action answered (lib/flows/auth/session-cookie.ts).
 */
export function portalRenderingAfterOwnAction(): Promise<boolean> {
  return renderingAfterOwnAction();
}

/**
 * The second step of a sign-in, throttled and audited like the password: a session's code checked;
 * the half-signed session ends and the browser continues in a new one (its cookie set here).
 */
export async function verifyPortalSignInCode(user: PortalUserSession, code: string) {
  const result = await portalTwoFactorService.verifySignInSecondFactor(user.actor, user.sessionPublicId, code, await requestAddress());
  if (result.ok && result.value.sessionId) await setPortalSessionCookie(result.value.sessionId);
  return result;
}
