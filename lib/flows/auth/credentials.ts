import { setTimeout as sleep } from 'node:timers/promises';
import type { ConsoleUser } from '@/db/schema';
import { env } from '@/lib/platform/settings/env';
import { requestClientIp } from '@/lib/core/limits/client-ip';
import { logger } from '@/lib/platform/logging/logger';
import { hashPassword, verifyPassword } from '@/lib/platform/security/passwords';
import { findConsoleUserByEmail, MAX_EMAIL_LENGTH, MAX_PASSWORD_LENGTH } from '@/lib/flows/auth/users';
import { ACCESS_AUDIT, auditSignInRefusal, type AccessAuditSubject } from './access-audit';
import { signInFailedForAccount } from './events';
import { consoleSsoSettings } from './sso-settings';
import { knownDeviceOfRequest } from './known-device';
import type { AuthRealm } from './realm';
import { signInErrorCode, type SignInRefusal } from './sign-in-errors';
import type { SessionOrigin } from './sessions';
import { beginSignInAttempt, recordSignInFailure, recordSignInSuccess, type ThrottleScope } from './throttle';

/**
 * Thrown to next-auth, which passes the message to the sign-in page as `?error=`: the message is
 * only ever one of our codes (lib/flows/auth/sign-in-errors.ts).
 */
export class SignInRefused extends Error {
  constructor(readonly refusal: SignInRefusal) {
    super(signInErrorCode(refusal));
  }
}

let unknownUserHash: Promise<string> | undefined;

/** An account a password signs in to: the console's users, the portal's. */
export interface PasswordAccount {
  id: number;
  email: string;
  passwordHash: string;
}

/** What checkPasswordSignIn needs of a realm: where its accounts are, which may sign in, how its rows are audited. */
export interface SignInRealm<Account extends PasswordAccount> {
  realm: AuthRealm;
  findAccount(normalizedEmail: string): Promise<Account | undefined>;
  /** A deactivated console user, say: refused like a wrong password, after the same work. */
  maySignIn(account: Account): boolean;
  audit: AccessAuditSubject;
}

/** A request's header by name (a Headers object's get, or a lookup in next-auth's header record). */
export type HeaderReader = (name: string) => string | null;

export type SignInCheck<Account> = { ok: true; account: Account; origin: SessionOrigin } | { ok: false; refusal: SignInRefusal };

/**
 * Checks an e-mail and password, throttled per IP, per account and IP, and per account or known
 * device (lib/flows/auth/throttle.ts, lib/flows/auth/known-device.ts), in the realm's own counts. Unknown
 * e-mails, accounts that may not sign in and wrong passwords all get the same answer after the same
 * work (a password hash), so the form never tells which e-mails exist. Each failure and each lock
 * it causes is written to the audit log (the success is written with the session). Anything
 * unexpected (the database, say) is logged and refused with a code that says nothing about it.
 */
export async function checkPasswordSignIn<Account extends PasswordAccount>(
  realm: SignInRealm<Account>,
  email: string,
  password: string,
  header: HeaderReader,
): Promise<SignInCheck<Account>> {
  try {
    return await checkCredentials(realm, email, password, header);
  } catch (error) {
    logger('auth').error({ err: error, realm: realm.realm }, 'sign-in check failed');
    return { ok: false, refusal: { kind: 'unavailable' } };
  }
}

const CONSOLE_SIGN_IN: SignInRealm<ConsoleUser> = {
  realm: 'console',
  findAccount: findConsoleUserByEmail,
  maySignIn: (user) => user.active && user.origin === 'local',
  audit: ACCESS_AUDIT.console,
};

/**
 * Whether a password still opens this account: every local one while the console has no identity
 * provider (or CONSOLE_LOCAL_SIGN_IN=all), only the break-glass accounts once it has one.
 */
export function passwordSignInAllowed(email: string): boolean {
  const settings = consoleSsoSettings();
  return settings.CONSOLE_LOCAL_SIGN_IN === 'all' || settings.CONSOLE_BREAK_GLASS_EMAILS.includes(email.trim().toLowerCase());
}

