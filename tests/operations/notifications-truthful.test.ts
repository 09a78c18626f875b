// Issue 32, point 3: notifications say what really happens. Through the same outbox and delivery
// loop as the app, against receivers this file starts: e-mails due on a service without a mail
// server listed as not sent; "Enviar aviso de prueba" for an integration's webhook and for the
// administrators' channels, delivered (or not, and why in Spanish) like any notice; the webhook
// read back after saving (in the audit and on its deliveries) with its query masked.
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { alertDeliveries, auditLog, integrations, type AlertDelivery } from '@/db/schema';
import { AlertDispatcher, setAlertDispatcher } from '@/lib/reactions/alerts/dispatcher';
import { listAlertDeliveries } from '@/lib/reactions/alerts/list';
import type { AlertSettings } from '@/lib/reactions/alerts/settings';
import { sendTestAlert } from '@/lib/reactions/alerts/test-alert';
import { awaitFirstAttempts, describeTestOutcome } from '@/lib/reactions/alerts/test-outcome';
import { adjustBalance } from '@/lib/core/billing/ledger';
import { setIntegrationDetails } from '@/lib/flows/integration-management/details-service';
import { IntegratorNotifier, setIntegratorNotifier } from '@/lib/reactions/integrator-notifications/notifier';
import { recentNotifications, setNotificationOptOuts, setNotificationWebhook, kindsFor } from '@/lib/reactions/integrator-notifications/preferences';
import type { NotificationSettings } from '@/lib/reactions/integrator-notifications/settings';
import { sendTestNotification } from '@/lib/reactions/integrator-notifications/test-notice';
import { createTestIntegration, eventually, TEST_ACTOR } from '../conformance/harness';
import { decodeQuotedPrintable, startSmtpReceiver } from '../support/smtp-receiver';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';
import { subscribeReactions } from '@/lib/root/reactions';

const LOCAL = { allowLocalTargets: true };
const STRICT = { allowLocalTargets: false };

let testDb: TestDatabase;
const receivers: WebhookReceiver[] = [];
let alerts: AlertDispatcher;
let notifier: IntegratorNotifier;

beforeAll(async () => {
  // The domain emits; what these tests check is what the reactions subscribed at start do.
  subscribeReactions();
  testDb = await useTestDatabase();
});

afterAll(async () => {
  setAlertDispatcher(undefined);
  setIntegratorNotifier(undefined);
  await Promise.all(receivers.map((receiver) => receiver.close()));
  await testDb?.cleanup();
});

beforeEach(() => {
  ({ alerts, notifier } = instance());
  setAlertDispatcher(alerts);
  setIntegratorNotifier(notifier);
});

afterEach(async () => {
  await alerts.stop();
  await notifier.close();
});

/** The administrators' alerts of these tests: no channel unless a test adds one. */
const ALERT_SETTINGS: AlertSettings = {
  lowBalanceDefaultCentavos: 10_000,
  repeatIntervalSeconds: 3_600,
  maxAttempts: 3,
  retryBaseMs: 20,
  serviceName: 'Pasarela de pruebas',
  appEnv: 'development',
};

/** An instance without a mail server (no ALERT_SMTP_HOST), as the e2e deployment and many others run. */
function instance(overrides: Partial<NotificationSettings> = {}, alertOverrides: Partial<AlertSettings> = {}) {
  const dispatcher = new AlertDispatcher({ ...ALERT_SETTINGS, ...alertOverrides });
  const integratorNotifier = new IntegratorNotifier({
    webhookTimeoutMs: 2_000,
    repeatIntervalSeconds: 3_600,
    sourceOutageSeconds: 600,
    targets: LOCAL,
    serviceName: 'Pasarela de pruebas',
    appEnv: 'development',
    lowBalanceDefaultCentavos: 10_000,
    alerts: { maxAttempts: 3, retryBaseMs: 20 },
    ...overrides,
  });
  integratorNotifier.attachTo(dispatcher);
  return { alerts: dispatcher, notifier: integratorNotifier };
}

async function deliveriesOf(integrationId: number): Promise<AlertDelivery[]> {
  return (await database()).db.select().from(alertDeliveries).where(eq(alertDeliveries.integrationId, integrationId)).orderBy(alertDeliveries.id);
}

