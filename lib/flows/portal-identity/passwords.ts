import { setTimeout as sleep } from 'node:timers/promises';
import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import { db } from '@/db/client';
import { portalPasswordResets, portalUsers } from '@/db/schema';
import { writeAudit, type Actor } from '@/lib/core/audit/audit';
import { ACCESS_AUDIT, auditPasswordChangeRefusal } from '@/lib/flows/auth/access-audit';
import { passwordChangeRefusalMessage, WRONG_CURRENT_PASSWORD } from '@/lib/flows/auth/password-change-errors';
import { beginPasswordChangeAttempt, recordPasswordChangeFailure, recordPasswordChangeSuccess } from '@/lib/flows/auth/throttle';
import { logger } from '@/lib/platform/logging/logger';
import { newPasswordProblem } from '@/lib/flows/passwords/policy';
import { fail, ok, type Result } from '@/lib/platform/result';
import { hashPassword, verifyPassword } from '@/lib/platform/security/passwords';
import { env } from '@/lib/platform/settings/env';
import { MAX_PASSWORD_LENGTH, userEmailSchema } from '@/lib/flows/auth/users';
import { findPortalAccountByEmail, integrationIdentifiers, integratorActor } from './accounts';
import { hashLinkCode, isLinkCode, newLinkCode, PASSWORD_RESET_VALID_MINUTES, portalLink } from './links';
import { printOnTerminal, sendPasswordReset, type LinkPrinter } from './mail';
import type { PortalUserSession } from './sessions';
import { endAllPortalSessions } from './sessions';

// A portal user's password: changed in "Mi cuenta" with the current one (throttled like the
// console's, in the portal's own counts), or reset by a single-use e-mail link valid an hour.
// Either way every session of the user ends, and the new password follows the console's policy.

export const RESET_PATH = '/portal/restablecer/clave';
/** At most one reset e-mail per account in this many minutes: the form cannot be used to flood a mailbox. */
export const RESET_EMAIL_INTERVAL_MINUTES = 5;

export const PASSWORD_MESSAGES = {
  sameAsCurrent: 'La nueva contraseña debe ser distinta de la actual.',
  linkUnusable: 'Este enlace ya no sirve: ya se usó o se pidió otro más reciente. Pida uno nuevo en «¿Olvidó su contraseña?».',
  linkExpired: `Este enlace venció: sirve ${PASSWORD_RESET_VALID_MINUTES} minutos. Pida uno nuevo en «¿Olvidó su contraseña?».`,
} as const;

export type PasswordError = 'invalid' | 'throttled' | 'link';

/** A signed-in user's own change: every session ends, this one too (the user signs in with the new password). */
export async function changePortalPassword(user: PortalUserSession, currentPassword: string, newPassword: string, clientIp: string): Promise<Result<null, PasswordError>> {
  if (newPassword === currentPassword) return fail('invalid', PASSWORD_MESSAGES.sameAsCurrent);
  const problem = await newPasswordProblem(newPassword, { email: user.email, name: user.name, identifiers: await integrationIdentifiers(user.integrationId) });
  if (problem) return fail('invalid', problem);
  if (!currentPassword || currentPassword.length > MAX_PASSWORD_LENGTH) return fail('invalid', WRONG_CURRENT_PASSWORD);

  const attempt = await beginPasswordChangeAttempt(user.id, clientIp, 'portal');
  if (!attempt.allowed) {
    if (attempt.lockedNow) await auditPasswordChangeRefusal(user.actor, { failed: false, lockedNow: attempt.lockedNow }, ACCESS_AUDIT.portal);
    return fail('throttled', passwordChangeRefusalMessage(attempt.refusal));
  }
  if (attempt.delayMs > 0) await sleep(attempt.delayMs);
  const [stored] = await (await db()).select({ passwordHash: portalUsers.passwordHash }).from(portalUsers).where(eq(portalUsers.id, user.id));
  if (!stored || !(await verifyPassword(currentPassword, stored.passwordHash))) {
    const failure = await recordPasswordChangeFailure(attempt);
    for (const scope of failure.lockedNow) logger('auth').warn({ realm: 'portal', lockScope: scope, userId: user.id, clientIp }, 'password changes locked after wrong current passwords');
    await auditPasswordChangeRefusal(user.actor, { failed: true, lockedNow: failure.lockedNow }, ACCESS_AUDIT.portal);
    return fail(failure.refusal.kind === 'invalid_credentials' || failure.refusal.kind === 'attempts_left' ? 'invalid' : 'throttled', passwordChangeRefusalMessage(failure.refusal));
  }
  await recordPasswordChangeSuccess(attempt);
  const passwordHash = await hashPassword(newPassword, env().PASSWORD_HASH_COST);
  await (await db()).transaction(async (tx) => {
    const [updated] = await tx.update(portalUsers).set({ passwordHash, passwordChangedAt: sql`now()`, updatedAt: sql`now()` }).where(eq(portalUsers.id, user.id)).returning();
    const sessions = await endAllPortalSessions(tx, user.id);
    await writeAudit(tx, user.actor, { action: 'portal_user.change_password', targetType: 'portal_user', targetId: user.id, before: { sessions }, after: { passwordChangedAt: updated!.passwordChangedAt, sessions: 0 } });
  });
  return ok(null);
}

