import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const TOKEN_PREFIX = 'tlk_';
const DISPLAY_PREFIX_LENGTH = TOKEN_PREFIX.length + 6;

export interface IssuedToken {
  /** Shown once to the person who created or rotated it; never stored. */
  token: string;
  tokenHash: string;
  tokenPrefix: string;
}

/** A new integration token: 256 random bits, stored only as its SHA-256 and a short prefix. */
export function issueToken(): IssuedToken {
  const token = TOKEN_PREFIX + randomBytes(32).toString('base64url');
  return { token, tokenHash: hashToken(token), tokenPrefix: token.slice(0, DISPLAY_PREFIX_LENGTH) };
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Compares a presented token with a stored hash in constant time. */
export function tokenMatches(presented: string, storedHash: string): boolean {
  const presentedHash = Buffer.from(hashToken(presented), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return stored.length === presentedHash.length && timingSafeEqual(presentedHash, stored);
}
