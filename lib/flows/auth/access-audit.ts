import { db } from '@/db/client';
import { NO_ACCOUNT, writeAudit, type Actor, type Executor, type PersonActor } from '@/lib/core/audit/audit';
import { SIGN_IN_LOCK_MINUTES } from './sign-in-errors';
import type { ThrottleScope } from './throttle';

// Sign-ins, failed sign-ins, password-change failures and the locks they lead to, in the audit
// log beside the changes. Rows name the account (its id) and never an e-mail nobody has, a
// password, or anything typed: an unknown e-mail is recorded as NO_ACCOUNT. The audit log keeps
// no addresses; which address a lock applies to is in the application log's client IP fields.
// The console's accounts are `console_user` rows with `user.*` actions; the portal's are
// `portal_user` rows with `portal_user.*` actions (ACCESS_AUDIT.portal).

function accessActions<Prefix extends string>(prefix: Prefix) {
  return {
    signIn: `${prefix}.sign_in`,
    /** A sign-in through the operator's identity provider (docs/sso.md). */
    signInIdentityProvider: `${prefix}.sign_in_identity_provider`,
    signInFailed: `${prefix}.sign_in_failed`,
    signInLocked: `${prefix}.sign_in_locked`,
    passwordChangeFailed: `${prefix}.change_password_failed`,
    passwordChangeLocked: `${prefix}.change_password_locked`,
    /** The second factor (a TOTP or recovery code) after the password: the session opens. */
    signInSecondFactor: `${prefix}.sign_in_second_factor`,
    /** A wrong second-factor code typed in "Mi cuenta" (to regenerate recovery codes, to turn it off). */
    secondFactorFailed: `${prefix}.second_factor_failed`,
    secondFactorLocked: `${prefix}.second_factor_locked`,
  } as const;
}

export const ACCESS_AUDIT_ACTIONS = accessActions('user');

/** Whose accounts an access row is about: the audit's target type, and the prefix of every action (`user.sign_in`). */
export interface AccessAuditSubject {
  targetType: 'console_user' | 'portal_user';
  actionPrefix: 'user' | 'portal_user';
  actions: ReturnType<typeof accessActions>;
}

export const ACCESS_AUDIT = {
  console: { targetType: 'console_user', actionPrefix: 'user', actions: ACCESS_AUDIT_ACTIONS },
  portal: { targetType: 'portal_user', actionPrefix: 'portal_user', actions: accessActions('portal_user') },
} as const satisfies Record<string, AccessAuditSubject>;

/** Audit actions that record an event rather than a change: they have no before and after. */
export const ACCESS_EVENT_ACTIONS: ReadonlySet<string> = new Set([...Object.values(ACCESS_AUDIT.console.actions), ...Object.values(ACCESS_AUDIT.portal.actions)]);

const ANONYMOUS: Actor = { kind: 'anonymous' };

/** A successful sign-in; written in the transaction that records the new session. */
export async function auditSignIn(
  executor: Executor,
  user: { id: number; email: string },
  subject: AccessAuditSubject = ACCESS_AUDIT.console,
  actor?: PersonActor,
  action: string = subject.actions.signIn,
): Promise<void> {
  await writeAudit(executor, actor ?? { kind: 'user', id: user.id, email: user.email }, {
    action,
    targetType: subject.targetType,
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
export async function auditSignInRefusal(
  accountId: number | undefined,
  outcome: { failed: boolean; lockedNow: ThrottleScope[] },
  subject: AccessAuditSubject = ACCESS_AUDIT.console,
): Promise<void> {
  if (!outcome.failed && outcome.lockedNow.length === 0) return;
  const targetId = accountId ?? NO_ACCOUNT;
  await (await db()).transaction(async (tx) => {
    if (outcome.failed) {
      await writeAudit(tx, ANONYMOUS, { action: subject.actions.signInFailed, targetType: subject.targetType, targetId, before: null, after: null });
    }
    for (const scope of outcome.lockedNow) {
      await writeAudit(tx, ANONYMOUS, {
        action: subject.actions.signInLocked,
        targetType: subject.targetType,
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
  user: PersonActor,
  where: 'sign_in' | 'account',
  outcome: { failed: boolean; lockedNow: ThrottleScope[] },
  subject: AccessAuditSubject = ACCESS_AUDIT.console,
): Promise<void> {
  if (!outcome.failed && outcome.lockedNow.length === 0) return;
  const actor: Actor = where === 'sign_in' ? ANONYMOUS : user;
  await (await db()).transaction(async (tx) => {
    if (outcome.failed) {
      await writeAudit(tx, actor, {
        action: where === 'sign_in' ? subject.actions.signInFailed : subject.actions.secondFactorFailed,
        targetType: subject.targetType,
        targetId: user.id,
        before: null,
        after: where === 'sign_in' ? { step: 'second_factor' } : null,
      });
    }
    for (const scope of outcome.lockedNow) {
      await writeAudit(tx, actor, {
        action: where === 'sign_in' ? subject.actions.signInLocked : subject.actions.secondFactorLocked,
        targetType: subject.targetType,
        targetId: user.id,
        before: null,
        after: { lockScope: scope, lockMinutes: SIGN_IN_LOCK_MINUTES },
      });
    }
  });
}

/** A wrong current password on "Cambiar contraseña" (`failed`), and the locks it caused. */
export async function auditPasswordChangeRefusal(
  actor: PersonActor,
  outcome: { failed: boolean; lockedNow: ThrottleScope[] },
  subject: AccessAuditSubject = ACCESS_AUDIT.console,
): Promise<void> {
  if (!outcome.failed && outcome.lockedNow.length === 0) return;
  await (await db()).transaction(async (tx) => {
    if (outcome.failed) {
      await writeAudit(tx, actor, { action: subject.actions.passwordChangeFailed, targetType: subject.targetType, targetId: actor.id, before: null, after: null });
    }
    for (const scope of outcome.lockedNow) {
      await writeAudit(tx, actor, {
        action: subject.actions.passwordChangeLocked,
        targetType: subject.targetType,
        targetId: actor.id,
        before: null,
        after: { lockScope: scope, lockMinutes: SIGN_IN_LOCK_MINUTES },
      });
    }
  });
}
