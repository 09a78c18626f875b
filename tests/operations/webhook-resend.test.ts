// "Reenviar" a notice sent to an integration's webhook (issue 51, point 19): the same notice queued
// again as a new delivery with the same id and the same signed bytes, so a receiver drops the copy
// by its id; audited; one resend per integration within seconds; only the integration's own webhook
// deliveries, another integration's answered as one that does not exist. The list shows each
// notice's JSON as sent.
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { alertDeliveries, auditLog, type AlertDelivery } from '@/db/schema';
import { AlertDispatcher, setAlertDispatcher } from '@/lib/reactions/alerts/dispatcher';
import { adjustBalance } from '@/lib/core/billing/ledger';
import { setIntegrationDetails } from '@/lib/flows/integration-management/details-service';
import { IntegratorNotifier, setIntegratorNotifier } from '@/lib/reactions/integrator-notifications/notifier';
import { recentNotifications, removeNotificationWebhook, setNotificationWebhook } from '@/lib/reactions/integrator-notifications/preferences';
import { RESEND_INTERVAL_SECONDS, RESEND_MESSAGES, resendNotification } from '@/lib/reactions/integrator-notifications/resend';
import { webhookDocsSettingsFrom } from '@/lib/reactions/integrator-notifications/webhook-docs';
import { webhookMarkdown } from '@/lib/reactions/integrator-notifications/webhook-markdown';
import { parseEnv } from '@/lib/root/settings';
import { subscribeReactions } from '@/lib/root/reactions';
import { sendTestNotification } from '@/lib/reactions/integrator-notifications/test-notice';
import { createTestIntegration, eventually, TEST_ACTOR } from '../conformance/harness';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

const LOCAL = { allowLocalTargets: true };
const OWNER = { kind: 'integrator', id: 91, email: 'duena@reenvio.example', integrationId: 0, integrationName: 'reenvio' } as const;

let testDb: TestDatabase;
const receivers: WebhookReceiver[] = [];
let alerts: AlertDispatcher;
let notifier: IntegratorNotifier;

beforeAll(async () => {
  // A lowered balance emits; the notice resent here is what the reactions subscribed at start write.
  subscribeReactions();
  testDb = await useTestDatabase();
});
afterAll(async () => {
  setAlertDispatcher(undefined);
  setIntegratorNotifier(undefined);
  await Promise.all(receivers.map((receiver) => receiver.close()));
  await testDb?.cleanup();
});
/** This process's dispatcher and notifier, retrying a failed delivery after `retryBaseMs` (then backing off). */
function useDispatchers(retryBaseMs: number): void {
  alerts = new AlertDispatcher({ lowBalanceDefaultCentavos: 10_000, repeatIntervalSeconds: 3_600, maxAttempts: 3, retryBaseMs, serviceName: 'Pasarela de pruebas', appEnv: 'development' });
  notifier = new IntegratorNotifier({
    webhookTimeoutMs: 2_000,
    repeatIntervalSeconds: 3_600,
    sourceOutageSeconds: 600,
    targets: LOCAL,
    serviceName: 'Pasarela de pruebas',
    appEnv: 'development',
    lowBalanceDefaultCentavos: 10_000,
    alerts: { maxAttempts: 3, retryBaseMs },
  });
  notifier.attachTo(alerts);
  setAlertDispatcher(alerts);
  setIntegratorNotifier(notifier);
}
beforeEach(() => useDispatchers(20));
afterEach(async () => {
  await alerts.stop();
  await notifier.close();
});

async function deliveriesOf(integrationId: number): Promise<AlertDelivery[]> {
  return (await database()).db.select().from(alertDeliveries).where(eq(alertDeliveries.integrationId, integrationId)).orderBy(alertDeliveries.id);
}

async function deliverAll(integrationId: number, count: number): Promise<AlertDelivery[]> {
  return eventually(
    async () => {
      await alerts.deliverDue();
      return deliveriesOf(integrationId);
    },
    (rows) => rows.length === count && rows.every((row) => row.status !== 'pending'),
    15_000,
    `deliveries of integration ${integrationId}`,
  );
}

/** An integration with a billing contact and its webhook at a local receiver that checks the signature. */
async function integrationWithWebhook(nombre: string) {
  const created = await createTestIntegration(nombre, { balanceCentavos: 20_000, tariffCentavos: 1_000 });
  const details = await setIntegrationDetails(TEST_ACTOR, created.id, { billingContactName: 'Fabio Facturas', billingContactEmail: `pagos@${nombre}.gt` });
  if (!details.ok) throw new Error(details.error.message);
  let secret = '';
  const receiver = await startWebhookReceiver(() => secret);
  receivers.push(receiver);
  const saved = await setNotificationWebhook(TEST_ACTOR, created.id, `${receiver.url}?token=abc123456789`, LOCAL);
  if (!saved.ok) throw new Error(saved.error.message);
  secret = saved.value.secret;
  return { integration: created, receiver };
}

