import { setTimeout as sleep } from 'node:timers/promises';
import { and, eq, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import { db } from '@/db/client';
import { consoleRecoveryCodes, consoleTwoFactor, type ConsoleRole } from '@/db/schema';
import { ACCESS_AUDIT, auditSecondFactorRefusal, type AccessAuditSubject } from '@/lib/flows/auth/access-audit';
import type { AuthRealm } from '@/lib/flows/auth/realm';
import { consoleSessionStore } from '@/lib/flows/auth/sessions';
import { writeAudit, type Actor, type Executor, type PersonActor } from '@/lib/core/audit/audit';
import { beginSecondFactorAttempt, recordSecondFactorFailure, recordSecondFactorSuccess, type ThrottleScope } from '@/lib/flows/auth/throttle';
import { logger } from '@/lib/platform/logging/logger';
import { fail, ok, type Result } from '@/lib/platform/result';
import { enrolmentQrSvg } from './enrolment-qr';
import { secondFactorRefusalMessage, TWO_FACTOR_MESSAGES } from './messages';
import { twoFactorRequired } from '@/lib/flows/auth/two-factor-policy';
import { findRecoveryCode, hashRecoveryCode, newRecoveryCodes } from './recovery-codes';
import { openSecret, sealSecret, twoFactorKey } from './secret-box';
import { enrolmentUri, matchingStep, newTotpSecret, normalizeTotpCode, TOTP_ISSUER } from './totp';

// Two-factor sign-in, in the database: enrolment, the check of a code (TOTP or recovery) after the
// password, recovery codes, turning it off and an administrator's reset. Every change is audited;
// secrets and codes never reach a log line or the audit log. One implementation for the console's
// users and the portal's (twoFactorService(realm)): the realm names its tables, its sessions, its
// audit rows and who must have it; the console's functions are exported below as they always were.

export type TwoFactorError = 'invalid' | 'throttled' | 'state';

export interface TwoFactorStatus {
  enrolled: boolean;
  recoveryCodesLeft: number;
}

export interface Enrolment {
  /** Base32, for typing into the app by hand; shown to the user only. */
  secret: string;
  qrSvg: string;
}

type Transaction = Parameters<Parameters<Awaited<ReturnType<typeof db>>['transaction']>[0]>[0];

/** Someone with an account: who they are (`id`, `email`) and how the audit names them. */
export interface TwoFactorSubject {
  id: number;
  email: string;
}

/**
 * Where a realm keeps two-factor sign-in. The portal's tables have exactly the console's columns
 * (db/schema/portal-two-factor.ts), so they are typed as the console's: the queries below name
 * only those columns, and drizzle writes each table's own name.
 */
export interface TwoFactorRealm<Subject extends TwoFactorSubject, Role extends string> {
  realm: AuthRealm;
  tables: { twoFactor: typeof consoleTwoFactor; recoveryCodes: typeof consoleRecoveryCodes };
  audit: AccessAuditSubject;
  /** The issuer the authenticator app shows above the codes. */
  issuer: string;
  actorOf(subject: Subject): PersonActor;
  /** The kind of actor the realm's own users are (one cannot reset one's own second factor). */
  actorKind: PersonActor['kind'];
  /** Whether this role may not go without it (then it cannot be turned off). */
  requiredFor(role: Role): boolean;
  requiredCannotDisableMessage: string;
  /** The session a completed second factor continues in (a new one, verified); undefined if it had ended. */
  reissueVerifiedSession(tx: Executor, userId: number, sessionPublicId: string): Promise<string | undefined>;
  /** Ends every session of a user (a reset); how many. */
  endAllSessions(tx: Executor, userId: number): Promise<number>;
}

export function twoFactorService<Subject extends TwoFactorSubject, Role extends string>(realm: TwoFactorRealm<Subject, Role>) {
  const { twoFactor, recoveryCodes } = realm.tables;
  const owner = realm.audit.targetType;
  const action = (name: string) => `${realm.audit.actionPrefix}.${name}`;

  async function twoFactorStatus(userId: number): Promise<TwoFactorStatus> {
    const database = await db();
    const [row] = await database.select({ confirmedAt: twoFactor.confirmedAt }).from(twoFactor).where(eq(twoFactor.userId, userId));
    if (!row?.confirmedAt) return { enrolled: false, recoveryCodesLeft: 0 };
    const [count] = await database
      .select({ left: sql<number>`count(*)::int` })
      .from(recoveryCodes)
      .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
    return { enrolled: true, recoveryCodesLeft: Number(count?.left ?? 0) };
  }

  /** The users who have two-factor sign-in ("Usuarios" shows it and offers the reset). */
  async function usersWithTwoFactor(): Promise<Set<number>> {
    const rows = await (await db()).select({ userId: twoFactor.userId }).from(twoFactor).where(isNotNull(twoFactor.confirmedAt));
    return new Set(rows.map((row) => row.userId));
  }

  /**
   * Starts (or starts over) an enrolment: a new secret, kept encrypted until the user confirms it
   * with a code. Refused when two-factor sign-in is already on: it is never replaced silently.
   */
  async function startEnrolment(user: TwoFactorSubject): Promise<Result<Enrolment, TwoFactorError>> {
    const secret = newTotpSecret();
    const sealed = sealSecret(secret, user.id, twoFactorKey(), owner);
    const stored = await (await db())
      .insert(twoFactor)
      .values({ userId: user.id, secretCiphertext: sealed })
      .onConflictDoUpdate({
        target: twoFactor.userId,
        set: { secretCiphertext: sealed, lastUsedStep: null, createdAt: sql`now()` },
        setWhere: isNull(twoFactor.confirmedAt),
      })
      .returning({ userId: twoFactor.userId });
    if (stored.length === 0) return fail('state', TWO_FACTOR_MESSAGES.alreadyEnrolled);
    return ok({ secret, qrSvg: await enrolmentQrSvg(enrolmentUri(secret, user.email, realm.issuer)) });
  }

  /**
   * Confirms an enrolment with a code the app shows now: two-factor sign-in is on from here, this
   * session counts as verified, and ten recovery codes are returned, to be shown once.
   */
  async function confirmEnrolment(subject: Subject, sessionPublicId: string, code: string): Promise<Result<{ recoveryCodes: string[]; sessionId: string | undefined }, TwoFactorError>> {
    const actor = realm.actorOf(subject);
    const database = await db();
    const [row] = await database.select().from(twoFactor).where(and(eq(twoFactor.userId, actor.id), isNull(twoFactor.confirmedAt)));
    if (!row) return fail('state', TWO_FACTOR_MESSAGES.noEnrolmentInProgress);
    const secret = openSecret(row.secretCiphertext, actor.id, twoFactorKey(), owner);
    if (!secret) return fail('state', TWO_FACTOR_MESSAGES.noEnrolmentInProgress);
    const step = matchingStep(secret, code);
    if (step === undefined) return fail('invalid', normalizeTotpCode(code) ? TWO_FACTOR_MESSAGES.wrongEnrolmentCode : TWO_FACTOR_MESSAGES.codeFormat);
    const codes = newRecoveryCodes();
    let sessionId: string | undefined;
    const confirmed = await database.transaction(async (tx) => {
      const updated = await tx
        .update(twoFactor)
        .set({ confirmedAt: sql`now()`, lastUsedStep: step })
        .where(and(eq(twoFactor.userId, actor.id), isNull(twoFactor.confirmedAt), eq(twoFactor.secretCiphertext, row.secretCiphertext)))
        .returning({ userId: twoFactor.userId });
      if (updated.length === 0) return false;
      await replaceRecoveryCodes(tx, actor.id, codes);
      sessionId = await realm.reissueVerifiedSession(tx, actor.id, sessionPublicId);
      await writeAudit(tx, actor, { action: action('enable_two_factor'), targetType: owner, targetId: actor.id, before: { twoFactor: false }, after: { twoFactor: true } });
      return true;
    });
    return confirmed ? ok({ recoveryCodes: codes, sessionId }) : fail('state', TWO_FACTOR_MESSAGES.noEnrolmentInProgress);
  }

  /**
   * The second step of a sign-in: a TOTP code (not one already used) or an unused recovery code,
   * throttled like passwords. A right one opens this session; a wrong one is a failed sign-in.
   */
  async function verifySignInSecondFactor(
    subject: Subject,
    sessionPublicId: string,
    code: string,
    clientIp: string,
  ): Promise<Result<{ method: 'totp' | 'recovery_code'; recoveryCodesLeft: number; sessionId: string | undefined }, TwoFactorError>> {
    const actor = realm.actorOf(subject);
    let sessionId: string | undefined;
    const checked = await throttledCheck(actor, 'sign_in', code, clientIp, async (tx, method) => {
      sessionId = await realm.reissueVerifiedSession(tx, actor.id, sessionPublicId);
      await writeAudit(tx, actor, { action: realm.audit.actions.signInSecondFactor, targetType: owner, targetId: actor.id, before: null, after: { method } });
    });
    return checked.ok ? ok({ ...checked.value, sessionId }) : checked;
  }

  /** New recovery codes (the old ones stop working), confirmed with a current code. */
  async function regenerateRecoveryCodes(subject: Subject, code: string, clientIp: string): Promise<Result<{ recoveryCodes: string[] }, TwoFactorError>> {
    const actor = realm.actorOf(subject);
    const codes = newRecoveryCodes();
    const checked = await throttledCheck(actor, 'account', code, clientIp, async (tx) => {
      await replaceRecoveryCodes(tx, actor.id, codes);
      await writeAudit(tx, actor, { action: action('regenerate_recovery_codes'), targetType: owner, targetId: actor.id, before: null, after: { recoveryCodes: codes.length } });
    });
    return checked.ok ? ok({ recoveryCodes: codes }) : checked;
  }

  /** A user turns their own two-factor sign-in off, confirming with a code; never when it is required of them. */
  async function disableOwnTwoFactor(subject: Subject, role: Role, code: string, clientIp: string): Promise<Result<null, TwoFactorError>> {
    if (realm.requiredFor(role)) return fail('state', realm.requiredCannotDisableMessage);
    const actor = realm.actorOf(subject);
    const checked = await throttledCheck(actor, 'account', code, clientIp, async (tx) => {
      await removeTwoFactor(tx, actor.id);
      await writeAudit(tx, actor, { action: action('disable_two_factor'), targetType: owner, targetId: actor.id, before: { twoFactor: true }, after: { twoFactor: false } });
    });
    return checked.ok ? ok(null) : checked;
  }

  /**
   * Someone else resets a user's second factor (a lost phone): it is removed, every session of that
   * user ends, and at their next sign-in they enrol again (if it is required of them) or go without
   * it. Audited with how many sessions ended.
   */
  async function resetTwoFactor(actor: Actor, userId: number): Promise<Result<{ sessionsEnded: number }, TwoFactorError>> {
    if (actor.kind === realm.actorKind && actor.id === userId) return fail('state', TWO_FACTOR_MESSAGES.resetSelf);
    return (await db()).transaction(async (tx) => {
      const removed = await removeTwoFactor(tx, userId);
      if (!removed) return fail('state', TWO_FACTOR_MESSAGES.notEnrolled);
      const ended = await realm.endAllSessions(tx, userId);
      await writeAudit(tx, actor, {
        action: action('reset_two_factor'),
        targetType: owner,
        targetId: userId,
        before: { twoFactor: true, sessions: ended },
        after: { twoFactor: false, sessions: 0 },
      });
      return ok({ sessionsEnded: ended });
    });
  }

  /**
   * Checks a code under the second-factor throttle and, when it is right, uses it up and runs
   * `onSuccess` in the same transaction (a recovery code marked used, or the TOTP step recorded,
   * only with what it was used for). Wrong codes are audited, and the locks they cause logged.
   */
  async function throttledCheck(
    actor: PersonActor,
    where: 'sign_in' | 'account',
    code: string,
    clientIp: string,
    onSuccess: (tx: Transaction, method: 'totp' | 'recovery_code') => Promise<void>,
  ): Promise<Result<{ method: 'totp' | 'recovery_code'; recoveryCodesLeft: number }, TwoFactorError>> {
    if (!code.trim() || code.length > 64) return fail('invalid', TWO_FACTOR_MESSAGES.codeFormat);
    const attempt = await beginSecondFactorAttempt(actor.id, clientIp, realm.realm);
    if (!attempt.allowed) {
      if (attempt.lockedNow) await recordRefusal(actor, where, false, attempt.lockedNow, clientIp);
      return fail('throttled', secondFactorRefusalMessage(attempt.refusal));
    }
    if (attempt.delayMs > 0) await sleep(attempt.delayMs);
    const method = await (await db()).transaction(async (tx) => {
      const used = await useCode(tx, actor.id, code);
      if (used) await onSuccess(tx, used);
      return used;
    });
    if (!method) {
      const failure = await recordSecondFactorFailure(attempt);
      await recordRefusal(actor, where, true, failure.lockedNow, clientIp);
      return fail(failure.refusal.kind === 'locked_now' ? 'throttled' : 'invalid', secondFactorRefusalMessage(failure.refusal));
    }
    await recordSecondFactorSuccess(attempt);
    return ok({ method, recoveryCodesLeft: (await twoFactorStatus(actor.id)).recoveryCodesLeft });
  }

  async function recordRefusal(actor: PersonActor, where: 'sign_in' | 'account', failed: boolean, lockedNow: ThrottleScope[], clientIp: string) {
    for (const scope of lockedNow) logger('auth').warn({ realm: realm.realm, lockScope: scope, userId: actor.id, clientIp }, 'second-factor codes locked after wrong codes');
    await auditSecondFactorRefusal(actor, where, { failed, lockedNow }, realm.audit);
  }

  /**
   * Uses up a code if it is right: a TOTP code of a step later than the last one accepted (each
   * code works once: replaying an observed code fails), or an unused recovery code. The updates are
   * conditional, so two requests racing with the same code cannot both succeed.
   */
  async function useCode(tx: Transaction, userId: number, code: string): Promise<'totp' | 'recovery_code' | undefined> {
    const [row] = await tx.select().from(twoFactor).where(and(eq(twoFactor.userId, userId), isNotNull(twoFactor.confirmedAt)));
    if (!row) return undefined;
    if (normalizeTotpCode(code)) {
      const secret = openSecret(row.secretCiphertext, userId, twoFactorKey(), owner);
      if (!secret) {
        // Another key than the one it was sealed with (TWO_FACTOR_ENCRYPTION_KEY or NEXTAUTH_SECRET changed).
        logger('auth').error({ realm: realm.realm, userId }, 'a two-factor secret could not be decrypted with the configured key');
        return undefined;
      }
      const step = matchingStep(secret, code);
      if (step === undefined) return undefined;
      const accepted = await tx
        .update(twoFactor)
        .set({ lastUsedStep: step })
        .where(and(eq(twoFactor.userId, userId), or(isNull(twoFactor.lastUsedStep), lt(twoFactor.lastUsedStep, step))))
        .returning({ userId: twoFactor.userId });
      return accepted.length > 0 ? 'totp' : undefined;
    }
    const unused = await tx
      .select({ id: recoveryCodes.id, codeHash: recoveryCodes.codeHash })
      .from(recoveryCodes)
      .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
    const match = findRecoveryCode(code, unused);
    if (!match) return undefined;
    const marked = await tx
      .update(recoveryCodes)
      .set({ usedAt: sql`now()` })
      .where(and(eq(recoveryCodes.id, match.id), isNull(recoveryCodes.usedAt)))
      .returning({ id: recoveryCodes.id });
    return marked.length > 0 ? 'recovery_code' : undefined;
  }

  async function replaceRecoveryCodes(tx: Executor, userId: number, codes: string[]): Promise<void> {
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
    await tx.insert(recoveryCodes).values(codes.map((code) => ({ userId, codeHash: hashRecoveryCode(code) })));
  }

  async function removeTwoFactor(tx: Executor, userId: number): Promise<boolean> {
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
    const removed = await tx.delete(twoFactor).where(and(eq(twoFactor.userId, userId), isNotNull(twoFactor.confirmedAt))).returning({ userId: twoFactor.userId });
    return removed.length > 0;
  }

  return { twoFactorStatus, usersWithTwoFactor, startEnrolment, confirmEnrolment, verifySignInSecondFactor, regenerateRecoveryCodes, disableOwnTwoFactor, resetTwoFactor };
}

/** A console user as the console's callers name them: the session's user, or its audit actor. */
type ConsoleSubject = TwoFactorSubject & { kind?: 'user' };

const consoleTwoFactorService = twoFactorService<ConsoleSubject, ConsoleRole>({
  realm: 'console',
  tables: { twoFactor: consoleTwoFactor, recoveryCodes: consoleRecoveryCodes },
  audit: ACCESS_AUDIT.console,
  issuer: TOTP_ISSUER,
  actorOf: (user) => ({ kind: 'user', id: user.id, email: user.email }),
  actorKind: 'user',
  requiredFor: () => twoFactorRequired(),
  requiredCannotDisableMessage: TWO_FACTOR_MESSAGES.requiredCannotDisable,
  reissueVerifiedSession: consoleSessionStore.reissueVerifiedSession,
  endAllSessions: consoleSessionStore.endAllSessionsIn,
});

export const {
  twoFactorStatus,
  usersWithTwoFactor,
  startEnrolment,
  confirmEnrolment,
  verifySignInSecondFactor,
  regenerateRecoveryCodes,
  disableOwnTwoFactor,
  resetTwoFactor,
} = consoleTwoFactorService;
