// POST /api/pagos/<provider>: the payment provider's webhooks. No session and no token: the
// signature is the credential (verified with the provider's scheme and time tolerance). Answers
// 400 to a delivery that does not verify (nothing changes), 200 once it is settled or is nothing of
// ours, 500 when the database failed (the provider sends it again), 404 while payments are off.
// The proxy limits it per sending address (RATE_LIMIT_PAYMENT_WEBHOOKS_PER_MINUTE).
import { receivePaymentWebhook } from '@/lib/flows/online-top-ups/webhook';
import { ClientAbortedError, readBoundedBody, type RawBodyRead } from '@/lib/platform/http/json-body';
import { logger } from '@/lib/platform/logging/logger';
import { configuredPaymentProvider } from '@/lib/providers/payments/configured';

const log = logger('payment-webhook');
/** Recurrente's events are a few kilobytes; anything far larger is not one. */
const MAX_BODY_BYTES = 256 * 1024;

export const PAYMENT_WEBHOOK_ANSWERS = {
  off: 'Los pagos en línea no están activos.',
  refused: 'Firma no válida.',
  tooLarge: 'Cuerpo demasiado grande.',
  failed: 'No se pudo procesar; reintente.',
} as const;

export function paymentWebhookRoute(providerName: string) {
  return async function POST(request: Request): Promise<Response> {
    const provider = configuredPaymentProvider();
    if (provider === null || provider.name !== providerName) return Response.json({ error: PAYMENT_WEBHOOK_ANSWERS.off }, { status: 404 });
    // The signature covers the bytes as sent: kept as they came, never re-serialized, and read no
    // further than the limit (a body streamed without a length is cut off there).
    let read: RawBodyRead;
    try {
      read = await readBoundedBody(request, MAX_BODY_BYTES);
    } catch (error) {
      if (error instanceof ClientAbortedError) return Response.json({ error: PAYMENT_WEBHOOK_ANSWERS.refused }, { status: 400 });
      throw error;
    }
    if (!read.ok) return Response.json({ error: PAYMENT_WEBHOOK_ANSWERS.tooLarge }, { status: 413, headers: { connection: 'close' } });
    const rawBody = read.bytes.toString('utf8');
    try {
      const receipt = await receivePaymentWebhook(provider, { headers: Object.fromEntries(request.headers), rawBody });
      if (receipt.kind === 'refused') return Response.json({ error: PAYMENT_WEBHOOK_ANSWERS.refused }, { status: 400 });
      return Response.json({ recibido: true });
    } catch (error) {
      log.error({ err: error, provider: providerName }, 'settling a payment webhook failed');
      return Response.json({ error: PAYMENT_WEBHOOK_ANSWERS.failed }, { status: 500 });
    }
  };
}