async function deliverAll(integrationId: number): Promise<AlertDelivery[]> {
  return eventually(
    async () => {
      await alerts.deliverDue();
      return deliveriesOf(integrationId);
    },
    (rows) => rows.length > 0 && rows.every((row) => row.status !== 'pending'),
    15_000,
    `deliveries of integration ${integrationId}`,
  );
}

/** An integration with both contacts, Q 200.00 and a Q 10.00 tariff. */
async function integrationWithContacts(nombre: string) {
  const created = await createTestIntegration(nombre, { balanceCentavos: 20_000, tariffCentavos: 1_000 });
  const details = await setIntegrationDetails(TEST_ACTOR, created.id, {
    technicalContactName: 'Tania Técnica',
    technicalContactEmail: `tecnica@${nombre}.gt`,
    billingContactName: 'Fabio Facturas',
    billingContactEmail: `pagos@${nombre}.gt`,
  });
  if (!details.ok) throw new Error(details.error.message);
  return created;
}

/** The integration's webhook at a new local receiver, saved as an administrator saves it; its URL carries a token in the query. */
async function withWebhook(integrationId: number) {
  const placeholder = await setNotificationWebhook(TEST_ACTOR, integrationId, 'http://127.0.0.1:8080/pendiente', LOCAL);
  if (!placeholder.ok) throw new Error(placeholder.error.message);
  const receiver = await startWebhookReceiver('sin-secreto-todavia');
  receivers.push(receiver);
  const url = `${receiver.url}?token=abc123456789`;
  const saved = await setNotificationWebhook(TEST_ACTOR, integrationId, url, LOCAL);
  if (!saved.ok) throw new Error(saved.error.message);
  const signed = await startWebhookReceiver(saved.value.secret);
  receivers.push(signed);
  // The receiver that checks this secret, at the same path and query.
  await (await database()).db.update(integrations).set({ notificationWebhookUrl: `${signed.url}?token=abc123456789` }).where(eq(integrations.id, integrationId));
  return { receiver: signed, url, secret: saved.value.secret };
}

async function lastAudit(integrationId: number, action: string) {
  const [row] = await (await database()).db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.targetType, 'integration'), eq(auditLog.targetId, String(integrationId)), eq(auditLog.action, action)))
    .orderBy(desc(auditLog.id))
    .limit(1);
  return row;
}

describe('e-mail on a service without a mail server (no ALERT_SMTP_HOST)', () => {
  it('a notice due to a contact is listed as not sent, with the reason, never tried, and the webhook still gets it', async () => {
    const acme = await integrationWithContacts('correo-no-configurado');
    const { receiver } = await withWebhook(acme.id);
    await adjustBalance(TEST_ACTOR, acme.id, -15_000, 'Baja a Q 50.00');

    const rows = await deliverAll(acme.id);
    expect(rows.map((row) => [row.channel, row.recipient, row.target, row.status, row.attempts])).toEqual([
      ['email', 'billing', 'pagos@correo-no-configurado.gt', 'not_sent', 0],
      ['webhook', 'webhook', expect.stringContaining('?••••'), 'sent', 1],
    ]);
    expect(rows[0]!.lastError).toBe('correo no configurado en este servicio');
    expect(receiver.received).toHaveLength(1);
    // The integration's list shows it, newest first, as the section reads it.
    expect((await recentNotifications(acme.id)).map((row) => [row.title, row.recipient, row.status])).toEqual([
      ['Su saldo está bajo', 'webhook', 'sent'],
      ['Su saldo está bajo', 'billing', 'not_sent'],
    ]);
  });

  it('a kind a contact turned off, or a contact without an e-mail, leaves no row: nothing was due', async () => {
    const beta = await integrationWithContacts('correo-desactivado');
    const everythingButBillingLow = new Set(['billing', 'technical', 'webhook'].flatMap((recipient) => kindsFor(recipient as 'billing').map((kind) => `${recipient}:${kind}`)));
    everythingButBillingLow.delete('billing:balance_low');
    await setNotificationOptOuts(TEST_ACTOR, beta.id, everythingButBillingLow);
    await adjustBalance(TEST_ACTOR, beta.id, -15_000, 'Baja a Q 50.00');
    const exhausted = await createTestIntegration('correo-sin-contacto', { balanceCentavos: 500, tariffCentavos: 1_000 });
    await adjustBalance(TEST_ACTOR, exhausted.id, -100, 'Baja a Q 4.00');
    await alerts.deliverDue();
    expect(await deliveriesOf(beta.id)).toEqual([]);
    expect(await deliveriesOf(exhausted.id)).toEqual([]);
  });
});

