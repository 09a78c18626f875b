import { createHash, randomBytes } from 'node:crypto';
import { and, eq, getTableColumns, gt, lt, sql } from 'drizzle-orm';
import { db } from '@/db/client';
import { consoleSessions, consoleUsers, type ConsoleUser } from '@/db/schema';
import { auditSignIn } from './access-audit';

/** A console session lasts one working day at most, whatever the cookie says. */
export const SESSION_MAX_AGE_SECONDS = 8 * 60 * 60;

function hashSessionId(sessionId: string): string {
  return createHash('sha256').update(sessionId, 'utf8').digest('hex');
}

/**
 * Records a new session for a user who just signed in, and the sign-in in the audit log in the
 * same transaction (a sign-in whose session could not be recorded did not happen); returns the
 * session's id (kept only in the cookie).
 */
export async function startConsoleSession(user: { id: number; email: string }): Promise<string> {
  const sessionId = randomBytes(32).toString('base64url');
  const database = await db();
  await database.transaction(async (tx) => {
    await tx.insert(consoleSessions).values({
      idHash: hashSessionId(sessionId),
      userId: user.id,
      expiresAt: sql`now() + ${SESSION_MAX_AGE_SECONDS}::integer * interval '1 second'`,
    });
    await auditSignIn(tx, user);
  });
  await database.delete(consoleSessions).where(lt(consoleSessions.expiresAt, sql`now()`));
  return sessionId;
}

/** Signing out: the session's cookie stops working on every instance at its next request. */
export async function endConsoleSession(sessionId: string): Promise<void> {
  await (await db()).delete(consoleSessions).where(eq(consoleSessions.idHash, hashSessionId(sessionId)));
}

/** The user of a session that was neither ended nor has expired. */
export async function findSessionUser(sessionId: string): Promise<ConsoleUser | undefined> {
  const [row] = await (await db())
    .select(getTableColumns(consoleUsers))
    .from(consoleSessions)
    .innerJoin(consoleUsers, eq(consoleUsers.id, consoleSessions.userId))
    .where(and(eq(consoleSessions.idHash, hashSessionId(sessionId)), gt(consoleSessions.expiresAt, sql`now()`)));
  return row;
}
