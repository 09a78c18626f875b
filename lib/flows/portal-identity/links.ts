import { createHash, randomBytes } from 'node:crypto';
import { configuredOrigin } from '@/lib/platform/http/base-url';

// The codes of the portal's single-use links (an invitation, a password reset): 256 random bits,
// in the link only; the database keeps their SHA-256 (a random code needs no slow hash), so a copy
// of the table opens nothing. A link is used by posting its code from the page it opens, once.

export const INVITATION_VALID_HOURS = 72;
export const PASSWORD_RESET_VALID_MINUTES = 60;

/** The query parameter that carries a link's code, read once by the page it opens. */
export const LINK_CODE_PARAM = 'codigo';

export function newLinkCode(): string {
  return randomBytes(32).toString('base64url');
}

/** A link code as stored; anything that cannot be one of ours is hashed too (and matches nothing). */
export function hashLinkCode(code: string): string {
  return createHash('sha256').update(code, 'utf8').digest('hex');
}

/** Whether a typed or posted value has the shape of a link code (43 base64url characters). */
export function isLinkCode(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Za-z0-9_-]{43}$/.test(value);
}

/**
 * A portal page's address for an e-mail: under the public URL (NEXTAUTH_URL, required in
 * production), or in development under the app's own listening address, as server.mjs prints it
 * (HOST and PORT; localhost when it listens on every interface). Never from the request's Host:
 * anyone can send one, and a real code on a link to their host would hand them the account
 * (docs/operations.md).
 */
export function portalLink(path: string, code: string): string {
  const url = new URL(path, configuredOrigin());
  url.searchParams.set(LINK_CODE_PARAM, code);
  return url.toString();
}
