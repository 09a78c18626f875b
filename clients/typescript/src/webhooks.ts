// The service's notices to the integration's webhook (docs/integrators.md, "Avisos por webhook"):
// HMAC-SHA256 with the signing secret over "<X-Alerta-Fecha>.<raw body>", `sha256=` and lowercase
// hex in X-Alerta-Firma, the time within five minutes of the receiver's clock.
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface Aviso {
  /** The body exactly as it arrived, before any JSON parsing (the signature is of these bytes). */
  body: string | Uint8Array;
  /** The X-Alerta-Fecha header (Unix seconds). */
  fecha: string | null | undefined;
  /** The X-Alerta-Firma header. */
  firma: string | null | undefined;
}

/**
 * Whether a notice is the service's and recent: its signature matches, compared in constant time,
 * and its time is within `toleranceSeconds` (300) of this clock. Answer 401 when it is not; answer
 * 2xx without acting again on an `id` already handled (a retry).
 */
export function verificarAviso(secret: string, aviso: Aviso, options: { toleranceSeconds?: number; nowSeconds?: number } = {}): boolean {
  const sentAt = Number(aviso.fecha);
  if (!aviso.firma || !Number.isSafeInteger(sentAt)) return false;
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - sentAt) > (options.toleranceSeconds ?? 300)) return false;
  const body = typeof aviso.body === 'string' ? Buffer.from(aviso.body, 'utf8') : Buffer.from(aviso.body);
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(`${sentAt}.`).update(body).digest('hex')}`);
  const received = Buffer.from(aviso.firma);
  return expected.length === received.length && timingSafeEqual(expected, received);
}