/**
 * "¿Olvidaste tu contraseña?": when the address is a member's, a link is e-mailed (at most one
 * every few minutes per account). The form's action answers before calling this (after() in
 * app/portal/restablecer/actions.ts), with the same words for any address, so neither the words
 * nor the time tell which addresses exist. Resolves once the link is sent (or nothing was).
 */
export async function requestPortalPasswordReset(email: unknown, delivery: { printer?: LinkPrinter } = {}): Promise<void> {
  const parsed = userEmailSchema.safeParse(email);
  if (!parsed.success) return;
  const account = await findPortalAccountByEmail(parsed.data);
  if (!account) return;
  const code = newLinkCode();
  const reset = await (await db()).transaction(async (tx) => {
    // The account's row locked first: two requests at once (a double click, a script) take turns,
    // and the second sees the first's link, so the cap holds under concurrency too.
    const [user] = await tx.select({ id: portalUsers.id }).from(portalUsers).where(and(eq(portalUsers.id, account.id), isNull(portalUsers.removedAt))).for('update');
    if (!user) return undefined;
    const [recent] = await tx
      .select({ id: portalPasswordResets.id })
      .from(portalPasswordResets)
      .where(and(eq(portalPasswordResets.userId, account.id), gt(portalPasswordResets.createdAt, sql`now() - make_interval(mins => ${RESET_EMAIL_INTERVAL_MINUTES})`)))
      .orderBy(desc(portalPasswordResets.createdAt))
      .limit(1);
    if (recent) return undefined;
    const [row] = await tx
      .insert(portalPasswordResets)
      .values({ userId: account.id, codeHash: hashLinkCode(code), expiresAt: sql`now() + make_interval(mins => ${PASSWORD_RESET_VALID_MINUTES})` })
      .returning();
    await writeAudit(tx, { kind: 'anonymous' }, { action: 'portal_user.request_password_reset', targetType: 'portal_user', targetId: account.id, before: null, after: null });
    return row!;
  });
  if (!reset) return;
  const sent = await sendPasswordReset({ to: account.email, link: portalLink(RESET_PATH, code), expiresAt: reset.expiresAt }, delivery.printer ?? printOnTerminal);
  if (!sent.ok) {
    logger('portal').warn(
      { userId: account.id, reason: sent.reason },
      'a portal password reset link could not be sent (configure ALERT_SMTP_*, or hand one over with the CLI: portal:reset-password --motivo)',
    );
  }
}

export const RESET_HAND_OVER_MESSAGES = {
  reason: 'Falta el motivo para entregar el enlace sin correo (quién lo pidió y por qué): queda en la auditoría.',
  noAccount: 'No hay una cuenta del portal con ese correo.',
} as const;

/**
 * A reset link for an operator to hand over without e-mail (the CLI prints it once), in production
 * too: the audit keeps who, when and why, never the link. No per-account cap: the cap keeps the
 * public form from flooding a mailbox, and nothing is mailed here.
 */
