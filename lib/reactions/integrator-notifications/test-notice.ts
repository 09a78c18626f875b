import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { db } from '@/db/client';
import { integrations } from '@/db/schema';
import { maskWebhookUrl } from '@/lib/platform/security/outbound-urls';
import { writeAudit, type Actor } from '@/lib/core/audit/audit';
import type { Context, IntegrationNamed, IntegratorNotification } from './kinds/notice';
import type { IntegratorNotifier } from './notifier';

// "Enviar aviso de prueba" on an integration's page: a signed notice of type
// "prueba" to the integration's webhook, written to the outbox and sent by the delivery loop like
// any other (same headers, signature, retries and recorded attempts), so it shows in the
// integration's list of notices. Only the webhook: the contacts get no test e-mail.

/** The webhook's `tipo` of the test notice. */
export const TEST_TYPE = 'prueba';

/**
 * The test notice sent to the integration's webhook ("Enviar aviso de prueba"), by an administrator
 * in the console or an owner in the portal, so its text names neither: the same body, headers and
 * signature as every notice, no facts.
 */
export function testNotification(integration: IntegrationNamed, context: Pick<Context, 'serviceName'>, now = new Date()): IntegratorNotification {
  return {
    id: `ntf_${randomUUID()}`,
    tipo: TEST_TYPE,
    condicion: `${TEST_TYPE}:${integration.id}`,
    fecha: now.toISOString(),
    servicio: context.serviceName,
    titulo: 'Aviso de prueba',
    mensaje:
      `Aviso de prueba de ${context.serviceName} para comprobar que el webhook de «${integration.nombre}» recibe los avisos ` +
      'y verifica su firma. No requiere ninguna acción.',
    integracion: { id: integration.id, nombre: integration.nombre },
    datos: {},
  };
}

/** One test per integration in this long: a double click, or a button held down, sends one. */
export const TEST_NOTICE_INTERVAL_SECONDS = 10;

export type TestNoticeResult =
  | { ok: true; value: { deliveryIds: number[] } }
  | { ok: false; error: { code: 'invalid' | 'not_found' | 'too_soon'; message: string } };

export async function sendTestNotification(actor: Actor, integrationId: number, notifier: IntegratorNotifier): Promise<TestNoticeResult> {
  const [integration] = await (await db()).select().from(integrations).where(eq(integrations.id, integrationId));
  if (!integration) return { ok: false, error: { code: 'not_found', message: 'La integración no existe.' } };
  const url = integration.notificationWebhookUrl;
  if (!url) return { ok: false, error: { code: 'invalid', message: 'La integración no tiene webhook: guarde uno antes de enviar un aviso de prueba.' } };
  const payload = testNotification(integration, notifier.settings);
  const rows = await notifier.queue(`integrator:${payload.condicion}`, TEST_NOTICE_INTERVAL_SECONDS, async (tx) => {
    await writeAudit(tx, actor, {
      action: 'integration.send_test_notification',
      targetType: 'integration',
      targetId: integrationId,
      before: null,
      after: { webhook: maskWebhookUrl(url), aviso: payload.id },
    });
    return [
      {
        alertId: payload.id,
        condition: 'test',
        integrationId,
        audience: 'integrator',
        recipient: 'webhook',
        channel: 'webhook',
        target: maskWebhookUrl(url),
        payload: JSON.stringify(payload),
      },
    ];
  });
  if (rows.length === 0) {
    return {
      ok: false,
      error: { code: 'too_soon', message: `Ya se envió un aviso de prueba a este webhook hace menos de ${TEST_NOTICE_INTERVAL_SECONDS} segundos: espere un momento y vuelva a intentarlo.` },
    };
  }
  return { ok: true, value: { deliveryIds: rows.map((row) => row.id) } };
}
