import { getToken } from 'next-auth/jwt';
import { cookies, headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { cache } from 'react';
import type { ConsoleRole } from '@/db/schema';
import type { Actor } from '@/lib/audit/audit';
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
}

/**
 * Reads the session cookie and re-checks it in the database, once per request: a session that was
 * signed out (its row is gone), a deactivated user, a changed or reset password (the session's
 * version no longer matches) or a deleted account ends the session at once, and the role always
 * comes from the database, so a demotion applies to the very next request.
 */
export const currentConsoleUser = cache(async (): Promise<ConsoleUserSession | null> => {
  const token = await getToken({
    req: { cookies: await cookies(), headers: await headers() } as unknown as Parameters<typeof getToken>[0]['req'],
    secret: nextAuthSecret(),
    secureCookie: sessionCookiesAreSecure(),
  });
  if (!token?.sessionId || !token.userId) return null;
  const user = await findSessionUser(token.sessionId);
  if (!user || user.id !== token.userId || !user.active || user.passwordChangedAt.getTime() !== token.sessionVersion) return null;
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    role: user.role,
    actor: { kind: 'user', id: user.id, email: user.email },
  };
});

export function hasRole(user: Pick<ConsoleUserSession, 'role'>, required: ConsoleRole): boolean {
  return required === 'support' || user.role === 'admin';
}

/**
 * For pages: no valid session goes to sign-in (saying the session ended only when the browser
 * still held one: a first visit is just asked to sign in); a role too low goes to "no permission".
 */
export async function requirePageUser(required: ConsoleRole = 'support'): Promise<ConsoleUserSession> {
  const user = await currentConsoleUser();
  if (!user) {
    const heldSession = (await cookies()).getAll().some((cookie) => cookie.name.includes('next-auth.session-token'));
    redirect(heldSession ? '/admin/login?motivo=sesion' : '/admin/login');
  }
  if (!hasRole(user, required)) redirect('/admin/sin-permiso');
  return user;
}
