// Signing in to the portal through the integrator company's own identity provider (docs/sso.md,
// "The portal"): the page /portal/ingresar/empresa starts it, /portal/sso/retorno finishes it (the
// provider's logout tokens are the API surface's: lib/surfaces/api/portal-logout.ts). The flow is
// lib/flows/portal-identity/sso.ts; here are its cookies, its words and its return.
import { cookies, headers } from 'next/headers';
import { sessionCookiesAreSecure } from '@/lib/flows/auth/cookie-security';
import { signInErrorMessage } from '@/lib/flows/auth/sign-in-errors';
import { portalPublicOrigin } from '@/lib/flows/portal-identity/identity-provider';
import { beginPortalSso, finishPortalSso } from '@/lib/flows/portal-identity/sso';
import { requestClientIp } from '@/lib/core/limits/client-ip';
import { consumeSignInLimit } from '@/lib/core/limits/limits';
import { logger } from '@/lib/platform/logging/logger';
import { env } from '@/lib/platform/settings/env';
import { cookieFromHeader } from '@/lib/flows/auth/known-device';
import { PORTAL_AREA } from '@/lib/flows/auth/return-path';
import { setPortalSessionCookie } from './session';

const log = logger('portal');
const BINDING_MAX_AGE_SECONDS = 600;
export const COMPANY_SIGN_IN_PATH = '/portal/ingresar/empresa';

/** The cookie that ties a sign-in under way to this browser; `__Host-` over https. */
function bindingCookieName(secure = sessionCookiesAreSecure()): string {
  return secure ? '__Host-portal-sso' : 'portal-sso';
}

export const COMPANY_SIGN_IN_WORDS = {
  noProvider: 'Su empresa no tiene inicio de sesión con su propia cuenta en este portal: entre con su correo y contraseña.',
  invalidEmail: 'Escriba su correo electrónico de la empresa.',
  rateLimited: 'Demasiados intentos de inicio de sesión desde esta dirección. Espere un minuto y vuelva a intentarlo.',
} as const;

/** "Entrar con la cuenta de mi empresa": where to send the browser, or what to say. */
export async function startCompanySignIn(email: string): Promise<{ ok: true; url: string } | { ok: false; error: string }> {
  const address = email.trim();
  if (!/^[^@\s]{1,64}@[^@\s]{1,253}$/.test(address)) return { ok: false, error: COMPANY_SIGN_IN_WORDS.invalidEmail };
  const requestHeaders = await headers();
  if (!(await consumeSignInLimit(requestClientIp((name) => requestHeaders.get(name), env())))) return { ok: false, error: COMPANY_SIGN_IN_WORDS.rateLimited };
  const started = await beginPortalSso(address, portalPublicOrigin());
  if (!started.ok) return { ok: false, error: started.refusal === 'no_provider' ? COMPANY_SIGN_IN_WORDS.noProvider : signInErrorMessage(started.refusal)! };
  const secure = sessionCookiesAreSecure();
  // Lax: it comes back with the provider's top-level return to this site, never with a request from elsewhere.
  (await cookies()).set(bindingCookieName(secure), started.binding, { httpOnly: true, sameSite: 'lax', path: '/', secure, maxAge: BINDING_MAX_AGE_SECONDS });
  return { ok: true, url: started.authorizationUrl };
}

/** GET /portal/sso/retorno: the provider's return; Inicio signed in, or the sign-in page saying why not. */
export async function companySignInReturnRoute(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const origin = portalPublicOrigin();
  const secure = sessionCookiesAreSecure();
  const binding = cookieFromHeader(request.headers.get('cookie'), bindingCookieName(secure));
  let target: string;
  try {
    const finished = await finishPortalSso(url.searchParams, binding, {
      clientIp: requestClientIp((name) => request.headers.get(name), env()),
      userAgent: request.headers.get('user-agent') ?? '',
    });
    if (finished.ok) {
      await setPortalSessionCookie(finished.sessionId);
      target = PORTAL_AREA.root;
    } else {
      target = `${COMPANY_SIGN_IN_PATH}?error=${finished.refusal}`;
    }
  } catch (error) {
    log.error({ err: error }, 'a portal sign-in through an identity provider failed');
    target = `${COMPANY_SIGN_IN_PATH}?error=unavailable`;
  }
  (await cookies()).set(bindingCookieName(secure), '', { httpOnly: true, sameSite: 'lax', path: '/', secure, maxAge: 0 });
  return new Response(null, { status: 303, headers: { location: new URL(target, origin).toString(), 'cache-control': 'no-store' } });
}

/** The refusal a return put in the address, as its sentence. */
export function companySignInRefusal(params: Record<string, string | string[] | undefined>): string | null {
  const code = params.error;
  return signInErrorMessage(typeof code === 'string' ? code : null);
}
