import { createHash, randomBytes } from 'node:crypto';
import { and, asc, desc, eq, getTableColumns, gt, lt, sql, type SQL } from 'drizzle-orm';
import { db } from '@/db/client';
import { consoleSessions, consoleTwoFactor, consoleUsers, portalSessions, type ConsoleUser } from '@/db/schema';
import { seal } from '@/lib/core/sealing/envelope';
import { writeAudit, type Actor, type Executor, type PersonActor } from '@/lib/core/audit/audit';
import { ACCESS_AUDIT, auditSignIn } from './access-audit';
import type { AuthRealm } from './realm';
import { sessionMaxAgeSeconds } from './session-settings';

// Server-side sessions of both realms: the console's (named by next-auth's cookie) and the
// portal's (named by its own opaque cookie, lib/surfaces/portal/session.ts). Each realm has its own table,
// so a session of one never opens the other; everything else (ids hashed, a life of SESSION_MAX_HOURS at most, the
// half-signed session replaced once the second factor is done, "Sesiones activas", ending one's
// own or all of a user's) is the one implementation below, sessionStore(realm). What a realm adds
// (the console's user row and password version, the portal's membership and integration) is read
// by its own lookup: findSessionUser here, findPortalSession in lib/flows/portal-identity/sessions.ts.


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

/** A session opened through the identity provider: the provider's own session id, when it gave one. */
export interface ProviderSession {
  sid: string | null;
  /** What the session is renewed with (lib/flows/auth/sso-renewal.ts); null when the provider gave none. */
  refreshToken: string | null;
}

/** One of a user's live sessions, as "Sesiones activas" shows it. */
export interface ActiveSession {
  publicId: string;
  userAgent: string;
  clientIp: string;
  createdAt: Date;
  lastSeenAt: Date;
}