/** The console's check, for next-auth's credentials provider: a refusal is thrown as its code. */
export async function authenticateConsoleUser(
  email: string,
  password: string,
  headers: Record<string, string | string[] | undefined>,
): Promise<{ user: ConsoleUser; origin: SessionOrigin }> {
  const checked = await checkPasswordSignIn(CONSOLE_SIGN_IN, email, password, (name) => headerValue(headers, name));
  if (!checked.ok) throw new SignInRefused(checked.refusal);
  // Said only to whoever knows the password: no one learns from it which accounts exist.
  if (!passwordSignInAllowed(checked.account.email)) {
    await auditSignInRefusal(checked.account.id, { failed: true, lockedNow: [] });
    throw new SignInRefused({ kind: 'use_identity_provider' });
  }
  return { user: checked.account, origin: checked.origin };
}

async function checkCredentials<Account extends PasswordAccount>(
  realm: SignInRealm<Account>,
  email: string,
  password: string,
  header: HeaderReader,
): Promise<SignInCheck<Account>> {
  const normalizedEmail = email.trim().toLowerCase();
  // Nothing longer than an account can have reaches the throttle table or the password hash.
  if (!normalizedEmail || !password || normalizedEmail.length > MAX_EMAIL_LENGTH || password.length > MAX_PASSWORD_LENGTH) {
    return { ok: false, refusal: { kind: 'invalid_credentials' } };
  }
  const ip = requestClientIp(header, env());

  const attempt = await beginSignInAttempt(normalizedEmail, ip, knownDeviceOfRequest(header('cookie'), normalizedEmail, realm.realm), realm.realm);
  if (!attempt.allowed) {
    // Only a parallel attempt past the limit can lock here; a lock already in place writes nothing.
    if (attempt.lockedNow) await recordRefusal(realm, (await realm.findAccount(normalizedEmail))?.id, false, attempt.lockedNow, ip);
    return { ok: false, refusal: attempt.refusal };
  }
  if (attempt.delayMs > 0) await sleep(attempt.delayMs);

  const account = await realm.findAccount(normalizedEmail);
  unknownUserHash ??= hashPassword('placeholder password for unknown accounts', env().PASSWORD_HASH_COST);
  // An account without a password (a user of the identity provider) costs the same hash as an unknown one.
  const stored = account?.passwordHash.startsWith('scrypt$') ? account.passwordHash : await unknownUserHash;
  const matches = (await verifyPassword(password, stored)) && stored === account?.passwordHash;
  if (!account || !realm.maySignIn(account) || !matches) {
    const failure = await recordSignInFailure(attempt);
    await recordRefusal(realm, account?.id, true, failure.lockedNow, ip);
    if (account && attempt.accountFailures !== undefined) await signInFailedForAccount.emit({ account: { id: account.id, email: account.email }, failures: attempt.accountFailures, realm: realm.realm });
    return { ok: false, refusal: failure.refusal };
  }
  await recordSignInSuccess(attempt);
  return { ok: true, account, origin: { clientIp: ip, userAgent: header('user-agent') ?? '' } };
}

async function recordRefusal<Account extends PasswordAccount>(realm: SignInRealm<Account>, accountId: number | undefined, failed: boolean, lockedNow: ThrottleScope[], ip: string): Promise<void> {
  // The audit log keeps no addresses: the log line says which one a lock applies to (no e-mail).
  for (const scope of lockedNow) logger('auth').warn({ realm: realm.realm, lockScope: scope, userId: accountId ?? null, clientIp: ip }, `${realm.realm} sign-in locked after failed attempts`);
  await auditSignInRefusal(accountId, { failed, lockedNow }, realm.audit);
}

function headerValue(headers: Record<string, string | string[] | undefined>, name: string): string | null {
  const value = headers[name] ?? headers[name.toLowerCase()];
  return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
}
