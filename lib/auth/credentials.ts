import { setTimeout as sleep } from 'node:timers/promises';
import type { ConsoleUser } from '@/db/schema';
import { env } from '@/lib/env';
import { clientIp, PEER_IP_HEADER } from '@/lib/limits/client-ip';
import { hashPassword, verifyPassword } from '@/lib/security/passwords';
import { findConsoleUserByEmail } from '@/lib/users/service';
import { beginSignInAttempt, recordSignInFailure, recordSignInSuccess } from './throttle';

/** Thrown to next-auth, which passes the message to the sign-in form as `error`. */
export class SignInRefused extends Error {}

let unknownUserHash: Promise<string> | undefined;

/**
 * Checks an e-mail and password for the console, throttled per account and per IP. Unknown
 * e-mails, deactivated users and wrong passwords all get the same answer after the same work (a
 * password hash), so the form never tells which e-mails exist.
 */
export async function authenticateConsoleUser(
  email: string,
  password: string,
  headers: Record<string, string | string[] | undefined>,
): Promise<ConsoleUser> {
  const normalizedEmail = email.trim().toLowerCase();
  if (!normalizedEmail || !password) throw new SignInRefused('Escribe tu correo y tu contraseña.');
  const ip = clientIp(headerValue(headers, PEER_IP_HEADER), headerValue(headers, 'x-forwarded-for'), env().TRUSTED_PROXY_HOPS);

  const attempt = await beginSignInAttempt(normalizedEmail, ip);
  if (!attempt.allowed) throw new SignInRefused(attempt.message);
  if (attempt.delayMs > 0) await sleep(attempt.delayMs);

  const user = await findConsoleUserByEmail(normalizedEmail);
  unknownUserHash ??= hashPassword('placeholder password for unknown accounts');
  const matches = await verifyPassword(password, user?.passwordHash ?? (await unknownUserHash));
  if (!user || !user.active || !matches) throw new SignInRefused(await recordSignInFailure(attempt));
  await recordSignInSuccess(attempt);
  return user;
}

function headerValue(headers: Record<string, string | string[] | undefined>, name: string): string | null {
  const value = headers[name] ?? headers[name.toLowerCase()];
  return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
}

