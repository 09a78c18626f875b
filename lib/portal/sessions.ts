import { randomBytes } from 'node:crypto';
import { and, asc, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import { db } from '@/db/client';
import { integrations, portalSessions, portalTwoFactor, portalUsers, type PortalRole } from '@/db/schema';
import { writeAudit, type Executor, type IntegratorActor } from '@/lib/audit/audit';
import { ACCESS_AUDIT, auditSignIn } from '@/lib/auth/access-audit';
import { hashSessionId, MAX_USER_AGENT_LENGTH, type ActiveSession, type SessionOrigin } from '@/lib/auth/sessions';
import { portalTwoFactorRequired } from './policy';

// The portal's sessions, kept on the server: the browser holds a random id in an opaque cookie of
// the portal's own (lib/portal/session.ts), and every request reads its row, its user and that
// user's integration. The console's next-auth cookie names none of these rows and this cookie
// names no console session: a session of one never opens the other (docs/decisions.md).

/** A portal session lasts one working day at most, as the console's. */
export const PORTAL_SESSION_MAX_AGE_SECONDS = 8 * 60 * 60;
const LAST_SEEN_INTERVAL_SECONDS = 60;

/**
 * Records a new session for a portal user who just signed in (or accepted an invitation), in the
 * transaction `executor` runs, with the sign-in in the audit log; returns the session's id, which
 * only the cookie keeps.
 */
export async function startPortalSession(executor: Executor, actor: IntegratorActor, origin: SessionOrigin): Promise<string> {
  const sessionId = randomBytes(32).toString('base64url');
  await executor.insert(portalSessions).values({
    idHash: hashSessionId(sessionId),
    userId: actor.id,
    userAgent: origin.userAgent.slice(0, MAX_USER_AGENT_LENGTH),
    clientIp: origin.clientIp,
    expiresAt: sql`now() + ${PORTAL_SESSION_MAX_AGE_SECONDS}::integer * interval '1 second'`,
  });
  await executor.update(portalUsers).set({ lastSignInAt: sql`now()` }).where(eq(portalUsers.id, actor.id));
  await auditSignIn(executor, actor, ACCESS_AUDIT.portal, actor);
  await executor.delete(portalSessions).where(lt(portalSessions.expiresAt, sql`now()`));
  return sessionId;
}

/**
 * A sign-in by password: the session and its audit row in one transaction, only if the password
 * that was checked is still the user's. The user's row is locked first, so a password change or
 * reset (which ends the user's sessions in its own transaction, lib/portal/passwords.ts) either
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

/**
 * The session a user continues in once the second factor is done (a code, or an enrolment): a new
 * row, verified, in place of the half-signed one, in the same transaction. A cookie copied after
 * the password alone stops working once its owner types the code.
 */
export async function reissueVerifiedPortalSession(tx: Executor, userId: number, sessionPublicId: string): Promise<string | undefined> {
  const [ended] = await tx
    .delete(portalSessions)
    .where(and(eq(portalSessions.userId, userId), eq(portalSessions.publicId, sessionPublicId)))
    .returning();
  if (!ended) return undefined;
  const sessionId = randomBytes(32).toString('base64url');
  await tx.insert(portalSessions).values({
    idHash: hashSessionId(sessionId),
    userId,
    userAgent: ended.userAgent,
    clientIp: ended.clientIp,
    createdAt: ended.createdAt,
    expiresAt: ended.expiresAt,
    secondFactorAt: sql`now()`,
  });
  return sessionId;
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
      sessionPublicId: portalSessions.publicId,
      stale: sql<boolean>`${portalSessions.lastSeenAt} < now() - make_interval(secs => ${LAST_SEEN_INTERVAL_SECONDS})`,
      twoFactorEnrolled: sql<boolean>`${portalTwoFactor.confirmedAt} is not null`,
      secondFactorDone: sql<boolean>`${portalSessions.secondFactorAt} is not null`,
    })
    .from(portalSessions)
    .innerJoin(portalUsers, eq(portalUsers.id, portalSessions.userId))
    .innerJoin(integrations, eq(integrations.id, portalUsers.integrationId))
    .leftJoin(portalTwoFactor, eq(portalTwoFactor.userId, portalSessions.userId))
    .where(and(eq(portalSessions.idHash, idHash), gt(portalSessions.expiresAt, sql`now()`), isNull(portalUsers.removedAt)));
  if (!row) return undefined;
  if (row.stale) {
    await database
      .update(portalSessions)
      .set({ lastSeenAt: sql`now()`, ...(clientIp ? { clientIp } : {}) })
      .where(eq(portalSessions.idHash, idHash));
  }
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
  };
}

/** What stands between a session and the portal, in order: the second factor of a user who has one, then a required enrolment. */
export type PortalPendingStep = 'second_factor' | 'two_factor_enrolment';

export function portalPendingStep(session: Pick<PortalSessionUser, 'role' | 'twoFactorEnrolled' | 'secondFactorDone'>): PortalPendingStep | null {
  if (session.twoFactorEnrolled && !session.secondFactorDone) return 'second_factor';
  if (!session.twoFactorEnrolled && portalTwoFactorRequired(session.role)) return 'two_factor_enrolment';
  return null;
}

/** Signing out: that cookie stops working on every instance at its next request. */
export async function endPortalSession(sessionId: string): Promise<void> {
  await (await db()).delete(portalSessions).where(eq(portalSessions.idHash, hashSessionId(sessionId)));
}

/** A user's live sessions, the most recently used first ("Sesiones activas"). */
export async function listPortalSessions(userId: number): Promise<ActiveSession[]> {
  return (await db())
    .select({
      publicId: portalSessions.publicId,
      userAgent: portalSessions.userAgent,
      clientIp: portalSessions.clientIp,
      createdAt: portalSessions.createdAt,
      lastSeenAt: portalSessions.lastSeenAt,
    })
    .from(portalSessions)
    .where(and(eq(portalSessions.userId, userId), gt(portalSessions.expiresAt, sql`now()`)))
    .orderBy(desc(portalSessions.lastSeenAt), asc(portalSessions.createdAt));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A user ends one of their own sessions (only their own match); audited. Says whether one ended. */
export async function endOwnPortalSession(actor: IntegratorActor, publicId: string): Promise<boolean> {
  if (!UUID.test(publicId)) return false;
  return (await db()).transaction(async (tx) => {
    const ended = await tx
      .delete(portalSessions)
      .where(and(eq(portalSessions.userId, actor.id), eq(portalSessions.publicId, publicId)))
      .returning({ createdAt: portalSessions.createdAt });
    if (ended.length === 0) return false;
    await writeAudit(tx, actor, { action: 'portal_user.end_session', targetType: 'portal_user', targetId: actor.id, before: { sessionStartedAt: ended[0]!.createdAt }, after: null });
    return true;
  });
}

/** Ends every session of a portal user, in the caller's transaction; how many. */
export async function endAllPortalSessions(executor: Executor, userId: number): Promise<number> {
  const ended = await executor.delete(portalSessions).where(eq(portalSessions.userId, userId)).returning({ idHash: portalSessions.idHash });
  return ended.length;
}
