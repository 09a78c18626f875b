import { getServerSession } from 'next-auth';
import { redirect } from 'next/navigation';
import { cache } from 'react';
import type { ConsoleRole } from '@/db/schema';
import type { Actor } from '@/lib/audit/audit';
import { findConsoleUser } from '@/lib/users/service';
import { authOptions } from './options';

/** The signed-in console user as the database says now, not as the session cookie remembers. */
export interface ConsoleUserSession {
  id: number;
  email: string;
  name: string;
  role: ConsoleRole;
  actor: Extract<Actor, { kind: 'user' }>;
}

/**
 * Reads the session and re-checks its user in the database, once per request: a deactivated user,
 * a changed or reset password (the session's version no longer matches) or a deleted account ends
 * the session at once, and the role always comes from the database, so a demotion applies to the
 * very next request.
 */
export const currentConsoleUser = cache(async (): Promise<ConsoleUserSession | null> => {
  const session = await getServerSession(authOptions());
  if (!session?.user?.id) return null;
  const user = await findConsoleUser(session.user.id);
  if (!user || !user.active || user.passwordChangedAt.getTime() !== session.user.sessionVersion) return null;
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

/** For pages: no valid session goes to sign-in; a role too low goes to the "no permission" page. */
export async function requirePageUser(required: ConsoleRole = 'support'): Promise<ConsoleUserSession> {
  const user = await currentConsoleUser();
  if (!user) redirect('/admin/login?motivo=sesion');
  if (!hasRole(user, required)) redirect('/admin/sin-permiso');
  return user;
}
