// Issue 14, point 7, through the built app (`node server.mjs`): billed catalog lookups over HTTP
// take an integration's balance below its threshold and then below its tariff. The app itself
// notices it at settlement and delivers the alerts to a webhook receiver this file starts: exactly
// one signed "saldo bajo", and exactly one "saldo agotado" once a lookup can no longer be paid and
// answers 402. Nobody calls the delivery loop here: the app started it. Its webhook URL holds a
// token in the path and in the query (issue 21, point 6): the app delivers to the whole URL, and
// stores, logs and shows support staff only its description.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertDeliveries } from '@/db/schema';
import { CATALOG_MESSAGES } from '@/lib/contract/messages';
import { setLowBalanceAlert } from '@/lib/flows/integration-management/service';
import { createConsoleUser } from '@/lib/flows/auth/users';
import { ConsoleClient } from '../support/console-client';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';
import { header, startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';
import { createTestIntegration, eventually, expectErrorBody, ROUTES, startGateway, TEST_ACTOR, type Gateway, type TestIntegration } from '../conformance/harness';

const SECRET = 'webhook-secret-for-the-app-alert-test-0123456789';
const TARIFF = 100;
/** Q 5.00, the integration's own threshold: the balance goes 7.50 → 6.50 → 5.50 → 4.50 (low) … 0.50 (exhausted). */
const THRESHOLD = 500;
const START_BALANCE = 750;
const PATH_TOKEN = 'Tk0PathSegmentSecret123';
const QUERY_TOKEN = 'query-token-secret-456';

let testDb: TestDatabase;
let receiver: WebhookReceiver;
let gateway: Gateway;
let acme: TestIntegration;
let support: { email: string; password: string };

beforeAll(async () => {
  testDb = await useTestDatabase();
  receiver = await startWebhookReceiver(SECRET);
  acme = await createTestIntegration('acme-alertas-app', { tariffCentavos: TARIFF, balanceCentavos: START_BALANCE });
  const threshold = await setLowBalanceAlert(TEST_ACTOR, acme.id, THRESHOLD);
  if (!threshold.ok) throw new Error(threshold.error.message);
  const created = await createConsoleUser(TEST_ACTOR, { email: 'soporte-alertas-app@example.com', name: 'Soporte', role: 'support', mustChangePassword: false });
  if (!created.ok) throw new Error('could not create the support user');
  support = { email: created.value.user.email, password: created.value.password };
  gateway = await startGateway(testDb, {
    env: { ALERT_WEBHOOK_URL: `${receiver.url}/${PATH_TOKEN}?token=${QUERY_TOKEN}`, ALERT_WEBHOOK_SECRET: SECRET, RATE_LIMIT_CATALOG_PER_MINUTE: '1000' },
  });
}, PROCESS_TEST_TIMEOUT_MS);

afterAll(async () => {
  await gateway?.stop();
  await receiver?.close();
  await testDb?.cleanup();
});

describe('alerts from the running app', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  const lookup = () => gateway.call(ROUTES.omisos, { as: acme, json: { nit: gateway.sample.individual.nit } });
  const low = () => `balance_low:${acme.id}`;
  const exhausted = () => `balance_exhausted:${acme.id}`;

  it('sends one signed "saldo bajo" when lookups take the balance below the threshold', async () => {
    // Q 6.50 and Q 5.50: still at or above Q 5.00.
    for (let i = 0; i < 2; i++) expect((await lookup()).status).toBe(200);
    // Q 4.50: below it.
    expect((await lookup()).status).toBe(200);
    const [alert] = await eventually(async () => receiver.about(low()), (requests) => requests.length > 0, 15_000, 'the low-balance alert');
    expect(alert!.signed).toBe(true);
    expect(alert!.answered).toBe(204);
    expect(header(alert!.headers['x-alerta-id'])).toBe(alert!.body.id);
    expect(alert!.body).toMatchObject({
      tipo: 'saldo_bajo',
      titulo: 'Saldo bajo: acme-alertas-app (Q 4.50)',
      integracion: { id: acme.id, nombre: 'acme-alertas-app', saldo_centavos: 450, umbral_centavos: THRESHOLD, tarifa_centavos: TARIFF },
    });
    expect(receiver.about(exhausted())).toHaveLength(0);
  });

  it('sends one "saldo agotado" when the balance can no longer pay a lookup, which then answers 402', async () => {
    // Q 3.50, 2.50, 1.50: still low (already alerted); Q 0.50: below the Q 1.00 tariff.
    for (let i = 0; i < 4; i++) expect((await lookup()).status).toBe(200);
    for (let i = 0; i < 2; i++) expectErrorBody(await lookup(), 402, 'message', CATALOG_MESSAGES.balanceExhausted);
    const [alert] = await eventually(async () => receiver.about(exhausted()), (requests) => requests.length > 0, 15_000, 'the exhausted-balance alert');
    expect(alert!.signed).toBe(true);
    expect(alert!.body).toMatchObject({
      tipo: 'saldo_agotado',
      titulo: 'Saldo agotado: acme-alertas-app',
      integracion: { id: acme.id, saldo_centavos: 50, tarifa_centavos: TARIFF },
    });
  });

  it('wrote exactly one delivery per condition, both sent, and the receiver got nothing else', async () => {
    // The app records a delivery as sent after the receiver has answered: wait for that record.
    const deliveries = await eventually(
      () => gateway.withDatabase(async (handle) => handle.db.select().from(alertDeliveries).where(eq(alertDeliveries.integrationId, acme.id)).orderBy(alertDeliveries.id)),
      (rows) => rows.every((delivery) => delivery.status !== 'pending'),
      15_000,
      'the deliveries recorded as sent or failed',
    );
    expect(deliveries.map((delivery) => [delivery.condition, delivery.channel, delivery.status, delivery.attempts])).toEqual([
      ['balance_low', 'webhook', 'sent', 1],
      ['balance_exhausted', 'webhook', 'sent', 1],
    ]);
    expect(receiver.received.map((request) => [request.body.condicion, request.signed])).toEqual([
      [low(), true],
      [exhausted(), true],
    ]);
  });

  it('stores, logs and shows support staff the webhook as its description, never its token', async () => {
    expect(receiver.received).toHaveLength(2);
    const deliveries = await gateway.withDatabase(async (handle) => handle.db.select().from(alertDeliveries).where(eq(alertDeliveries.integrationId, acme.id)));
    // receiver.url ends in /alertas: a word, shown; the token segment and the query are not.
    expect(deliveries.map((delivery) => delivery.target)).toEqual([`${receiver.url}/…`, `${receiver.url}/…`]);

    const consoleClient = new ConsoleClient(gateway.app.baseUrl);
    expect(await consoleClient.signIn(support.email, support.password)).toBeNull();
    const page = await consoleClient.request('/admin/alertas');
    expect(page.status).toBe(200);
    expect(page.text).toContain(`${receiver.url}/…`);
    for (const text of [page.text, gateway.app.logs(), JSON.stringify(deliveries)]) {
      expect(text).not.toContain(PATH_TOKEN);
      expect(text).not.toContain(QUERY_TOKEN);
    }
  });
});
