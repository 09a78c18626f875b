import { createHash, randomInt, timingSafeEqual } from 'node:crypto';

// Recovery codes: ten per user, each usable once, for a lost or replaced phone. Ten characters
// from an alphabet without look-alikes (no 0/o, 1/l/i), shown as two groups of five: 50 bits each,
// so a fast hash is enough at rest (guesses are throttled like passwords).

export const RECOVERY_CODE_COUNT = 10;
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const LENGTH = 10;

export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    let code = '';
    for (let index = 0; index < LENGTH; index++) code += ALPHABET[randomInt(ALPHABET.length)];
    return `${code.slice(0, 5)}-${code.slice(5)}`;
  });
}

/** A typed recovery code as stored: lowercase, without spaces or dashes; undefined if it cannot be one. */
export function normalizeRecoveryCode(typed: string): string | undefined {
  const compact = typed.toLowerCase().replace(/[\s-]+/g, '');
  return compact.length === LENGTH && [...compact].every((character) => ALPHABET.includes(character)) ? compact : undefined;
}

export function hashRecoveryCode(code: string): string {
  return createHash('sha256').update(normalizeRecoveryCode(code) ?? code, 'utf8').digest('hex');
}

/**
 * Which of the stored hashes a typed code matches, comparing every one in constant time (no early
 * exit, so the time says nothing about how close a guess came); undefined for none.
 */
export function findRecoveryCode<T extends { codeHash: string }>(typed: string, stored: T[]): T | undefined {
  const normalized = normalizeRecoveryCode(typed);
  if (!normalized) return undefined;
  const candidate = Buffer.from(hashRecoveryCode(normalized), 'hex');
  let found: T | undefined;
  for (const row of stored) {
    const hash = Buffer.from(row.codeHash, 'hex');
    if (hash.length === candidate.length && timingSafeEqual(hash, candidate) && !found) found = row;
  }
  return found;
}