describe('Enviar aviso de prueba to an integration’s webhook', () => {
  it('sends a signed "prueba" through the outbox, listed with the integration’s notices and audited; not twice within seconds', async () => {
    const acme = await integrationWithContacts('prueba-webhook');
    const { receiver, secret } = await withWebhook(acme.id);
    const sent = await sendTestNotification(TEST_ACTOR, acme.id, notifier);
    expect(sent).toMatchObject({ ok: true, value: { deliveryIds: [expect.any(Number)] } });

    const rows = await deliverAll(acme.id);
    expect(rows.map((row) => [row.condition, row.channel, row.recipient, row.status, row.attempts])).toEqual([['test', 'webhook', 'webhook', 'sent', 1]]);
    // Only the webhook: the contacts get no test e-mail.
    expect(receiver.received).toHaveLength(1);
    const [request] = receiver.received;
    expect(request!.signed).toBe(true);
    expect(request!.body).toMatchObject({ tipo: 'prueba', titulo: 'Aviso de prueba', integracion: { id: acme.id, nombre: 'prueba-webhook' }, datos: {} });
    expect(request!.headers['x-alerta-id']).toBe(request!.body.id);
    expect(JSON.stringify(request!.body)).not.toContain(secret);
    expect((await recentNotifications(acme.id)).map((row) => [row.title, row.status])).toEqual([['Aviso de prueba', 'sent']]);
    const outcome = describeTestOutcome(await awaitFirstAttempts(sent.ok ? sent.value.deliveryIds : [], 1_000), 6);
    expect(outcome).toEqual({ tone: 'success', text: expect.stringMatching(/^Entregado a http:\/\/127\.0\.0\.1:\d+\/alertas\?••••: respondió 204\.$/) });

    const audit = await lastAudit(acme.id, 'integration.send_test_notification');
    expect(audit!.after).toEqual({ webhook: expect.stringMatching(/\/alertas\?••••$/), aviso: request!.body.id });

    expect(await sendTestNotification(TEST_ACTOR, acme.id, notifier)).toEqual({
      ok: false,
      error: { code: 'too_soon', message: 'Ya se envió un aviso de prueba a este webhook hace menos de 10 segundos: espere un momento y vuelva a intentarlo.' },
    });
  });

  it('an integration without webhook has nothing to test', async () => {
    const beta = await integrationWithContacts('prueba-sin-webhook');
    expect(await sendTestNotification(TEST_ACTOR, beta.id, notifier)).toEqual({
      ok: false,
      error: { code: 'invalid', message: 'La integración no tiene webhook: guarde uno antes de enviar un aviso de prueba.' },
    });
    expect(await deliveriesOf(beta.id)).toEqual([]);
  });

  it('a host that does not exist: the delivery is listed as failed for now, why in Spanish, and retried', async () => {
    const gamma = await integrationWithContacts('prueba-sin-servidor');
    expect(await setNotificationWebhook(TEST_ACTOR, gamma.id, 'https://hooks.pasarela.invalid/avisos?token=abc123456789', STRICT)).toMatchObject({ ok: true });
    // A minute before the second attempt: the test reads the delivery between the two.
    const strict = instance({ targets: STRICT }, { retryBaseMs: 60_000 });
    try {
      const sent = await sendTestNotification(TEST_ACTOR, gamma.id, strict.notifier);
      if (!sent.ok) throw new Error(sent.error.message);
      await strict.alerts.deliverDue();
      const [row] = await awaitFirstAttempts(sent.value.deliveryIds, 5_000);
      expect(row).toMatchObject({ status: 'pending', attempts: 1, target: 'https://hooks.pasarela.invalid/avisos?••••' });
      expect(row!.lastError).toContain('ENOTFOUND');
      const outcome = describeTestOutcome([row!], 3);
      expect(outcome.tone).toBe('error');
      expect(outcome.text).toMatch(
        /^No se entregó a https:\/\/hooks\.pasarela\.invalid\/avisos\?••••: no se encontró el servidor hooks\.pasarela\.invalid: revise el nombre en la URL\. Se reintenta \d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}:\d{2} \(intento 2 de 3\)\.$/,
      );
    } finally {
      await strict.alerts.stop();
      await strict.notifier.close();
    }
  });
});

