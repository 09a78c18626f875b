// Svix's webhook signature scheme, which Recurrente's webhooks use (docs/payments.md): headers
// `svix-id`, `svix-timestamp` (Unix seconds) and `svix-signature` (space-separated `v1,<base64>`,
// several during a secret's rotation); the signature is HMAC-SHA256, keyed by the base64 part of a
// `whsec_…` secret, over `<id>.<timestamp>.<raw body>`. The simulator signs with the same code.

import { createHmac, timingSafeEqual } from 'node:crypto';

export const SVIX_HEADERS = { id: 'svix-id', timestamp: 'svix-timestamp', signature: 'svix-signature' } as const;
/** Svix's own default: a message older or newer than this is refused (a captured one replayed later). */
export const DEFAULT_WEBHOOK_TOLERANCE_SECONDS = 300;

const SECRET_PREFIX = 'whsec_';

/** A `whsec_` secret whose rest is base64 of at least 16 bytes. */
export function isWebhookSecret(secret: string): boolean {
  if (!secret.startsWith(SECRET_PREFIX)) return false;
  const encoded = secret.slice(SECRET_PREFIX.length);
  return /^[A-Za-z0-9+/]+={0,2}$/.test(encoded) && Buffer.from(encoded, 'base64').length >= 16;
}

function keyOf(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
}

/** The `svix-signature` value for one message: `v1,<base64 HMAC>`. */
export function svixSignature(secret: string, id: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', keyOf(secret)).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}

export type SvixCheck = { ok: true; id: string; timestamp: Date } | { ok: false; reason: 'missing_headers' | 'bad_signature' | 'stale_timestamp' };

/**
 * Checks one delivery. The timestamp is checked first against `now` (a replay of a captured message
 * beyond the tolerance is refused whatever its signature), then the signature in constant time.
 * A replay within the tolerance passes: it is the same message, and consumers key on the payment.
 */
export function verifySvix(input: {
  secret: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  now: Date;
  toleranceSeconds?: number;
}): SvixCheck {
  const header = (name: string) => {
    const found = Object.entries(input.headers).find(([key]) => key.toLowerCase() === name)?.[1];
    const value = Array.isArray(found) ? found[0] : found;
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  };
  const id = header(SVIX_HEADERS.id);
  const timestampText = header(SVIX_HEADERS.timestamp);
  const signatures = header(SVIX_HEADERS.signature);
  if (id === undefined || timestampText === undefined || signatures === undefined) return { ok: false, reason: 'missing_headers' };
  if (!/^[0-9]{1,12}$/.test(timestampText)) return { ok: false, reason: 'bad_signature' };
  const timestampSeconds = Number(timestampText);
  const tolerance = input.toleranceSeconds ?? DEFAULT_WEBHOOK_TOLERANCE_SECONDS;
  if (Math.abs(input.now.getTime() / 1000 - timestampSeconds) > tolerance) return { ok: false, reason: 'stale_timestamp' };
  const expected = Buffer.from(svixSignature(input.secret, id, timestampSeconds, input.body).slice(3), 'base64');
  for (const candidate of signatures.split(' ')) {
    const [version, mac] = candidate.split(',', 2);
    if (version !== 'v1' || mac === undefined) continue;
    const given = Buffer.from(mac, 'base64');
    if (given.length === expected.length && timingSafeEqual(given, expected)) return { ok: true, id, timestamp: new Date(timestampSeconds * 1000) };
  }
  return { ok: false, reason: 'bad_signature' };
}
