import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { personalDataKeys, type PersonalDataKeyring } from './keys';

// An encrypted value as stored: `pd1:<key id>:<base64url of IV (12 bytes), ciphertext, GCM tag (16 bytes)>`.
// Text, so it fits the columns that held the identifiers in clear (no type change, the same on
// PGlite and PostgreSQL), and a clear identifier can never look like one: an identifier is at most
// 32 characters and a batch's NITs are joined by commas, which base64url never contains.
const VERSION = 'pd1';
const SEALED = /^pd1:([0-9a-f]{8}):([A-Za-z0-9_-]{38,})$/;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** What a sealed value is for: bound to it as GCM's additional data, so a NIT cannot be passed off as a CUI. */
export type SealedPurpose = 'nit' | 'cui' | 'idempotent_request' | 'idempotent_answer' | 'webhook_secret' | 'identifier_search' | 'identifier_link' | 'bulk_identifier' | 'bulk_result' | 'watch_identifier' | 'watch_snapshot' | 'identity_provider_refresh_token' | 'identity_provider_client_secret' | 'identity_provider_sign_in' | 'constancia';

export function isSealed(value: string): boolean {
  return SEALED.test(value);
}

/** The id of the key that sealed `value`; undefined for a value still in clear. */
export function sealedKeyId(value: string): string | undefined {
  return SEALED.exec(value)?.[1];
}

/** Encrypts with the current PERSONAL_DATA_KEY (AES-256-GCM, a random IV per value). */
export function seal(text: string, purpose: SealedPurpose, keys: PersonalDataKeyring = personalDataKeys()): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keys.encryption.key, iv);
  cipher.setAAD(Buffer.from(purpose));
  const body = Buffer.concat([iv, cipher.update(text, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return `${VERSION}:${keys.encryption.id}:${body.toString('base64url')}`;
}

export class UnknownPersonalDataKeyError extends Error {
  constructor(readonly keyId: string) {
    super(`a personal-data value was sealed with key ${keyId}, which is neither PERSONAL_DATA_KEY nor in PERSONAL_DATA_PREVIOUS_KEYS`);
    this.name = 'UnknownPersonalDataKeyError';
  }
}

/**
 * The text of a stored value: decrypted when sealed (with whichever configured key sealed it),
 * as it is when still in clear (a record written before the migration, not yet resealed).
 * Throws when the key is not configured or the value was tampered with: never a wrong answer.
 */
export function open(value: string, purpose: SealedPurpose, keys: PersonalDataKeyring = personalDataKeys()): string {
  const match = SEALED.exec(value);
  if (!match) return value;
  const key = keys.decryption.get(match[1]!);
  if (!key) throw new UnknownPersonalDataKeyError(match[1]!);
  const body = Buffer.from(match[2]!, 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', key, body.subarray(0, IV_BYTES));
  decipher.setAAD(Buffer.from(purpose));
  decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
  return Buffer.concat([decipher.update(body.subarray(IV_BYTES, body.length - TAG_BYTES)), decipher.final()]).toString('utf8');
}

export function sealNullable(text: string | null, purpose: SealedPurpose, keys?: PersonalDataKeyring): string | null {
  return text === null ? null : seal(text, purpose, keys);
}

export function openNullable(value: string | null, purpose: SealedPurpose, keys?: PersonalDataKeyring): string | null {
  return value === null ? null : open(value, purpose, keys);
}
