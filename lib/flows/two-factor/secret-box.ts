import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { nextAuthSecret } from '@/lib/flows/auth/secret';
import { env } from '@/lib/platform/settings/env';

// TOTP secrets at rest: AES-256-GCM with a fresh 96-bit IV per secret, bound to its user's id
// (additional data: "console_user:<id>" or "portal_user:<id>"), so a ciphertext copied onto
// another user's row, or onto the other realm's row with the same id, does not decrypt. The key is
// derived (HKDF-SHA256) from TWO_FACTOR_ENCRYPTION_KEY, or from NEXTAUTH_SECRET when that is
// unset; production cannot start without NEXTAUTH_SECRET, so there is always a key there.

const VERSION = 'v1';
const KEY_INFO = 'console two-factor secrets v1';

/** The 32-byte key the secrets are sealed with, from the settings. */
export function twoFactorKey(): Buffer {
  const material = env().TWO_FACTOR_ENCRYPTION_KEY ?? nextAuthSecret();
  return deriveKey(material);
}

export function deriveKey(material: string): Buffer {
  return Buffer.from(hkdfSync('sha256', Buffer.from(material, 'utf8'), Buffer.alloc(0), KEY_INFO, 32));
}

/** Whose secrets: the audit's name for the account kind, bound into every box. */
export type SecretOwner = 'console_user' | 'portal_user';

export function sealSecret(secret: string, userId: number, key: Buffer, owner: SecretOwner = 'console_user'): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(additionalData(userId, owner));
  const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ciphertext.toString('base64url')].join('.');
}

/** The secret, or undefined when the box was sealed with another key or for another user. */
export function openSecret(sealed: string, userId: number, key: Buffer, owner: SecretOwner = 'console_user'): string | undefined {
  const [version, iv, tag, ciphertext] = sealed.split('.');
  if (version !== VERSION || !iv || !tag || ciphertext === undefined) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(additionalData(userId, owner));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}

function additionalData(userId: number, owner: SecretOwner): Buffer {
  return Buffer.from(`${owner}:${userId}`, 'utf8');
}
