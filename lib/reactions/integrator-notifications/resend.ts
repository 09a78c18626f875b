import { and, eq } from 'drizzle-orm';
import { db } from '@/db/client';
import { alertDeliveries, integrations, type AlertDelivery } from '@/db/schema';
import { maskWebhookUrl } from '@/lib/platform/security/outbound-urls';
import { writeAudit, type Actor } from '@/lib/core/audit/audit';
import type { IntegratorNotifier } from './notifier';

// "Reenviar" on a notice sent to the webhook ("Últimos avisos", the portal's and the console's): the
// same notice queued again as a new delivery, with the same id and the same bytes, so a receiver
// that already has it drops it by its id; signed, tried and retried like any other, to the webhook
// as it is now. Audited, and one resend per integration in RESEND_INTERVAL_SECONDS across instances.

/** One resend per integration in this long: a double click, or many rows clicked in a row, send one. */
export const RESEND_INTERVAL_SECONDS = 10;

export const RESEND_MESSAGES = {
  notFound: 'Ese aviso no existe.',
  notWebhook: 'Solo los avisos enviados al webhook se pueden reenviar.',
  notTriedYet: 'Ese aviso todavía no se ha intentado enviar: espere su primer intento antes de reenviarlo.',
  noWebhook: 'La integración ya no tiene webhook: guarde uno antes de reenviar un aviso.',
  tooSoon: `Ya se reenvió un aviso de esta integración hace menos de ${RESEND_INTERVAL_SECONDS} segundos: espere un momento y vuelva a intentarlo.`,
} as const;

export type ResendResult =
  | { ok: true; value: { deliveryId: number; alertId: string } }
  | { ok: false; error: { code: 'not_found' | 'not_webhook' | 'pending' | 'no_webhook' | 'too_soon'; message: string } };

/**
 * Whether a delivery may be resent: once it has been tried. One still being retried may be too (a
 * receiver just fixed need not wait for the next retry); the copy and the retries share the id.
 */
export function resendable(delivery: Pick<AlertDelivery, 'channel' | 'status' | 'attempts'>): boolean {
  return delivery.channel === 'webhook' && !(delivery.status === 'pending' && delivery.attempts === 0);
}

/**
 * Queues delivery `deliveryId` of integration `integrationId` again. Another integration's
 * delivery is answered as one that does not exist.
 */
export async function resendNotification(actor: Actor, integrationId: number, deliveryId: number, notifier: IntegratorNotifier): Promise<ResendResult> {
  const database = await db();
  const [delivery] = await database
    .select()
    .from(alertDeliveries)
    .where(and(eq(alertDeliveries.id, deliveryId), eq(alertDeliveries.integrationId, integrationId), eq(alertDeliveries.audience, 'integrator')));
  if (!delivery) return { ok: false, error: { code: 'not_found', message: RESEND_MESSAGES.notFound } };
  if (delivery.channel !== 'webhook') return { ok: false, error: { code: 'not_webhook', message: RESEND_MESSAGES.notWebhook } };
  if (!resendable(delivery)) return { ok: false, error: { code: 'pending', message: RESEND_MESSAGES.notTriedYet } };
  const [integration] = await database.select({ url: integrations.notificationWebhookUrl }).from(integrations).where(eq(integrations.id, integrationId));
  const url = integration?.url;
  if (!url) return { ok: false, error: { code: 'no_webhook', message: RESEND_MESSAGES.noWebhook } };
  const rows = await notifier.queue(`integrator:resend:${integrationId}`, RESEND_INTERVAL_SECONDS, async (tx) => {
    await writeAudit(tx, actor, {
      action: 'integration.resend_notification',
      targetType: 'integration',
      targetId: integrationId,
      before: null,
      after: { webhook: maskWebhookUrl(url), reenviado: delivery.alertId },
    });
    return [
      {
        alertId: delivery.alertId,
        condition: delivery.condition,
        integrationId,
        source: delivery.source,
        audience: 'integrator',
        recipient: 'webhook',
        channel: 'webhook',
        target: maskWebhookUrl(url),
        payload: delivery.payload,
      },
    ];
  });
  if (rows.length === 0) return { ok: false, error: { code: 'too_soon', message: RESEND_MESSAGES.tooSoon } };
  return { ok: true, value: { deliveryId: rows[0]!.id, alertId: delivery.alertId } };
}
