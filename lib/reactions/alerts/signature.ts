import { createHmac, timingSafeEqual } from 'node:crypto';

// The webhook's signature (docs/operations.md, "Alerts"): HMAC-SHA256, keyed with
// ALERT_WEBHOOK_SECRET, of "<X-Alerta-Fecha>.<raw body>". Signing the time with the body lets a
// receiver refuse a captured request replayed later: it checks the signature, then the time.

export const SIGNATURE_HEADER = 'x-alerta-firma';
export const TIMESTAMP_HEADER = 'x-alerta-fecha';
export const ALERT_ID_HEADER = 'x-alerta-id';

/** The X-Alerta-Firma value for a body sent at `timestamp` (Unix seconds). */
export function signAlert(secret: string, timestamp: number, rawBody: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex')}`;
}

/**
 * What a receiver does: the signature must match and the time must be within `toleranceSeconds`
 * of its own clock. Exported for receivers written in TypeScript and for the tests.
 */
export function verifyAlertSignature(
  secret: string,
  headers: { signature: string | undefined; timestamp: string | undefined },
  rawBody: string,
  options: { nowSeconds?: number; toleranceSeconds?: number } = {},
): boolean {
  const timestamp = Number(headers.timestamp);
  if (!headers.signature || !Number.isSafeInteger(timestamp)) return false;
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - timestamp) > (options.toleranceSeconds ?? 300)) return false;
  const expected = Buffer.from(signAlert(secret, timestamp, rawBody));
  const received = Buffer.from(headers.signature);
  return expected.length === received.length && timingSafeEqual(expected, received);
}
