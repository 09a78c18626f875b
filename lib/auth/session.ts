import { getToken } from 'next-auth/jwt';
import { cookies, headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { cache } from 'react';
import type { ConsoleRole } from '@/db/schema';
import type { Actor } from '@/lib/audit/audit';
import { env } from '@/lib/env';
import { requestClientIp } from '@/lib/limits/client-ip';
import { sessionCookiesAreSecure } from './options';
import { nextAuthSecret } from './secret';
import { findSessionUser } from './sessions';

/** The signed-in console user as the database says now, not as the session cookie remembers. */
export interface ConsoleUserSession {
  id: number;
  email: string;
  name: string;
  role: ConsoleRole;
  actor: Extract<Actor, { kind: 'user' }>;
  /** An initial or reset password not yet replaced: only the page that changes it is open. */
  mustChangePassword: boolean;
  /** This session's public id ("Sesiones activas" marks it as the current one). */
  sessionPublicId: string;
}

/**
 * Reads the session cookie and re-checks it in the database, once per request: a session that was
 * signed out (its row is gone), a deactivated user, a changed or reset password (the session's
 * version no longer matches) or a deleted account ends the session at once, and the role always
 * comes from the database, so a demotion applies to the very next request.
 */
export const currentConsoleUser = cache(async (): Promise<ConsoleUserSession | null> => {
  const requestHeaders = await headers();
  const token = await getToken({
    req: { cookies: await cookies(), headers: requestHeaders } as unknown as Parameters<typeof getToken>[0]['req'],
    secret: nextAuthSecret(),
    secureCookie: sessionCookiesAreSecure(),
  });
  if (!token?.sessionId || !token.userId) return null;
  const found = await findSessionUser(token.sessionId, requestClientIp((name) => requestHeaders.get(name), env()));
  const user = found?.user;
  if (!found || !user || user.id !== token.userId || !user.active || user.passwordChangedAt.getTime() !== token.sessionVersion) return null;
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    role: user.role,
    actor: { kind: 'user', id: user.id, email: user.email },
    mustChangePassword: user.mustChangePassword,
    sessionPublicId: found.sessionPublicId,
  };
});

/**
 * The signed-in user for anything but changing a pending password (downloads, exports): a user who
 * must still replace an initial or reset password gets nothing else, as if signed out.
 */
export async function consoleUserWithAccess(): Promise<ConsoleUserSession | null> {
  const user = await currentConsoleUser();
  return user && !user.mustChangePassword ? user : null;
}

/** Where a user with a pending password change is sent from every other console page. */
export const PASSWORD_CHANGE_PATH = '/admin/cambiar-contrasena';

export function hasRole(user: Pick<ConsoleUserSession, 'role'>, required: ConsoleRole): boolean {
  return required === 'support' || user.role === 'admin';
}

/**
 * For pages: no valid session goes to sign-in (saying the session ended only when the browser
 * still held one: a first visit is just asked to sign in); a pending password change goes to the
 * page that makes it (unless this is that page); a role too low goes to "no permission".
 */
export async function requirePageUser(
  required: ConsoleRole = 'support',
  { pendingPasswordChange = 'redirect' }: { pendingPasswordChange?: 'redirect' | 'allow' } = {},
): Promise<ConsoleUserSession> {
  const user = await currentConsoleUser();
  if (!user) {
    const heldSession = (await cookies()).getAll().some((cookie) => cookie.name.includes('next-auth.session-token'));
    redirect(heldSession ? '/admin/login?motivo=sesion' : '/admin/login');
  }
  if (user.mustChangePassword && pendingPasswordChange === 'redirect') redirect(PASSWORD_CHANGE_PATH);
  if (!hasRole(user, required)) redirect('/admin/sin-permiso');
  return user;
}