describe('Reenviar a webhook notice', () => {
  it('queues the same notice again, with the same id and bytes, signed; audited; once per integration within seconds', async () => {
    const { integration, receiver } = await integrationWithWebhook('reenvio-a');
    const sent = await sendTestNotification(TEST_ACTOR, integration.id, notifier);
    if (!sent.ok) throw new Error(sent.error.message);
    const [original] = await deliverAll(integration.id, 1);
    expect(original!.status).toBe('sent');

    const resent = await resendNotification({ ...OWNER, integrationId: integration.id }, integration.id, original!.id, notifier);
    expect(resent).toEqual({ ok: true, value: { deliveryId: expect.any(Number), alertId: original!.alertId } });
    // Not tried yet: that one is not resent, nor anything else of this integration for a few seconds.
    expect(await resendNotification(TEST_ACTOR, integration.id, resent.ok ? resent.value.deliveryId : 0, notifier)).toMatchObject({ ok: false, error: { code: 'pending', message: RESEND_MESSAGES.notTriedYet } });
    expect(await resendNotification(TEST_ACTOR, integration.id, original!.id, notifier)).toEqual({ ok: false, error: { code: 'too_soon', message: RESEND_MESSAGES.tooSoon } });

    const rows = await deliverAll(integration.id, 2);
    expect(rows.map((row) => [row.alertId, row.channel, row.recipient, row.status])).toEqual([
      [original!.alertId, 'webhook', 'webhook', 'sent'],
      [original!.alertId, 'webhook', 'webhook', 'sent'],
    ]);
    expect(rows[1]!.payload).toBe(original!.payload);
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received.every((request) => request.signed)).toBe(true);
    expect(receiver.received[1]!.rawBody).toBe(receiver.received[0]!.rawBody);
    expect(receiver.received[1]!.headers['x-alerta-id']).toBe(original!.alertId);

    const [audit] = await (await database()).db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, String(integration.id)), eq(auditLog.action, 'integration.resend_notification')))
      .orderBy(desc(auditLog.id));
    expect(audit).toMatchObject({ targetType: 'integration', actor: expect.stringMatching(/^integrator:91 /), after: { webhook: expect.stringMatching(/\/alertas\?••••$/), reenviado: original!.alertId } });

    // The list shows each notice's JSON as it was sent.
    const listed = await recentNotifications(integration.id);
    expect(listed).toHaveLength(2);
    expect(JSON.parse(listed[0]!.payloadJson)).toEqual(JSON.parse(original!.payload));
    expect(listed[0]!.payloadJson).toContain('\n  "id": ');
  });

  it('resends a notice still being retried: a receiver just fixed need not wait for the next retry', async () => {
    // A retry due a second later: however slow the machine, the first delivery is still being retried when it is read.
    await alerts.stop();
    await notifier.close();
    useDispatchers(1_000);
    const { integration, receiver } = await integrationWithWebhook('reenvio-d');
    receiver.answers.push(500);
    const sent = await sendTestNotification(TEST_ACTOR, integration.id, notifier);
    if (!sent.ok) throw new Error(sent.error.message);
    await alerts.deliverDue();
    const [retrying] = await deliveriesOf(integration.id);
    expect([retrying!.status, retrying!.attempts]).toEqual(['pending', 1]);
    const resent = await resendNotification(TEST_ACTOR, integration.id, retrying!.id, notifier);
    expect(resent).toMatchObject({ ok: true, value: { alertId: retrying!.alertId } });
    const rows = await deliverAll(integration.id, 2);
    expect(rows.map((row) => [row.alertId, row.status])).toEqual([
      [retrying!.alertId, 'sent'],
      [retrying!.alertId, 'sent'],
    ]);
    expect(receiver.received.map((request) => request.answered)).toEqual([500, 204, 204]);
  });

  it('resends only the integration’s own webhook deliveries, to a webhook it still has', async () => {
    const { integration } = await integrationWithWebhook('reenvio-b');
    const other = await integrationWithWebhook('reenvio-c');
    await adjustBalance(TEST_ACTOR, integration.id, -15_000, 'Baja a Q 50.00');
    const rows = await deliverAll(integration.id, 2);
    const email = rows.find((row) => row.channel === 'email')!;
    const webhook = rows.find((row) => row.channel === 'webhook')!;
    expect(await resendNotification(TEST_ACTOR, integration.id, email.id, notifier)).toEqual({ ok: false, error: { code: 'not_webhook', message: RESEND_MESSAGES.notWebhook } });
    // Another integration's delivery reads exactly as one that does not exist.
    expect(await resendNotification(TEST_ACTOR, other.integration.id, webhook.id, notifier)).toEqual({ ok: false, error: { code: 'not_found', message: RESEND_MESSAGES.notFound } });
    expect(await resendNotification(TEST_ACTOR, other.integration.id, 2_000_000_000, notifier)).toEqual({ ok: false, error: { code: 'not_found', message: RESEND_MESSAGES.notFound } });
    expect((await removeNotificationWebhook(TEST_ACTOR, integration.id)).ok).toBe(true);
    expect(await resendNotification(TEST_ACTOR, integration.id, webhook.id, notifier)).toEqual({ ok: false, error: { code: 'no_webhook', message: RESEND_MESSAGES.noWebhook } });
    expect(await deliveriesOf(integration.id)).toHaveLength(2);
    expect(await deliveriesOf(other.integration.id)).toHaveLength(0);
  });
});

describe('the webhook documentation', () => {
  it('says what «Reenviar» sends and how often, as the code does', () => {
    const markdown = webhookMarkdown(webhookDocsSettingsFrom(parseEnv({})));
    expect(markdown).toContain('el mismo `id` y el mismo cuerpo, firmado de nuevo');
    expect(markdown).toContain(`cada ${RESEND_INTERVAL_SECONDS} segundos`);
  });
});
