import { db } from '@/db/client';
import { NO_ACCOUNT, writeAudit, type Actor, type Executor } from '@/lib/audit/audit';
import { SIGN_IN_LOCK_MINUTES } from './sign-in-errors';
import type { ThrottleScope } from './throttle';

// Sign-ins, failed sign-ins, password-change failures and the locks they lead to, in the audit
// log beside the changes. Rows name the account (its id) and never an e-mail nobody has, a
// password, or anything typed: an unknown e-mail is recorded as NO_ACCOUNT. The audit log keeps
// no addresses; which address a lock applies to is in the application log's client IP fields.

export const ACCESS_AUDIT_ACTIONS = {
  signIn: 'user.sign_in',
  signInFailed: 'user.sign_in_failed',
  signInLocked: 'user.sign_in_locked',
  passwordChangeFailed: 'user.change_password_failed',
  passwordChangeLocked: 'user.change_password_locked',
  /** The second factor (a TOTP or recovery code) after the password: the session opens. */
  signInSecondFactor: 'user.sign_in_second_factor',
  /** A wrong second-factor code typed in "Mi cuenta" (to regenerate recovery codes, to turn it off). */
  secondFactorFailed: 'user.second_factor_failed',
  secondFactorLocked: 'user.second_factor_locked',
} as const;

/** Audit actions that record an event rather than a change: they have no before and after. */
export const ACCESS_EVENT_ACTIONS: ReadonlySet<string> = new Set(Object.values(ACCESS_AUDIT_ACTIONS));

const ANONYMOUS: Actor = { kind: 'anonymous' };

/** A successful sign-in; written in the transaction that records the new session. */
export async function auditSignIn(executor: Executor, user: { id: number; email: string }): Promise<void> {
  await writeAudit(executor, { kind: 'user', id: user.id, email: user.email }, {
    action: ACCESS_AUDIT_ACTIONS.signIn,
    targetType: 'console_user',
    targetId: user.id,
    before: null,
    after: null,
  });
}

/**
 * A sign-in that checked a password and failed (wrong password, unknown e-mail, deactivated
 * account: `failed`), and the locks it caused, if any. A refusal by a lock that was already in
 * place checks no password and writes nothing: a flood against a lock adds no rows.
 */
export async function auditSignInRefusal(accountId: number | undefined, outcome: { failed: boolean; lockedNow: ThrottleScope[] }): Promise<void> {
  if (!outcome.failed && outcome.lockedNow.length === 0) return;
  const targetId = accountId ?? NO_ACCOUNT;
  await (await db()).transaction(async (tx) => {
    if (outcome.failed) {
      await writeAudit(tx, ANONYMOUS, { action: ACCESS_AUDIT_ACTIONS.signInFailed, targetType: 'console_user', targetId, before: null, after: null });
    }
    for (const scope of outcome.lockedNow) {
      await writeAudit(tx, ANONYMOUS, {
        action: ACCESS_AUDIT_ACTIONS.signInLocked,
        targetType: 'console_user',
        targetId,
        before: null,
        after: { lockScope: scope, lockMinutes: SIGN_IN_LOCK_MINUTES },
      });
    }
  });
}

/**
 * A wrong second-factor code and the locks it caused. At sign-in it is a failed sign-in (the
 * password was right, the session stays closed); in "Mi cuenta" it is its own event.
 */
export async function auditSecondFactorRefusal(
  user: { id: number; email: string },
  where: 'sign_in' | 'account',
  outcome: { failed: boolean; lockedNow: ThrottleScope[] },
): Promise<void> {
  if (!outcome.failed && outcome.lockedNow.length === 0) return;
  const actor: Actor = where === 'sign_in' ? ANONYMOUS : { kind: 'user', id: user.id, email: user.email };
  await (await db()).transaction(async (tx) => {
    if (outcome.failed) {
      await writeAudit(tx, actor, {
        action: where === 'sign_in' ? ACCESS_AUDIT_ACTIONS.signInFailed : ACCESS_AUDIT_ACTIONS.secondFactorFailed,
        targetType: 'console_user',
        targetId: user.id,
        before: null,
        after: where === 'sign_in' ? { step: 'second_factor' } : null,
      });
    }
    for (const scope of outcome.lockedNow) {
      await writeAudit(tx, actor, {
        action: where === 'sign_in' ? ACCESS_AUDIT_ACTIONS.signInLocked : ACCESS_AUDIT_ACTIONS.secondFactorLocked,
        targetType: 'console_user',
        targetId: user.id,
        before: null,
        after: { lockScope: scope, lockMinutes: SIGN_IN_LOCK_MINUTES },
      });
    }
  });
}

/** A wrong current password on "Cambiar contraseña" (`failed`), and the locks it caused. */
export async function auditPasswordChangeRefusal(actor: Extract<Actor, { kind: 'user' }>, outcome: { failed: boolean; lockedNow: ThrottleScope[] }): Promise<void> {
  if (!outcome.failed && outcome.lockedNow.length === 0) return;
  await (await db()).transaction(async (tx) => {
    if (outcome.failed) {
      await writeAudit(tx, actor, { action: ACCESS_AUDIT_ACTIONS.passwordChangeFailed, targetType: 'console_user', targetId: actor.id, before: null, after: null });
    }
    for (const scope of outcome.lockedNow) {
      await writeAudit(tx, actor, {
        action: ACCESS_AUDIT_ACTIONS.passwordChangeLocked,
        targetType: 'console_user',
        targetId: actor.id,
        before: null,
        after: { lockScope: scope, lockMinutes: SIGN_IN_LOCK_MINUTES },
      });
    }
  });
}
