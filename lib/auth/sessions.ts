import { createHash, randomBytes } from 'node:crypto';
import { and, asc, desc, eq, getTableColumns, gt, lt, sql } from 'drizzle-orm';
import { db } from '@/db/client';
import { consoleSessions, consoleTwoFactor, consoleUsers, type ConsoleUser } from '@/db/schema';
import { writeAudit, type Actor, type Executor } from '@/lib/audit/audit';
import { auditSignIn } from './access-audit';

/** A console session lasts one working day at most, whatever the cookie says. */
export const SESSION_MAX_AGE_SECONDS = 8 * 60 * 60;

/** "Última actividad" is at most this far behind: a session's row is written at most once per interval. */
export const LAST_SEEN_INTERVAL_SECONDS = 60;

/** What a session row keeps of the browser's User-Agent (the console's and the portal's). */
export const MAX_USER_AGENT_LENGTH = 300;

/** Sessions are named in the database by their id's SHA-256 only (the console's and the portal's). */
export function hashSessionId(sessionId: string): string {
  return createHash('sha256').update(sessionId, 'utf8').digest('hex');
}

/** Where a session is used from: shown in "Sesiones activas" so its owner recognises it. */
export interface SessionOrigin {
  userAgent: string;
  clientIp: string;
}

/**
 * Records a new session for a user who just signed in, and the sign-in in the audit log in the
 * same transaction (a sign-in whose session could not be recorded did not happen); returns the
 * session's id (kept only in the cookie).
 */
export async function startConsoleSession(user: { id: number; email: string }, origin: SessionOrigin): Promise<string> {
  const sessionId = randomBytes(32).toString('base64url');
  const database = await db();
  await database.transaction(async (tx) => {
    await tx.insert(consoleSessions).values({
      idHash: hashSessionId(sessionId),
      userId: user.id,
      userAgent: origin.userAgent.slice(0, MAX_USER_AGENT_LENGTH),
      clientIp: origin.clientIp,
      expiresAt: sql`now() + ${SESSION_MAX_AGE_SECONDS}::integer * interval '1 second'`,
    });
    await auditSignIn(tx, user);
  });
  await database.delete(consoleSessions).where(lt(consoleSessions.expiresAt, sql`now()`));
  return sessionId;
}

/**
 * The session a user gets when the second factor completes (a code at sign-in, or an enrolment):
 * a new row, verified, in place of the half-signed one, which ends in the same transaction. A
 * cookie copied after the password alone stops working once its owner types the code (issue 30,
 * point 3). Returns the new session's id, for the new cookie; undefined if the old one had ended.
 */