describe('Enviar aviso de prueba to the administrators’ channels', () => {
  it('sends it to the alert webhook and by e-mail, lists it on Alertas and audits it', async () => {
    const smtp = await startSmtpReceiver();
    const receiver = await startWebhookReceiver('secreto-de-alertas-de-al-menos-32-caracteres');
    receivers.push(receiver);
    const dispatcher = new AlertDispatcher({
      ...ALERT_SETTINGS,
      webhook: { url: receiver.url, secret: 'secreto-de-alertas-de-al-menos-32-caracteres', timeoutMs: 2_000 },
      email: { host: '127.0.0.1', port: smtp.port, secure: false, requireTls: false, from: 'alertas@pasarela.example', to: ['ana@pasarela.example'] },
    });
    try {
      const sent = await sendTestAlert(TEST_ACTOR, dispatcher);
      if (!sent.ok) throw new Error(sent.error.message);
      await dispatcher.deliverDue();
      const rows = await awaitFirstAttempts(sent.value.deliveryIds, 5_000);
      expect(rows.map((row) => [row.condition, row.channel, row.status]).sort()).toEqual([
        ['test', 'email', 'sent'],
        ['test', 'webhook', 'sent'],
      ]);
      expect(receiver.received.map((request) => [request.signed, request.body.tipo, request.body.titulo])).toEqual([[true, 'prueba', 'Aviso de prueba']]);
      expect(smtp.to('ana@pasarela.example').map((mail) => mail.subject)).toEqual(['[Pasarela de pruebas] Aviso de prueba']);
      expect(decodeQuotedPrintable(smtp.mails[0]!.raw)).toContain('Aviso de prueba enviado desde la consola de Pasarela de pruebas');
      expect((await listAlertDeliveries()).rows.filter((row) => row.condition === 'test').map((row) => row.title)).toEqual(['Aviso de prueba', 'Aviso de prueba']);
      expect(describeTestOutcome(rows, 3).tone).toBe('success');

      const [audit] = await (await database()).db.select().from(auditLog).where(eq(auditLog.action, 'alerts.send_test'));
      expect(audit).toMatchObject({ targetType: 'alerts', after: { canales: ['webhook', 'email'], aviso: receiver.received[0]!.body.id } });
      expect((await sendTestAlert(TEST_ACTOR, dispatcher)).ok).toBe(false);
    } finally {
      await dispatcher.stop();
      await smtp.close();
    }
  });

  it('with no channel configured there is nothing to send', async () => {
    expect(await sendTestAlert(TEST_ACTOR, alerts)).toEqual({
      ok: false,
      error: { code: 'invalid', message: 'No hay canales de alerta configurados (ALERT_WEBHOOK_URL, ALERT_SMTP_HOST): no hay a dónde enviar el aviso de prueba.' },
    });
  });
});

describe('the webhook read back after saving', () => {
  it('the audit and the deliveries hold its scheme, host and path, the query masked, never the token nor the secret', async () => {
    const acme = await integrationWithContacts('acme');
    const { receiver, url, secret } = await withWebhook(acme.id);
    const path = new URL(url).pathname;

    const audit = await lastAudit(acme.id, 'integration.set_notification_webhook');
    expect(audit!.before).toEqual({ webhook: 'http://127.0.0.1:8080/pendiente' });
    expect(audit!.after).toEqual({ webhook: `http://${new URL(url).host}${path}?••••` });
    expect(JSON.stringify(audit)).not.toContain('abc123456789');
    expect(JSON.stringify(audit)).not.toContain(secret);

    await adjustBalance(TEST_ACTOR, acme.id, -15_000, 'Baja a Q 50.00');
    const webhookRow = (await deliverAll(acme.id)).find((row) => row.channel === 'webhook')!;
    expect(webhookRow).toMatchObject({ status: 'sent', target: `http://${new URL(receiver.url).host}${path}?••••` });
    expect(receiver.received).toHaveLength(1);
  });
});
