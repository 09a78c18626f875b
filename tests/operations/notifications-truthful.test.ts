// Issue 32, point 3: notifications say what really happens. Through the same outbox and delivery
// loop as the app, against receivers this file starts: e-mails due on a service without a mail
// server listed as not sent; the webhook read back after saving (in the audit and on its
// deliveries) with its query masked.
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { alertDeliveries, auditLog, integrations, type AlertDelivery } from '@/db/schema';
import { AlertDispatcher, setAlertDispatcher } from '@/lib/alerts/dispatcher';
import type { AlertSettings } from '@/lib/alerts/settings';
import { adjustBalance } from '@/lib/billing/ledger';
import { setIntegrationDetails } from '@/lib/integration-details/service';
import { IntegratorNotifier, setIntegratorNotifier } from '@/lib/integrator-notifications/notifier';
import { recentNotifications, setNotificationOptOuts, setNotificationWebhook, kindsFor } from '@/lib/integrator-notifications/preferences';
import type { NotificationSettings } from '@/lib/integrator-notifications/settings';
import { createTestIntegration, eventually, TEST_ACTOR } from '../conformance/harness';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

const LOCAL = { allowLocalTargets: true };

let testDb: TestDatabase;
const receivers: WebhookReceiver[] = [];
let alerts: AlertDispatcher;
let notifier: IntegratorNotifier;

beforeAll(async () => {
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

/** An instance without a mail server (no ALERT_SMTP_HOST), as the e2e deployment and many others run. */
function instance(overrides: Partial<NotificationSettings> = {}, alertOverrides: Partial<AlertSettings> = {}) {
  const dispatcher = new AlertDispatcher({
    lowBalanceDefaultCentavos: 10_000,
    repeatIntervalSeconds: 3_600,
    maxAttempts: 3,
    retryBaseMs: 20,
    serviceName: 'Pasarela de pruebas',
    appEnv: 'development',
    ...alertOverrides,
  });
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
    expect(rows[0]!.lastError).toBe('correo no configurado en este servicio (ALERT_SMTP_HOST)');
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
