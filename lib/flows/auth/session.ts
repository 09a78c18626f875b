import { getToken } from 'next-auth/jwt';
import { cookies, headers } from 'next/headers';
import { cache } from 'react';
import type { ConsoleRole, ConsoleUserOrigin } from '@/db/schema';
import type { Actor } from '@/lib/core/audit/audit';
import { env } from '@/lib/platform/settings/env';
import { requestClientIp } from '@/lib/core/limits/client-ip';
import { twoFactorRequired } from '@/lib/flows/auth/two-factor-policy';
import { sessionCookiesAreSecure } from './cookie-security';
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
  /** What this session must do before the console opens, if anything (PENDING_STEP_PATHS). */
  pendingStep: PendingStep | null;
  /** This session's public id ("Sesiones activas" marks it as the current one). */
  sessionPublicId: string;
  /** local or identity_provider: whether the user has a password of ours to change, a second factor to manage. */
  origin: ConsoleUserOrigin;
}

/**
 * What stands between a session and the console, in the order it is asked for: the second factor
 * of a user who has one (who it is comes first), then replacing a password someone else chose,
 * then enrolling in two-factor sign-in when it is required of the user (an administrator in
 * production). Each step has one page, and only it (and its own actions) is open meanwhile.
 */
export type PendingStep = 'second_factor' | 'password_change' | 'two_factor_enrolment';

export const PENDING_STEP_PATHS: Record<PendingStep, string> = {
  second_factor: '/admin/verificacion',
  password_change: '/admin/cambiar-contrasena',
  two_factor_enrolment: '/admin/activar-verificacion',
};

function pendingStepOf(user: { role: ConsoleRole; mustChangePassword: boolean }, twoFactorEnrolled: boolean, secondFactorDone: boolean, viaIdentityProvider: boolean): PendingStep | null {
  // The provider checked who it is, with its own factors, and the user has no password of ours.
  if (viaIdentityProvider) return null;
  if (twoFactorEnrolled && !secondFactorDone) return 'second_factor';
  if (user.mustChangePassword) return 'password_change';
  if (!twoFactorEnrolled && twoFactorRequired()) return 'two_factor_enrolment';
  return null;
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
    pendingStep: pendingStepOf(user, found.twoFactorEnrolled, found.secondFactorDone, found.viaIdentityProvider),
    sessionPublicId: found.sessionPublicId,
    origin: user.origin,
  };
});

/**
 * The signed-in user for route handlers (downloads, exports): a session with a pending step (a
 * second factor, a password to replace, an enrolment) gets nothing, as if signed out.
 */
export async function consoleUserWithAccess(): Promise<ConsoleUserSession | null> {
  const user = await currentConsoleUser();
  return user && !user.pendingStep ? user : null;
}

export function hasRole(user: Pick<ConsoleUserSession, 'role'>, required: ConsoleRole): boolean {
  return required === 'support' || user.role === 'admin';
}

