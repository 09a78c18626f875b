import { setTimeout as sleep } from 'node:timers/promises';
import { and, eq, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import { db } from '@/db/client';
import { consoleRecoveryCodes, consoleSessions, consoleTwoFactor, type ConsoleRole } from '@/db/schema';
import { ACCESS_AUDIT_ACTIONS, auditSecondFactorRefusal } from '@/lib/auth/access-audit';
import { reissueVerifiedSession } from '@/lib/auth/sessions';
import { writeAudit, type Actor, type Executor } from '@/lib/audit/audit';
import { beginSecondFactorAttempt, recordSecondFactorFailure, recordSecondFactorSuccess, type ThrottleScope } from '@/lib/auth/throttle';
import { logger } from '@/lib/logging/logger';
import { fail, ok, type Result } from '@/lib/result';
import { enrolmentQrSvg } from './enrolment-qr';
import { secondFactorRefusalMessage, TWO_FACTOR_MESSAGES } from './messages';
import { twoFactorRequired } from './policy';
import { findRecoveryCode, hashRecoveryCode, newRecoveryCodes } from './recovery-codes';
import { openSecret, sealSecret, twoFactorKey } from './secret-box';
import { enrolmentUri, matchingStep, newTotpSecret, normalizeTotpCode } from './totp';

// Two-factor sign-in of console users, in the database: enrolment, the check of a code (TOTP or
// recovery) after the password, recovery codes, turning it off and an administrator's reset.
// Every change is audited; secrets and codes never reach a log line or the audit log.

type UserActor = Extract<Actor, { kind: 'user' }>;
export type TwoFactorError = 'invalid' | 'throttled' | 'state';

export interface TwoFactorStatus {
  enrolled: boolean;
  recoveryCodesLeft: number;
}

export async function twoFactorStatus(userId: number): Promise<TwoFactorStatus> {
  const database = await db();
  const [row] = await database.select({ confirmedAt: consoleTwoFactor.confirmedAt }).from(consoleTwoFactor).where(eq(consoleTwoFactor.userId, userId));
  if (!row?.confirmedAt) return { enrolled: false, recoveryCodesLeft: 0 };
  const [count] = await database
    .select({ left: sql<number>`count(*)::int` })
    .from(consoleRecoveryCodes)
    .where(and(eq(consoleRecoveryCodes.userId, userId), isNull(consoleRecoveryCodes.usedAt)));
  return { enrolled: true, recoveryCodesLeft: Number(count?.left ?? 0) };
}

/** The users who have two-factor sign-in ("Usuarios" shows it and offers the reset). */
export async function usersWithTwoFactor(): Promise<Set<number>> {
  const rows = await (await db()).select({ userId: consoleTwoFactor.userId }).from(consoleTwoFactor).where(isNotNull(consoleTwoFactor.confirmedAt));
  return new Set(rows.map((row) => row.userId));
}

export interface Enrolment {
  /** Base32, for typing into the app by hand; shown to the user only. */
  secret: string;
  qrSvg: string;
}

/**
 * Starts (or starts over) an enrolment: a new secret, kept encrypted until the user confirms it
 * with a code. Refused when two-factor sign-in is already on: it is never replaced silently.
 */
export async function startEnrolment(user: { id: number; email: string }): Promise<Result<Enrolment, TwoFactorError>> {
  const secret = newTotpSecret();
  const sealed = sealSecret(secret, user.id, twoFactorKey());
  const stored = await (await db())
    .insert(consoleTwoFactor)
    .values({ userId: user.id, secretCiphertext: sealed })
    .onConflictDoUpdate({
      target: consoleTwoFactor.userId,
      set: { secretCiphertext: sealed, lastUsedStep: null, createdAt: sql`now()` },
      setWhere: isNull(consoleTwoFactor.confirmedAt),
    })
    .returning({ userId: consoleTwoFactor.userId });
  if (stored.length === 0) return fail('state', TWO_FACTOR_MESSAGES.alreadyEnrolled);
  return ok({ secret, qrSvg: await enrolmentQrSvg(enrolmentUri(secret, user.email)) });
}

/**
 * Confirms an enrolment with a code the app shows now: two-factor sign-in is on from here, this
 * session counts as verified, and ten recovery codes are returned, to be shown once.
 */
export async function confirmEnrolment(actor: UserActor, sessionPublicId: string, code: string): Promise<Result<{ recoveryCodes: string[]; sessionId: string | undefined }, TwoFactorError>> {
  const database = await db();
  const [row] = await database.select().from(consoleTwoFactor).where(and(eq(consoleTwoFactor.userId, actor.id), isNull(consoleTwoFactor.confirmedAt)));
  if (!row) return fail('state', TWO_FACTOR_MESSAGES.noEnrolmentInProgress);
  const secret = openSecret(row.secretCiphertext, actor.id, twoFactorKey());
  if (!secret) return fail('state', TWO_FACTOR_MESSAGES.noEnrolmentInProgress);
  const step = matchingStep(secret, code);
  if (step === undefined) return fail('invalid', normalizeTotpCode(code) ? TWO_FACTOR_MESSAGES.wrongEnrolmentCode : TWO_FACTOR_MESSAGES.codeFormat);
  const recoveryCodes = newRecoveryCodes();
  let sessionId: string | undefined;
  const confirmed = await database.transaction(async (tx) => {
    const updated = await tx
      .update(consoleTwoFactor)
      .set({ confirmedAt: sql`now()`, lastUsedStep: step })
      .where(and(eq(consoleTwoFactor.userId, actor.id), isNull(consoleTwoFactor.confirmedAt), eq(consoleTwoFactor.secretCiphertext, row.secretCiphertext)))
      .returning({ userId: consoleTwoFactor.userId });
    if (updated.length === 0) return false;
    await replaceRecoveryCodes(tx, actor.id, recoveryCodes);
    sessionId = await reissueVerifiedSession(tx, actor.id, sessionPublicId);
    await writeAudit(tx, actor, { action: 'user.enable_two_factor', targetType: 'console_user', targetId: actor.id, before: { twoFactor: false }, after: { twoFactor: true } });
    return true;
  });
  return confirmed ? ok({ recoveryCodes, sessionId }) : fail('state', TWO_FACTOR_MESSAGES.noEnrolmentInProgress);
}

/**
 * The second step of a sign-in: a TOTP code (not one already used) or an unused recovery code,
 * throttled like passwords. A right one opens this session; a wrong one is a failed sign-in.
 */
export async function verifySignInSecondFactor(
  user: { id: number; email: string },
  sessionPublicId: string,
  code: string,
  clientIp: string,
): Promise<Result<{ method: 'totp' | 'recovery_code'; recoveryCodesLeft: number; sessionId: string | undefined }, TwoFactorError>> {
  let sessionId: string | undefined;
  const checked = await throttledCheck(user, 'sign_in', code, clientIp, async (tx, method) => {
    sessionId = await reissueVerifiedSession(tx, user.id, sessionPublicId);
    await writeAudit(tx, { kind: 'user', id: user.id, email: user.email }, {
      action: ACCESS_AUDIT_ACTIONS.signInSecondFactor,
      targetType: 'console_user',
      targetId: user.id,
      before: null,
      after: { method },
    });
  });
  return checked.ok ? ok({ ...checked.value, sessionId }) : checked;
}

/** New recovery codes (the old ones stop working), confirmed with a current code. */
export async function regenerateRecoveryCodes(actor: UserActor, code: string, clientIp: string): Promise<Result<{ recoveryCodes: string[] }, TwoFactorError>> {
  const recoveryCodes = newRecoveryCodes();
  const checked = await throttledCheck(actor, 'account', code, clientIp, async (tx) => {
    await replaceRecoveryCodes(tx, actor.id, recoveryCodes);
    await writeAudit(tx, actor, { action: 'user.regenerate_recovery_codes', targetType: 'console_user', targetId: actor.id, before: null, after: { recoveryCodes: recoveryCodes.length } });
  });
  return checked.ok ? ok({ recoveryCodes }) : checked;
}

/** A user turns their own two-factor sign-in off, confirming with a code; never when it is required of them. */
export async function disableOwnTwoFactor(actor: UserActor, role: ConsoleRole, code: string, clientIp: string): Promise<Result<null, TwoFactorError>> {
  if (twoFactorRequired()) return fail('state', TWO_FACTOR_MESSAGES.requiredCannotDisable);
  const checked = await throttledCheck(actor, 'account', code, clientIp, async (tx) => {
    await removeTwoFactor(tx, actor.id);
    await writeAudit(tx, actor, { action: 'user.disable_two_factor', targetType: 'console_user', targetId: actor.id, before: { twoFactor: true }, after: { twoFactor: false } });
  });
  return checked.ok ? ok(null) : checked;
}

/**
 * An administrator resets someone's second factor (a lost phone): it is removed, every session of
 * that user ends, and at their next sign-in they enrol again (if it is required of them) or go
 * without it. Audited with how many sessions ended.
 */
export async function resetTwoFactor(actor: Actor, userId: number): Promise<Result<{ sessionsEnded: number }, TwoFactorError>> {
  if (actor.kind === 'user' && actor.id === userId) return fail('state', TWO_FACTOR_MESSAGES.resetSelf);
  return (await db()).transaction(async (tx) => {
    const removed = await removeTwoFactor(tx, userId);
    if (!removed) return fail('state', TWO_FACTOR_MESSAGES.notEnrolled);
    const ended = await tx.delete(consoleSessions).where(eq(consoleSessions.userId, userId)).returning({ idHash: consoleSessions.idHash });
    await writeAudit(tx, actor, {
      action: 'user.reset_two_factor',
      targetType: 'console_user',
      targetId: userId,
      before: { twoFactor: true, sessions: ended.length },
      after: { twoFactor: false, sessions: 0 },
    });
    return ok({ sessionsEnded: ended.length });
  });
}

type Transaction = Parameters<Parameters<Awaited<ReturnType<typeof db>>['transaction']>[0]>[0];

/**
 * Checks a code under the second-factor throttle and, when it is right, uses it up and runs
 * `onSuccess` in the same transaction (a recovery code marked used, or the TOTP step recorded,
 * only with what it was used for). Wrong codes are audited, and the locks they cause logged.
 */
async function throttledCheck(
  user: { id: number; email: string },
  where: 'sign_in' | 'account',
  code: string,
  clientIp: string,
  onSuccess: (tx: Transaction, method: 'totp' | 'recovery_code') => Promise<void>,
): Promise<Result<{ method: 'totp' | 'recovery_code'; recoveryCodesLeft: number }, TwoFactorError>> {
  if (!code.trim() || code.length > 64) return fail('invalid', TWO_FACTOR_MESSAGES.codeFormat);
  const attempt = await beginSecondFactorAttempt(user.id, clientIp);
  if (!attempt.allowed) {
    if (attempt.lockedNow) await recordRefusal(user, where, false, attempt.lockedNow, clientIp);
    return fail('throttled', secondFactorRefusalMessage(attempt.refusal));
  }
  if (attempt.delayMs > 0) await sleep(attempt.delayMs);
  const method = await (await db()).transaction(async (tx) => {
    const used = await useCode(tx, user.id, code);
    if (used) await onSuccess(tx, used);
    return used;
  });
  if (!method) {
    const failure = await recordSecondFactorFailure(attempt);
    await recordRefusal(user, where, true, failure.lockedNow, clientIp);
    return fail(failure.refusal.kind === 'locked_now' ? 'throttled' : 'invalid', secondFactorRefusalMessage(failure.refusal));
  }
  await recordSecondFactorSuccess(attempt);
  return ok({ method, recoveryCodesLeft: (await twoFactorStatus(user.id)).recoveryCodesLeft });
}

async function recordRefusal(user: { id: number; email: string }, where: 'sign_in' | 'account', failed: boolean, lockedNow: ThrottleScope[], clientIp: string) {
  for (const scope of lockedNow) logger('auth').warn({ lockScope: scope, userId: user.id, clientIp }, 'second-factor codes locked after wrong codes');
  await auditSecondFactorRefusal(user, where, { failed, lockedNow });
}

/**
 * Uses up a code if it is right: a TOTP code of a step later than the last one accepted (each
 * code works once: replaying an observed code fails), or an unused recovery code. The updates are
 * conditional, so two requests racing with the same code cannot both succeed.
 */
async function useCode(tx: Transaction, userId: number, code: string): Promise<'totp' | 'recovery_code' | undefined> {
  const [row] = await tx.select().from(consoleTwoFactor).where(and(eq(consoleTwoFactor.userId, userId), isNotNull(consoleTwoFactor.confirmedAt)));
  if (!row) return undefined;
  if (normalizeTotpCode(code)) {
    const secret = openSecret(row.secretCiphertext, userId, twoFactorKey());
    if (!secret) {
      // Another key than the one it was sealed with (TWO_FACTOR_ENCRYPTION_KEY or NEXTAUTH_SECRET changed).
      logger('auth').error({ userId }, 'a two-factor secret could not be decrypted with the configured key');
      return undefined;
    }
    const step = matchingStep(secret, code);
    if (step === undefined) return undefined;
    const accepted = await tx
      .update(consoleTwoFactor)
      .set({ lastUsedStep: step })
      .where(and(eq(consoleTwoFactor.userId, userId), or(isNull(consoleTwoFactor.lastUsedStep), lt(consoleTwoFactor.lastUsedStep, step))))
      .returning({ userId: consoleTwoFactor.userId });
    return accepted.length > 0 ? 'totp' : undefined;
  }
  const unused = await tx
    .select({ id: consoleRecoveryCodes.id, codeHash: consoleRecoveryCodes.codeHash })
    .from(consoleRecoveryCodes)
    .where(and(eq(consoleRecoveryCodes.userId, userId), isNull(consoleRecoveryCodes.usedAt)));
  const match = findRecoveryCode(code, unused);
  if (!match) return undefined;
  const marked = await tx
    .update(consoleRecoveryCodes)
    .set({ usedAt: sql`now()` })
    .where(and(eq(consoleRecoveryCodes.id, match.id), isNull(consoleRecoveryCodes.usedAt)))
    .returning({ id: consoleRecoveryCodes.id });
  return marked.length > 0 ? 'recovery_code' : undefined;
}

async function replaceRecoveryCodes(tx: Executor, userId: number, codes: string[]): Promise<void> {
  await tx.delete(consoleRecoveryCodes).where(eq(consoleRecoveryCodes.userId, userId));
  await tx.insert(consoleRecoveryCodes).values(codes.map((code) => ({ userId, codeHash: hashRecoveryCode(code) })));
}

async function removeTwoFactor(tx: Executor, userId: number): Promise<boolean> {
  await tx.delete(consoleRecoveryCodes).where(eq(consoleRecoveryCodes.userId, userId));
  const removed = await tx.delete(consoleTwoFactor).where(and(eq(consoleTwoFactor.userId, userId), isNotNull(consoleTwoFactor.confirmedAt))).returning({ userId: consoleTwoFactor.userId });
  return removed.length > 0;
}
