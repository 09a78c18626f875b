import { cookies, headers } from 'next/headers';
import { encode, getToken } from 'next-auth/jwt';
import { sessionCookiesAreSecure } from './cookie-security';
import { CONSOLE_SESSION_COOKIE } from './session-cookie-name';
import { nextAuthSecret } from './secret';
import { sessionMaxAgeSeconds } from './session-settings';

/**
 * Points the browser's session cookie at a new session (lib/flows/auth/sessions.ts
 * reissueVerifiedSession): the same signed-in user, a new session id, in a server action's
 * answer. The cookie is next-auth's own (its name, JWT encoding and attributes), so next-auth and
 * currentConsoleUser read it as any other.
 */
export async function replaceSessionCookie(sessionId: string): Promise<void> {
  const secure = sessionCookiesAreSecure();
  const jar = await cookies();
  const token = await getToken({
    req: { cookies: jar, headers: await headers() } as unknown as Parameters<typeof getToken>[0]['req'],
    secret: nextAuthSecret(),
    secureCookie: secure,
  });
  if (!token) return;
  const value = await encode({ token: { ...token, sessionId }, secret: nextAuthSecret(), maxAge: sessionMaxAgeSeconds() });
  jar.set(secure ? `__Secure-${CONSOLE_SESSION_COOKIE}` : CONSOLE_SESSION_COOKIE, value, {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure,
    maxAge: sessionMaxAgeSeconds(),
  });
}

/**
 * True while a page renders inside the answer of one of its own server actions. Setting a cookie
 * in an action (replaceSessionCookie) makes Next render the current page again in that answer;
 * a page that redirects once its step is done (the second factor, a required enrolment) must not
 * redirect then, or the browser leaves before showing what the action answered (the recovery codes,
 * the codes left). The client moves on itself when the person is ready.
 */
export async function renderingAfterOwnAction(): Promise<boolean> {
  return (await headers()).has('next-action');
}
