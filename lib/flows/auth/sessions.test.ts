import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '@/db/schema';
import { createConsoleUser } from '@/lib/flows/auth/users';
import { useTestDatabase, type TestDatabase } from '@/tests/support/test-database';
import { endAllSessions, endOwnSession, findSessionUser, listActiveSessions, startConsoleSession } from './sessions';

let testDatabase: TestDatabase;

beforeAll(async () => {
  testDatabase = await useTestDatabase();
});
afterAll(async () => {
  await testDatabase.cleanup();
});

async function newUser(email: string) {
  const created = await createConsoleUser({ kind: 'cli' }, { email, name: email.split('@')[0]!, role: 'support' });
  if (!created.ok) throw new Error(created.error.message);
  return { id: created.value.user.id, email };
}

describe('console sessions', () => {
  it('are listed with their device and address, and a user ends only their own', async () => {
    const ana = await newUser('ana.sesiones@example.com');
    const luis = await newUser('luis.sesiones@example.com');
    const laptop = await startConsoleSession(ana, { userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/132.0', clientIp: '192.0.2.1' });
    const phone = await startConsoleSession(ana, { userAgent: 'x'.repeat(1000), clientIp: '2001:db8::1' });
    const luisSession = await startConsoleSession(luis, { userAgent: '', clientIp: '192.0.2.9' });

    const sessions = await listActiveSessions(ana.id);
    expect(sessions.map((session) => session.clientIp).sort()).toEqual(['192.0.2.1', '2001:db8::1']);
    expect(Math.max(...sessions.map((session) => session.userAgent.length))).toBe(300);
    const phoneId = (await findSessionUser(phone))!.sessionPublicId;
    const luisId = (await findSessionUser(luisSession))!.sessionPublicId;

    const anaActor = { kind: 'user' as const, ...ana };
    expect(await endOwnSession(anaActor, luisId)).toBe(false);
    expect(await endOwnSession(anaActor, 'not-a-uuid')).toBe(false);
    expect(await findSessionUser(luisSession)).toBeDefined();
    expect(await endOwnSession(anaActor, phoneId)).toBe(true);
    expect(await findSessionUser(phone)).toBeUndefined();
    expect(await findSessionUser(laptop)).toBeDefined();
  });

  it("all of a user's sessions end at once, audited with how many", async () => {
    const eva = await newUser('eva.sesiones@example.com');
    const sessions = await Promise.all([1, 2, 3].map((index) => startConsoleSession(eva, { userAgent: 'test', clientIp: `192.0.2.${index}` })));
    expect(await endAllSessions({ kind: 'cli' }, eva.id)).toBe(3);
    for (const session of sessions) expect(await findSessionUser(session)).toBeUndefined();
    const rows = await testDatabase.use(async ({ db }) => db.select().from(auditLog).where(eq(auditLog.action, 'user.end_all_sessions')));
    expect(rows.map((row) => [row.actor, row.targetId, row.before])).toEqual([['cli', String(eva.id), { sessions: 3 }]]);
  });
});