export async function handOverPortalPasswordReset(
  actor: Actor,
  email: string,
  reason: string,
): Promise<Result<{ userId: number; email: string; integrationName: string; link: string; expiresAt: Date }, 'invalid' | 'not_found'>> {
  if (reason.trim() === '') return fail('invalid', RESET_HAND_OVER_MESSAGES.reason);
  const account = await findPortalAccountByEmail(email);
  if (!account) return fail('not_found', RESET_HAND_OVER_MESSAGES.noAccount);
  const code = newLinkCode();
  const reset = await (await db()).transaction(async (tx) => {
    const [row] = await tx
      .insert(portalPasswordResets)
      .values({ userId: account.id, codeHash: hashLinkCode(code), expiresAt: sql`now() + make_interval(mins => ${PASSWORD_RESET_VALID_MINUTES})` })
      .returning();
    await writeAudit(tx, actor, {
      action: 'portal_user.reset_link_handed_over',
      targetType: 'portal_user',
      targetId: account.id,
      before: null,
      after: { email: account.email, expiresAt: row!.expiresAt, reason: reason.trim() },
    });
    return row!;
  });
  return ok({ userId: account.id, email: account.email, integrationName: account.integrationName, link: portalLink(RESET_PATH, code), expiresAt: reset.expiresAt });
}

export type ResetLinkState = { state: 'valid'; email: string } | { state: 'expired' } | { state: 'unusable' };

/** Reads a reset link without using it. */
export async function passwordResetForCode(code: unknown): Promise<ResetLinkState> {
  if (!isLinkCode(code)) return { state: 'unusable' };
  const [row] = await (await db())
    .select({ usedAt: portalPasswordResets.usedAt, expired: sql<boolean>`${portalPasswordResets.expiresAt} <= now()`, email: portalUsers.email, removedAt: portalUsers.removedAt })
    .from(portalPasswordResets)
    .innerJoin(portalUsers, eq(portalUsers.id, portalPasswordResets.userId))
    .where(eq(portalPasswordResets.codeHash, hashLinkCode(code)));
  if (!row || row.usedAt || row.removedAt) return { state: 'unusable' };
  if (row.expired) return { state: 'expired' };
  return { state: 'valid', email: row.email };
}

/**
 * A new password through a reset link: the link is used up (and any other of the account's), the
 * password replaced and every session of the user ended, in one transaction. The person then signs
 * in with it (and with the second factor, which a reset does not touch).
 */
export async function completePortalPasswordReset(code: unknown, newPassword: string): Promise<Result<null, PasswordError>> {
  const link = await passwordResetForCode(code);
  if (link.state !== 'valid') return fail('link', link.state === 'expired' ? PASSWORD_MESSAGES.linkExpired : PASSWORD_MESSAGES.linkUnusable);
  const account = await findPortalAccountByEmail(link.email);
  if (!account) return fail('link', PASSWORD_MESSAGES.linkUnusable);
  const problem = await newPasswordProblem(newPassword, { email: account.email, name: account.name, identifiers: await integrationIdentifiers(account.integrationId) });
  if (problem) return fail('invalid', problem);
  const passwordHash = await hashPassword(newPassword, env().PASSWORD_HASH_COST);
  return (await db()).transaction(async (tx) => {
    const [used] = await tx
      .update(portalPasswordResets)
      .set({ usedAt: sql`now()` })
      .where(and(eq(portalPasswordResets.codeHash, hashLinkCode(code as string)), eq(portalPasswordResets.userId, account.id), isNull(portalPasswordResets.usedAt), gt(portalPasswordResets.expiresAt, sql`now()`)))
      .returning();
    if (!used) return fail('link', PASSWORD_MESSAGES.linkUnusable);
    await tx.update(portalPasswordResets).set({ usedAt: sql`now()` }).where(and(eq(portalPasswordResets.userId, account.id), isNull(portalPasswordResets.usedAt)));
    const [updated] = await tx.update(portalUsers).set({ passwordHash, passwordChangedAt: sql`now()`, updatedAt: sql`now()` }).where(and(eq(portalUsers.id, account.id), isNull(portalUsers.removedAt))).returning();
    const sessions = await endAllPortalSessions(tx, account.id);
    await writeAudit(tx, integratorActor(account), {
      action: 'portal_user.reset_password',
      targetType: 'portal_user',
      targetId: account.id,
      before: { sessions },
      after: { passwordChangedAt: updated!.passwordChangedAt, sessions: 0 },
    });
    return ok(null);
  });
}

