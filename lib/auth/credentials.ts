import { setTimeout as sleep } from 'node:timers/promises';
import type { ConsoleUser } from '@/db/schema';
import { env } from '@/lib/env';
import { requestClientIp } from '@/lib/limits/client-ip';
import { logger } from '@/lib/logging/logger';
import { hashPassword, verifyPassword } from '@/lib/security/passwords';
import { findConsoleUserByEmail, MAX_EMAIL_LENGTH, MAX_PASSWORD_LENGTH } from '@/lib/users/service';
import { auditSignInRefusal } from './access-audit';
import { noteAccountUnderAttack } from './attack-notice';
import { knownDeviceOfRequest } from './known-device';
import { signInErrorCode, type SignInRefusal } from './sign-in-errors';
import type { SessionOrigin } from './sessions';
import { beginSignInAttempt, recordSignInFailure, recordSignInSuccess, type ThrottleScope } from './throttle';

/**
 * Thrown to next-auth, which passes the message to the sign-in page as `?error=`: the message is
 * only ever one of our codes (lib/auth/sign-in-errors.ts).
 */
export class SignInRefused extends Error {
  constructor(readonly refusal: SignInRefusal) {
    super(signInErrorCode(refusal));
  }
}

let unknownUserHash: Promise<string> | undefined;

/**
 * Checks an e-mail and password for the console, throttled per IP, per account and IP, and per
 * account or known device (lib/auth/throttle.ts, lib/auth/known-device.ts). Unknown e-mails, deactivated users and wrong passwords all get
 * the same answer after the same work (a password hash), so the form never tells which e-mails
 * exist. Each failure and each lock it causes is written to the audit log (the success is written
 * with the session, lib/auth/sessions.ts). Anything unexpected (the database, say) is logged and
 * refused with a code that says nothing about it.
 */
export async function authenticateConsoleUser(
  email: string,
  password: string,
  headers: Record<string, string | string[] | undefined>,
): Promise<{ user: ConsoleUser; origin: SessionOrigin }> {
  try {
    return await checkCredentials(email, password, headers);
  } catch (error) {
    if (error instanceof SignInRefused) throw error;
    logger('auth').error({ err: error }, 'sign-in check failed');
    throw new SignInRefused({ kind: 'unavailable' });
  }
}

async function checkCredentials(
  email: string,
  password: string,
  headers: Record<string, string | string[] | undefined>,
): Promise<{ user: ConsoleUser; origin: SessionOrigin }> {
  const normalizedEmail = email.trim().toLowerCase();
  // Nothing longer than an account can have reaches the throttle table or the password hash.
  if (!normalizedEmail || !password || normalizedEmail.length > MAX_EMAIL_LENGTH || password.length > MAX_PASSWORD_LENGTH) {
    throw new SignInRefused({ kind: 'invalid_credentials' });
  }
  const ip = requestClientIp((name) => headerValue(headers, name), env());

  const attempt = await beginSignInAttempt(normalizedEmail, ip, knownDeviceOfRequest(headerValue(headers, 'cookie'), normalizedEmail));
  if (!attempt.allowed) {
    // Only a parallel attempt past the limit can lock here; a lock already in place writes nothing.
    if (attempt.lockedNow) await recordRefusal((await findConsoleUserByEmail(normalizedEmail))?.id, false, attempt.lockedNow, ip);
    throw new SignInRefused(attempt.refusal);
  }
  if (attempt.delayMs > 0) await sleep(attempt.delayMs);

  const user = await findConsoleUserByEmail(normalizedEmail);
  unknownUserHash ??= hashPassword('placeholder password for unknown accounts');
  const matches = await verifyPassword(password, user?.passwordHash ?? (await unknownUserHash));
  if (!user || !user.active || !matches) {
    const failure = await recordSignInFailure(attempt);
    await recordRefusal(user?.id, true, failure.lockedNow, ip);
    if (user && attempt.accountFailures !== undefined) await noteAccountUnderAttack(user, attempt.accountFailures);
    throw new SignInRefused(failure.refusal);
  }
  await recordSignInSuccess(attempt);
  return { user, origin: { clientIp: ip, userAgent: headerValue(headers, 'user-agent') ?? '' } };
}

async function recordRefusal(accountId: number | undefined, failed: boolean, lockedNow: ThrottleScope[], ip: string): Promise<void> {
  // The audit log keeps no addresses: the log line says which one a lock applies to (no e-mail).
  for (const scope of lockedNow) logger('auth').warn({ lockScope: scope, userId: accountId ?? null, clientIp: ip }, 'console sign-in locked after failed attempts');
  await auditSignInRefusal(accountId, { failed, lockedNow });
}

function headerValue(headers: Record<string, string | string[] | undefined>, name: string): string | null {
  const value = headers[name] ?? headers[name.toLowerCase()];
  return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
}
