import fs from 'node:fs';
import path from 'node:path';
import { MIN_PASSWORD_LENGTH } from '@/lib/security/passwords';

/**
 * The list of common passwords the console refuses (scripts/write-common-passwords.ts writes it
 * from a public breach-frequency list). Read from the working directory the app, the CLI and the
 * tests all run in (the repository's root), once per process; a missing list fails the first
 * password check instead of letting every password through.
 */
const COMMON_PASSWORDS_FILE = path.join(process.cwd(), 'lib', 'passwords', 'common-passwords.txt');

let commonPasswords: ReadonlySet<string> | undefined;

function loadCommonPasswords(): ReadonlySet<string> {
  commonPasswords ??= new Set(
    fs
      .readFileSync(COMMON_PASSWORDS_FILE, 'utf8')
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean),
  );
  return commonPasswords;
}

/** What a new password is told when it is refused (the console's forms and the CLI show it). */
export const PASSWORD_RULE_MESSAGES = {
  tooShort: `La contraseña debe tener al menos ${MIN_PASSWORD_LENGTH} caracteres.`,
  common: 'Esa contraseña es de las más usadas y se adivina en segundos: elige otra, por ejemplo una frase de varias palabras.',
} as const;

/**
 * Whether a password is, or is built on, a commonly used one: compared without case, as typed and
 * with the digits and symbols people append at the end removed ("Password1234!" is "password"),
 * which is how length rules are usually met by the passwords attackers try first.
 */
export function isCommonPassword(password: string): boolean {
  const list = loadCommonPasswords();
  const lowered = password.toLowerCase();
  if (list.has(lowered)) return true;
  const base = lowered.replace(/[\d\W_]+$/u, '');
  return base.length > 0 && base !== lowered && list.has(base);
}

/** Null when a new password may be used; otherwise the message that says why not. */
export function newPasswordProblem(password: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) return PASSWORD_RULE_MESSAGES.tooShort;
  if (isCommonPassword(password)) return PASSWORD_RULE_MESSAGES.common;
  return null;
}
