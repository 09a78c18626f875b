import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/db/client';
import { auditLog, consoleTwoFactor, consoleUsers } from '@/db/schema';
import { findSessionUser, startConsoleSession } from '@/lib/flows/auth/sessions';
import { useTestDatabase, type TestDatabase } from '@/tests/support/test-database';
import { TWO_FACTOR_MESSAGES } from './messages';
import { confirmEnrolment, regenerateRecoveryCodes, resetTwoFactor, startEnrolment, twoFactorStatus, verifySignInSecondFactor } from './service';
import { TOTP_PERIOD_SECONDS, totpCodeAt } from './totp';

let testDatabase: TestDatabase;
beforeAll(async () => {
  process.env.TWO_FACTOR_ENCRYPTION_KEY = 'unit-test key for two-factor secrets, 48 chars.';
  testDatabase = await useTestDatabase();
});
afterAll(async () => {
  await testDatabase.cleanup();
  delete process.env.TWO_FACTOR_ENCRYPTION_KEY;
});

let ipCounter = 0;
/** Each test from its own address, so the per-IP budget of one does not reach the next. */
const nextIp = () => `192.0.2.${++ipCounter}`;

/** A user row (no password hash is needed here, and hashing one would cost a second each). */
async function newUser(email: string): Promise<{ id: number; email: string }> {
  const [row] = await (await db()).insert(consoleUsers).values({ email, name: 'Prueba', role: 'support', passwordHash: 'not used' }).returning({ id: consoleUsers.id });
  return { id: row!.id, email };
}

async function enrolledUser(email: string) {
  const user = await newUser(email);
  const actor = { kind: 'user' as const, ...user };
  const sessionId = await startConsoleSession(user, { userAgent: 'test', clientIp: '192.0.2.250' });
  const session = (await findSessionUser(sessionId))!;
  const enrolment = await startEnrolment(user);
  if (!enrolment.ok) throw new Error(enrolment.error.message);
  const confirmed = await confirmEnrolment(actor, session.sessionPublicId, totpCodeAt(enrolment.value.secret, Date.now() - TOTP_PERIOD_SECONDS * 1000));
  if (!confirmed.ok) throw new Error(confirmed.error.message);
  // Enrolled, the session continues as a new one (issue 30, point 3).
  const verifiedSessionId = confirmed.value.sessionId!;
  return { user, actor, secret: enrolment.value.secret, recoveryCodes: confirmed.value.recoveryCodes, halfSignedSessionId: sessionId, sessionId: verifiedSessionId, sessionPublicId: (await findSessionUser(verifiedSessionId))!.sessionPublicId };
}

/** A second session of the user, still waiting for its second factor. */
async function newSession(user: { id: number; email: string }) {
  const sessionId = await startConsoleSession(user, { userAgent: 'test', clientIp: '192.0.2.251' });
  return { sessionId, publicId: (await findSessionUser(sessionId))!.sessionPublicId };
}

describe('enrolment', () => {
  it('keeps the secret encrypted, confirms with a code, opens this session and gives ten recovery codes', async () => {
    const { user, secret, recoveryCodes, sessionId, halfSignedSessionId } = await enrolledUser('alta@example.com');
    const [row] = await (await db()).select().from(consoleTwoFactor).where(eq(consoleTwoFactor.userId, user.id));
    expect(row!.secretCiphertext).not.toContain(secret);
    expect(row!.confirmedAt).not.toBeNull();
    expect(recoveryCodes).toHaveLength(10);
    expect(await twoFactorStatus(user.id)).toEqual({ enrolled: true, recoveryCodesLeft: 10 });
    expect((await findSessionUser(sessionId))!.secondFactorDone).toBe(true);
    expect(await findSessionUser(halfSignedSessionId)).toBeUndefined();
    expect(await startEnrolment(user)).toMatchObject({ ok: false, error: { message: TWO_FACTOR_MESSAGES.alreadyEnrolled } });
  });

  it('refuses a wrong confirmation code and stays off', async () => {
    const user = await newUser('duda@example.com');
    const enrolment = await startEnrolment(user);
    expect(enrolment.ok).toBe(true);
    const session = await newSession(user);
    const wrong = (Number(totpCodeAt((enrolment as { value: { secret: string } }).value.secret, Date.now())) + 1) % 1_000_000;
    // A code one off is wrong (the odds that it is the code of a neighbouring step are one in a million).
    expect((await confirmEnrolment({ kind: 'user', ...user }, session.publicId, String(wrong).padStart(6, '0'))).ok).toBe(false);
    expect((await twoFactorStatus(user.id)).enrolled).toBe(false);
  });
});