export async function reissueVerifiedSession(tx: Executor, userId: number, sessionPublicId: string): Promise<string | undefined> {
  const [ended] = await tx
    .delete(consoleSessions)
    .where(and(eq(consoleSessions.userId, userId), eq(consoleSessions.publicId, sessionPublicId)))
    .returning();
  if (!ended) return undefined;
  const sessionId = randomBytes(32).toString('base64url');
  await tx.insert(consoleSessions).values({
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

/** Signing out: the session's cookie stops working on every instance at its next request. */
export async function endConsoleSession(sessionId: string): Promise<void> {
  await (await db()).delete(consoleSessions).where(eq(consoleSessions.idHash, hashSessionId(sessionId)));
}

/** A live session's user, and the session's public id (which "Sesiones activas" marks as this one). */
export interface SessionUser {
  user: ConsoleUser;
  sessionPublicId: string;
  /** The user has two-factor sign-in (lib/two-factor). */
  twoFactorEnrolled: boolean;
  /** This session was opened with a second-factor code (or enrolled in it). */
  secondFactorDone: boolean;
}

/**
 * The user of a session that was neither ended nor has expired. Marks the session as seen now
 * from `clientIp` when it was last marked more than a minute ago: one short write per session
 * per minute, not one per request.
 */
export async function findSessionUser(sessionId: string, clientIp?: string): Promise<SessionUser | undefined> {
  const database = await db();
  const idHash = hashSessionId(sessionId);
  const [row] = await database
    .select({
      user: getTableColumns(consoleUsers),
      sessionPublicId: consoleSessions.publicId,
      stale: sql<boolean>`${consoleSessions.lastSeenAt} < now() - make_interval(secs => ${LAST_SEEN_INTERVAL_SECONDS})`,
      twoFactorEnrolled: sql<boolean>`${consoleTwoFactor.confirmedAt} is not null`,
      secondFactorDone: sql<boolean>`${consoleSessions.secondFactorAt} is not null`,
    })
    .from(consoleSessions)
    .innerJoin(consoleUsers, eq(consoleUsers.id, consoleSessions.userId))
    .leftJoin(consoleTwoFactor, eq(consoleTwoFactor.userId, consoleSessions.userId))
    .where(and(eq(consoleSessions.idHash, idHash), gt(consoleSessions.expiresAt, sql`now()`)));
  if (!row) return undefined;
  if (row.stale) {
    await database
      .update(consoleSessions)
      .set({ lastSeenAt: sql`now()`, ...(clientIp ? { clientIp } : {}) })
      .where(eq(consoleSessions.idHash, idHash));
  }
  return { user: row.user, sessionPublicId: row.sessionPublicId, twoFactorEnrolled: Boolean(row.twoFactorEnrolled), secondFactorDone: Boolean(row.secondFactorDone) };
}

/** One of a user's live sessions, as "Sesiones activas" shows it. */
export interface ActiveSession {
  publicId: string;
  userAgent: string;
  clientIp: string;
  createdAt: Date;
  lastSeenAt: Date;
}

/** A user's sessions that were neither ended nor have expired, the most recently used first. */
export async function listActiveSessions(userId: number): Promise<ActiveSession[]> {
  return (await db())
    .select({
      publicId: consoleSessions.publicId,
      userAgent: consoleSessions.userAgent,
      clientIp: consoleSessions.clientIp,
      createdAt: consoleSessions.createdAt,
      lastSeenAt: consoleSessions.lastSeenAt,
    })
    .from(consoleSessions)
    .where(and(eq(consoleSessions.userId, userId), gt(consoleSessions.expiresAt, sql`now()`)))
    .orderBy(desc(consoleSessions.lastSeenAt), asc(consoleSessions.createdAt));
}

/** Counts each user's live sessions (the users page shows them beside "Cerrar sesiones"). */
export async function countActiveSessionsByUser(): Promise<Map<number, number>> {
  const rows = await (await db())
    .select({ userId: consoleSessions.userId, count: sql<number>`count(*)::int` })
    .from(consoleSessions)
    .where(gt(consoleSessions.expiresAt, sql`now()`))
    .groupBy(consoleSessions.userId);
  return new Map(rows.map((row) => [row.userId, Number(row.count)]));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A user ends one of their own sessions: that browser is signed out at its next request, on every
 * instance. Only the user's own sessions match; says whether one was ended. Audited.
 */
export async function endOwnSession(actor: Extract<Actor, { kind: 'user' }>, publicId: string): Promise<boolean> {
  if (!UUID.test(publicId)) return false;
  return (await db()).transaction(async (tx) => {
    const ended = await tx
      .delete(consoleSessions)
      .where(and(eq(consoleSessions.userId, actor.id), eq(consoleSessions.publicId, publicId)))
      .returning({ createdAt: consoleSessions.createdAt });
    if (ended.length === 0) return false;
    await writeAudit(tx, actor, { action: 'user.end_session', targetType: 'console_user', targetId: actor.id, before: { sessionStartedAt: ended[0]!.createdAt }, after: null });
    return true;
  });
}

/**
 * Ends every session of a user (an administrator's "Cerrar todas sus sesiones", the CLI): each of
 * their browsers is signed out at its next request. Audited with how many were ended; returns it.
 */
export async function endAllSessions(actor: Actor, userId: number): Promise<number> {
  return (await db()).transaction(async (tx) => {
    const ended = await tx.delete(consoleSessions).where(eq(consoleSessions.userId, userId)).returning({ idHash: consoleSessions.idHash });
    await writeAudit(tx, actor, { action: 'user.end_all_sessions', targetType: 'console_user', targetId: userId, before: { sessions: ended.length }, after: { sessions: 0 } });
    return ended.length;
  });
}
