// The rules of the Idempotency-Key header on the catalogs (docs/decisions.md,
// "Idempotency-Key on the catalogs"): which keys are accepted and what makes two requests "the same".
import { createHash } from 'node:crypto';

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
/** Set to `true` on an answer that is the stored answer of an earlier request with the same key. */
export const IDEMPOTENCY_REPLAYED_HEADER = 'idempotency-replayed';
/**
 * On a catalog's 400 for its Idempotency-Key: which problem it was. The contract's body (the
 * source-rejected text) stays as it is; this says what the text cannot.
 */
export const REFUSAL_REASON_HEADER = 'x-motivo-rechazo';
export const IDEMPOTENCY_REFUSAL_REASONS = { idempotency_key_invalid: 'idempotency-key-invalid', idempotency_key_reused: 'idempotency-key-reused' } as const;
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
/** How long a key is remembered after its first request. */
export const IDEMPOTENCY_WINDOW_HOURS = 24;

// Printable ASCII, space included: what an HTTP header carries without an encoding question (Node
// reads other bytes as latin1, so a non-ASCII key could not be told apart from its mangled form).
const PRINTABLE = /^[\x20-\x7e]+$/;

export type IdempotencyKeyRead = { kind: 'absent' } | { kind: 'valid'; key: string } | { kind: 'invalid' };

/** Reads the header's value (null when it was not sent): 1 to 255 printable characters. */
export function readIdempotencyKey(value: string | null): IdempotencyKeyRead {
  if (value === null) return { kind: 'absent' };
  if (value.length === 0 || value.length > MAX_IDEMPOTENCY_KEY_LENGTH || !PRINTABLE.test(value)) return { kind: 'invalid' };
  return { kind: 'valid', key: value };
}

/**
 * What the database stores instead of the key: its SHA-256. The key is the integrator's text and
 * may carry anything; equality is all that is needed of it.
 */
export function idempotencyKeyHash(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}
