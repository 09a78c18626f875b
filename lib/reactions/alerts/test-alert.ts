import { writeAudit, type Actor } from '@/lib/core/audit/audit';
import { testAlert } from './conditions';
import type { AlertDispatcher } from './dispatcher';
import { enqueueAlert } from './outbox';

// "Enviar aviso de prueba" on the Alertas page: a test alert to every channel
// the administrators' alerts use (the webhook, the e-mail, or both), written to the outbox and sent
// by the delivery loop like any alert, so it shows on the page with its attempts.

/** One test in this long: a double click, or two administrators at once, send one. */
export const TEST_ALERT_INTERVAL_SECONDS = 10;

export type TestAlertResult =
  | { ok: true; value: { deliveryIds: number[] } }
  | { ok: false; error: { code: 'invalid' | 'too_soon'; message: string } };

export async function sendTestAlert(actor: Actor, dispatcher: AlertDispatcher): Promise<TestAlertResult> {
  if (!dispatcher.enabled) {
    return { ok: false, error: { code: 'invalid', message: 'No hay canales de alerta configurados (ALERT_WEBHOOK_URL, ALERT_SMTP_HOST): no hay a dónde enviar el aviso de prueba.' } };
  }
  const alert = testAlert(dispatcher.settings);
  const rows = await enqueueAlert(alert, dispatcher.channels, { ...dispatcher.settings, repeatIntervalSeconds: TEST_ALERT_INTERVAL_SECONDS }, (tx, deliveries) =>
    writeAudit(tx, actor, {
      action: 'alerts.send_test',
      targetType: 'alerts',
      targetId: 'canales',
      before: null,
      after: { canales: deliveries.map((delivery) => delivery.channel), aviso: alert.payload.id },
    }),
  );
  if (rows.length === 0) {
    return { ok: false, error: { code: 'too_soon', message: `Ya se envió un aviso de prueba hace menos de ${TEST_ALERT_INTERVAL_SECONDS} segundos: espere un momento y vuelva a intentarlo.` } };
  }
  dispatcher.wakeNow();
  return { ok: true, value: { deliveryIds: rows.map((row) => row.id) } };
}
