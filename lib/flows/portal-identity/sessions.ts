import { and, eq, isNull, sql } from 'drizzle-orm';
import { db } from '@/db/client';
import { integrations, portalSessions, portalTwoFactor, portalUsers, type ConsoleUserOrigin, type PortalRole } from '@/db/schema';
import type { Executor, IntegratorActor } from '@/lib/core/audit/audit';
import { ACCESS_AUDIT, auditSignIn } from '@/lib/flows/auth/access-audit';
import { hashSessionId, sessionStore, type ProviderSession, type SessionOrigin } from '@/lib/flows/auth/sessions';
import { integratorActor } from './accounts';
import { portalTwoFactorRequired } from './policy';

// The portal's sessions, kept on the server: the browser holds a random id in an opaque cookie of
// the portal's own (lib/surfaces/portal/session.ts), and every request reads its row, its user and that
// user's integration. The console's next-auth cookie names none of these rows and this cookie
// names no console session: a session of one never opens the other (docs/decisions.md). The rows
// are kept by lib/flows/auth's sessionStore('portal'), the console's code on the portal's table; what is
// the portal's own is below: the sign-in under the user's row lock, the membership and integration
// a session is read with, and the steps a session owes.

export const portalSessionStore = sessionStore<IntegratorActor>('portal');

export const {
  reissueVerifiedSession: reissueVerifiedPortalSession,
  endSession: endPortalSession,
  listActiveSessions: listPortalSessions,
  endOwnSession: endOwnPortalSession,
  endAllSessionsIn: endAllPortalSessions,
} = portalSessionStore;

/**
 * Records a new session for a portal user who just signed in (or accepted an invitation), in the
 * transaction `executor` runs, with the sign-in in the audit log; returns the session's id, which
 * only the cookie keeps.
 */
export async function startPortalSession(executor: Executor, actor: IntegratorActor, origin: SessionOrigin, provider?: ProviderSession): Promise<string> {
  const sessionId = await portalSessionStore.insertSession(executor, actor.id, origin, provider);
  await executor.update(portalUsers).set({ lastSignInAt: sql`now()` }).where(eq(portalUsers.id, actor.id));
  await auditSignIn(executor, actor, ACCESS_AUDIT.portal, actor, provider ? ACCESS_AUDIT.portal.actions.signInIdentityProvider : undefined);
  await portalSessionStore.deleteExpiredSessions(executor);
  return sessionId;
}

/**
 * A sign-in by password: the session and its audit row in one transaction, only if the password
 * that was checked is still the user's. The user's row is locked first, so a password change or
 * reset (which ends the user's sessions in its own transaction, lib/flows/portal-identity/passwords.ts) either
 * commits before, and this sees the new hash and records nothing, or waits for this session and
 * then ends it. Undefined when the password changed or the user was removed since the check.
 */
export async function signInPortalSession(actor: IntegratorActor, origin: SessionOrigin, verifiedPasswordHash: string): Promise<string | undefined> {
  return (await db()).transaction(async (tx) => {
    const [user] = await tx
      .select({ passwordHash: portalUsers.passwordHash, removedAt: portalUsers.removedAt })
      .from(portalUsers)
      .where(eq(portalUsers.id, actor.id))
      .for('update');
    if (!user || user.removedAt || user.passwordHash !== verifiedPasswordHash) return undefined;
    return startPortalSession(tx, actor, origin);
  });
}

/** A live portal session, its user and the user's integration, as the database says now. */
export interface PortalSessionUser {
  id: number;
  email: string;
  name: string;
  role: PortalRole;
  integrationId: number;
  integrationName: string;
  sessionPublicId: string;
  twoFactorEnrolled: boolean;
  secondFactorDone: boolean;
  /** Opened through the integration's identity provider: it owes none of the portal's own steps. */
  viaIdentityProvider: boolean;
  /** local (a password of ours) or identity_provider (the company's provider). */
  origin: ConsoleUserOrigin;
}

/**
 * The user of a session that was neither ended nor has expired, and who is still a member. Marks
 * the session as seen now from `clientIp` at most once a minute.
 */
export async function findPortalSession(sessionId: string, clientIp?: string): Promise<PortalSessionUser | undefined> {
  const database = await db();
  const idHash = hashSessionId(sessionId);
  const [row] = await database
    .select({
      id: portalUsers.id,
      email: portalUsers.email,
      name: portalUsers.name,
      role: portalUsers.role,
      integrationId: portalUsers.integrationId,
      integrationName: integrations.nombre,
      origin: portalUsers.origin,
      ...portalSessionStore.sessionColumns(),
      twoFactorEnrolled: sql<boolean>`${portalTwoFactor.confirmedAt} is not null`,
    })
    .from(portalSessions)
    .innerJoin(portalUsers, eq(portalUsers.id, portalSessions.userId))
    .innerJoin(integrations, eq(integrations.id, portalUsers.integrationId))
    .leftJoin(portalTwoFactor, eq(portalTwoFactor.userId, portalSessions.userId))
    .where(and(portalSessionStore.isLiveSession(idHash), isNull(portalUsers.removedAt)));
  if (!row) return undefined;
  await portalSessionStore.markSeen(database, idHash, row.stale, clientIp);
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    integrationId: row.integrationId,
    integrationName: row.integrationName,
    sessionPublicId: row.sessionPublicId,
    twoFactorEnrolled: Boolean(row.twoFactorEnrolled),
    secondFactorDone: Boolean(row.secondFactorDone),
    viaIdentityProvider: Boolean(row.viaIdentityProvider),
    origin: row.origin,
  };
}

/** What stands between a session and the portal, in order: the second factor of a user who has one, then a required enrolment. */
export type PortalPendingStep = 'second_factor' | 'two_factor_enrolment';

export function portalPendingStep(session: Pick<PortalSessionUser, 'role' | 'twoFactorEnrolled' | 'secondFactorDone' | 'viaIdentityProvider'>): PortalPendingStep | null {
  // The company's provider checked who it is, with its own factors.
  if (session.viaIdentityProvider) return null;
  if (session.twoFactorEnrolled && !session.secondFactorDone) return 'second_factor';
  if (!session.twoFactorEnrolled && portalTwoFactorRequired(session.role)) return 'two_factor_enrolment';
  return null;
}

/** A signed-in portal user as every page, action and change of the portal reads them. */
export interface PortalUserSession {
  id: number;
  email: string;
  name: string;
  role: PortalRole;
  /** Every read and action of the portal is scoped to this, never to an id a client sent. */
  integrationId: number;
  integrationName: string;
  actor: IntegratorActor;
  pendingStep: PortalPendingStep | null;
  sessionPublicId: string;
  /** local or identity_provider: whether the member has a password and a second factor of ours. */
  origin: ConsoleUserOrigin;
}

/** The signed-in user a found session is, as the portal's pages and actions read them. */
export function portalUserSessionOf(found: PortalSessionUser): PortalUserSession {
  return {
    id: found.id,
    email: found.email,
    name: found.name,
    role: found.role,
    integrationId: found.integrationId,
    integrationName: found.integrationName,
    actor: integratorActor(found),
    pendingStep: portalPendingStep(found),
    sessionPublicId: found.sessionPublicId,
    origin: found.origin,
  };
}