// The portal's table has exactly the console's columns (db/schema/portal-sessions.ts), so it is
// typed as the console's: the queries below name only those columns, and drizzle writes each
// table's own name (as lib/flows/two-factor does with its tables).
const SESSION_TABLES: Record<AuthRealm, typeof consoleSessions> = {
  console: consoleSessions,
  portal: portalSessions as unknown as typeof consoleSessions,
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * One realm's sessions: its table, and its audit names for a user ending one of their own.
 * `Owner` is the realm's kind of person, so a console actor can never end a portal session of a
 * user with the same id, nor the reverse.
 */
export function sessionStore<Owner extends PersonActor>(realm: AuthRealm) {
  const sessions = SESSION_TABLES[realm];
  const audit = ACCESS_AUDIT[realm];

  /**
   * Records a new session of `userId`, in the transaction `executor` runs (with the sign-in's audit
   * row, written by the caller); returns the session's id, which only the cookie keeps.
   */
  async function insertSession(executor: Executor, userId: number, origin: SessionOrigin, provider?: ProviderSession): Promise<string> {
    const sessionId = randomBytes(32).toString('base64url');
    await executor.insert(sessions).values({
      idHash: hashSessionId(sessionId),
      userId,
      userAgent: origin.userAgent.slice(0, MAX_USER_AGENT_LENGTH),
      clientIp: origin.clientIp,
      expiresAt: sql`now() + ${sessionMaxAgeSeconds()}::integer * interval '1 second'`,
      ...(provider
        ? {
            viaIdentityProvider: true,
            identityProviderSid: provider.sid,
            identityProviderRefreshToken: provider.refreshToken === null ? null : seal(provider.refreshToken, 'identity_provider_refresh_token'),
            identityProviderCheckedAt: sql`now()`,
          }
        : {}),
    });
    return sessionId;
  }

  /** Each sign-in deletes the realm's sessions that expired: no sweeper needed. */
  async function deleteExpiredSessions(executor: Executor): Promise<void> {
    await executor.delete(sessions).where(lt(sessions.expiresAt, sql`now()`));
  }

  /**
   * The session a user gets when the second factor completes (a code at sign-in, or an
   * enrolment): a new row, verified, in place of the half-signed one, which ends in the same
   * transaction. A cookie copied after the password alone stops working once its owner types the
   * code. Returns the new session's id, for the new cookie; undefined if the
   * old one had ended.
   */
  async function reissueVerifiedSession(tx: Executor, userId: number, sessionPublicId: string): Promise<string | undefined> {
    const [ended] = await tx
      .delete(sessions)
      .where(and(eq(sessions.userId, userId), eq(sessions.publicId, sessionPublicId)))
      .returning();
    if (!ended) return undefined;
    const sessionId = randomBytes(32).toString('base64url');
    await tx.insert(sessions).values({
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

  /** What a realm's session lookup reads of the session row, beside its own user's columns. */
  function sessionColumns() {
    return {
      sessionPublicId: sessions.publicId,
      stale: sql<boolean>`${sessions.lastSeenAt} < now() - make_interval(secs => ${LAST_SEEN_INTERVAL_SECONDS})`,
      secondFactorDone: sql<boolean>`${sessions.secondFactorAt} is not null`,
      viaIdentityProvider: sessions.viaIdentityProvider,
    };
  }

  /** The session named by this hash, neither ended nor expired (a lookup's condition). */
  function isLiveSession(idHash: string): SQL {
    return and(eq(sessions.idHash, idHash), gt(sessions.expiresAt, sql`now()`))!;
  }

  /**
   * Marks a session found `stale` as seen now from `clientIp`: one short write per session per
   * minute, not one per request.
   */
  async function markSeen(executor: Executor, idHash: string, stale: boolean, clientIp: string | undefined): Promise<void> {
    if (!stale) return;
    await executor
      .update(sessions)
      .set({ lastSeenAt: sql`now()`, ...(clientIp ? { clientIp } : {}) })
      .where(eq(sessions.idHash, idHash));
  }

  /** Signing out: the session's cookie stops working on every instance at its next request. */
  async function endSession(sessionId: string): Promise<void> {
    await (await db()).delete(sessions).where(eq(sessions.idHash, hashSessionId(sessionId)));
  }

  /** A user's sessions that were neither ended nor have expired, the most recently used first. */
  async function listActiveSessions(userId: number): Promise<ActiveSession[]> {
    return (await db())
      .select({
        publicId: sessions.publicId,
        userAgent: sessions.userAgent,
        clientIp: sessions.clientIp,
        createdAt: sessions.createdAt,
        lastSeenAt: sessions.lastSeenAt,
      })
      .from(sessions)
      .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, sql`now()`)))
      .orderBy(desc(sessions.lastSeenAt), asc(sessions.createdAt));
  }

  /**
   * A user ends one of their own sessions: that browser is signed out at its next request, on
   * every instance. Only the user's own sessions match; says whether one was ended. Audited.
   */
  async function endOwnSession(actor: Owner, publicId: string): Promise<boolean> {
    if (!UUID.test(publicId)) return false;
    return (await db()).transaction(async (tx) => {
      const ended = await tx
        .delete(sessions)
        .where(and(eq(sessions.userId, actor.id), eq(sessions.publicId, publicId)))
        .returning({ createdAt: sessions.createdAt });
      if (ended.length === 0) return false;
      await writeAudit(tx, actor, {
        action: `${audit.actionPrefix}.end_session`,
        targetType: audit.targetType,
        targetId: actor.id,
        before: { sessionStartedAt: ended[0]!.createdAt },
        after: null,
      });
      return true;
    });
  }

  /** Ends every session of a user in the caller's transaction (which audits why); how many. */
  async function endAllSessionsIn(executor: Executor, userId: number): Promise<number> {
    const ended = await executor.delete(sessions).where(eq(sessions.userId, userId)).returning({ idHash: sessions.idHash });
    return ended.length;
  }

  return { insertSession, deleteExpiredSessions, reissueVerifiedSession, sessionColumns, isLiveSession, markSeen, endSession, listActiveSessions, endOwnSession, endAllSessionsIn };
}

export const consoleSessionStore = sessionStore<Extract<Actor, { kind: 'user' }>>('console');

/**
 * Records a new session for a console user who just signed in, and the sign-in in the audit log in
 * the same transaction (a sign-in whose session could not be recorded did not happen); returns the
 * session's id (kept only in the cookie).
 */
export async function startConsoleSession(user: { id: number; email: string }, origin: SessionOrigin, provider?: ProviderSession): Promise<string> {
  const database = await db();
  const sessionId = await database.transaction(async (tx) => {
    const started = await consoleSessionStore.insertSession(tx, user.id, origin, provider);
    await tx.update(consoleUsers).set({ lastSignInAt: sql`now()` }).where(eq(consoleUsers.id, user.id));
    await auditSignIn(tx, user, ACCESS_AUDIT.console, undefined, provider ? ACCESS_AUDIT.console.actions.signInIdentityProvider : undefined);
    return started;
  });
  await consoleSessionStore.deleteExpiredSessions(database);
  return sessionId;
}

export const { listActiveSessions, endOwnSession, endSession: endConsoleSession } = consoleSessionStore;

/** A live session's user, and the session's public id (which "Sesiones activas" marks as this one). */
export interface SessionUser {
  user: ConsoleUser;
  sessionPublicId: string;
  /** The user has two-factor sign-in (lib/flows/two-factor). */
  twoFactorEnrolled: boolean;
  /** This session was opened with a second-factor code (or enrolled in it). */
  secondFactorDone: boolean;
  /** Opened through the identity provider: it owes none of the console's own steps. */
  viaIdentityProvider: boolean;
}

/**
 * The user of a console session that was neither ended nor has expired. Marks the session as seen
 * now from `clientIp` when it was last marked more than a minute ago.
 */
export async function findSessionUser(sessionId: string, clientIp?: string): Promise<SessionUser | undefined> {
  const database = await db();
  const idHash = hashSessionId(sessionId);
  const [row] = await database
    .select({
      user: getTableColumns(consoleUsers),
      ...consoleSessionStore.sessionColumns(),
      twoFactorEnrolled: sql<boolean>`${consoleTwoFactor.confirmedAt} is not null`,
    })
    .from(consoleSessions)
    .innerJoin(consoleUsers, eq(consoleUsers.id, consoleSessions.userId))
    .leftJoin(consoleTwoFactor, eq(consoleTwoFactor.userId, consoleSessions.userId))
    .where(consoleSessionStore.isLiveSession(idHash));
  if (!row) return undefined;
  await consoleSessionStore.markSeen(database, idHash, row.stale, clientIp);
  return {
    user: row.user,
    sessionPublicId: row.sessionPublicId,
    twoFactorEnrolled: Boolean(row.twoFactorEnrolled),
    secondFactorDone: Boolean(row.secondFactorDone),
    viaIdentityProvider: Boolean(row.viaIdentityProvider),
  };
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

/**
 * Ends every session of a console user (an administrator's "Cerrar todas sus sesiones", the CLI):
 * each of their browsers is signed out at its next request. Audited with how many were ended;
 * returns it.
 */
export async function endAllSessions(actor: Actor, userId: number): Promise<number> {
  return (await db()).transaction(async (tx) => {
    const ended = await consoleSessionStore.endAllSessionsIn(tx, userId);
    await writeAudit(tx, actor, { action: 'user.end_all_sessions', targetType: 'console_user', targetId: userId, before: { sessions: ended }, after: { sessions: 0 } });
    return ended;
  });
}