describe('the second factor at sign-in', () => {
  it('accepts a current code once: the same code again (a replay) and an older one are refused', async () => {
    const { user, secret } = await enrolledUser('replay@example.com');
    const first = await newSession(user);
    const ip = nextIp();
    const now = Date.now();
    const verified = await verifySignInSecondFactor(user, first.publicId, totpCodeAt(secret, now), ip);
    expect(verified).toMatchObject({ ok: true, value: { method: 'totp' } });
    // The half-signed session ended; the verified one is new (issue 30, point 3).
    expect(await findSessionUser(first.sessionId)).toBeUndefined();
    expect((await findSessionUser((verified as { value: { sessionId: string } }).value.sessionId))!.secondFactorDone).toBe(true);

    const second = await newSession(user);
    expect(await verifySignInSecondFactor(user, second.publicId, totpCodeAt(secret, now), ip)).toMatchObject({ ok: false, error: { message: TWO_FACTOR_MESSAGES.wrongCode } });
    expect(await verifySignInSecondFactor(user, second.publicId, totpCodeAt(secret, now - TOTP_PERIOD_SECONDS * 1000), ip)).toMatchObject({ ok: false });
    expect((await findSessionUser(second.sessionId))!.secondFactorDone).toBe(false);
    const failures = await (await db()).select().from(auditLog).where(eq(auditLog.action, 'user.sign_in_failed'));
    expect(failures.filter((row) => row.targetId === String(user.id))).toHaveLength(2);
  });

  it('accepts each recovery code once, and counts the ones left', async () => {
    const { user, recoveryCodes } = await enrolledUser('recupera@example.com');
    const ip = nextIp();
    const first = await newSession(user);
    expect(await verifySignInSecondFactor(user, first.publicId, recoveryCodes[0]!.toUpperCase(), ip)).toMatchObject({
      ok: true,
      value: { method: 'recovery_code', recoveryCodesLeft: 9 },
    });
    const second = await newSession(user);
    expect((await verifySignInSecondFactor(user, second.publicId, recoveryCodes[0]!, ip)).ok).toBe(false);
    expect(await verifySignInSecondFactor(user, second.publicId, recoveryCodes[1]!, ip)).toMatchObject({ ok: true, value: { recoveryCodesLeft: 8 } });
  });

  it('regenerated recovery codes replace the old ones, unused ones included', async () => {
    const { actor, user, secret, recoveryCodes } = await enrolledUser('nuevos@example.com');
    const ip = nextIp();
    const regenerated = await regenerateRecoveryCodes(actor, totpCodeAt(secret, Date.now()), ip);
    expect(regenerated.ok).toBe(true);
    const fresh = (regenerated as { value: { recoveryCodes: string[] } }).value.recoveryCodes;
    const session = await newSession(user);
    expect((await verifySignInSecondFactor(user, session.publicId, recoveryCodes[5]!, ip)).ok).toBe(false);
    expect((await verifySignInSecondFactor(user, session.publicId, fresh[5]!, ip)).ok).toBe(true);
  });

  it('is removed by an administrator\'s reset, which ends the user\'s sessions', async () => {
    const { user, sessionId } = await enrolledUser('perdido@example.com');
    const reset = await resetTwoFactor({ kind: 'user', id: 999_999, email: 'jefa@example.com' }, user.id);
    expect(reset).toMatchObject({ ok: true, value: { sessionsEnded: 1 } });
    expect(await findSessionUser(sessionId)).toBeUndefined();
    expect(await twoFactorStatus(user.id)).toEqual({ enrolled: false, recoveryCodesLeft: 0 });
    expect((await resetTwoFactor({ kind: 'system', name: 'test' }, user.id)).ok).toBe(false);
  });
});
