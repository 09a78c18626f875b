// Integrator notifications across two instances on one PostgreSQL (issue 25, point 1): lookups
// spread over both drain an integration's balance below its threshold and then below its tariff;
// its billing contact (a real SMTP server this file starts) and its webhook (a real HTTP receiver)
// get each notification once, signed with the integration's own secret, delivered by whichever
// instance took it from the shared outbox.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { alertDeliveries, integrations } from '@/db/schema';
import { setIntegrationDetails } from '@/lib/flows/integration-management/details-service';
import { setLowBalanceAlert } from '@/lib/flows/integration-management/service';
import { setNotificationWebhook } from '@/lib/reactions/integrator-notifications/preferences';
import { startSimulator, type RunningSimulator } from '@/simulator/index';
import { SHOWCASE_MEMBER } from '@/simulator/population';
import { eventually } from '../conformance/harness';
import { startApp, type RunningApp } from '../support/app-server';
import { mimePart, startSmtpReceiver, type SmtpReceiver } from '../support/smtp-receiver';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';
import { countBy, newIntegration, requiredEnv, servedBy, sourceUrls, TEST_ACTOR } from './support';

const TARIFF = 100;
const OMISOS = '/api/catalogos/omisos';

let testDatabase: TestDatabase;
let simulator: RunningSimulator;
let smtp: SmtpReceiver;
const receivers: WebhookReceiver[] = [];
const apps: RunningApp[] = [];

beforeAll(async () => {
  requiredEnv('DATABASE_URL');
  testDatabase = await useTestDatabase();
  simulator = await startSimulator({ port: 0, latencyMs: 0 });
  smtp = await startSmtpReceiver();
  const env = {
    ...testDatabase.env,
    ...sourceUrls(simulator),
    REDIS_URL: requiredEnv('REDIS_URL'),
    RATE_LIMIT_GLOBAL_MAX: '100000',
    RATE_LIMIT_CATALOG_PER_MINUTE: '1000',
    ALERT_SMTP_HOST: '127.0.0.1',
    ALERT_SMTP_PORT: String(smtp.port),
    ALERT_EMAIL_FROM: 'avisos@pasarela.example',
    ALERT_RETRY_BASE_MS: '50',
    // The receivers listen on 127.0.0.1 (development only; production refuses this setting).
    INTEGRATOR_WEBHOOK_ALLOW_LOCAL_TARGETS: 'true',
  };
  apps.push(...(await Promise.all([startApp({ env }), startApp({ env })])));
});

afterAll(async () => {
  await Promise.all(apps.map((app) => app.stop()));
  await Promise.all(receivers.map((receiver) => receiver.close()));
  await smtp?.close();
  await simulator?.close();
  await testDatabase?.cleanup();
});

describe('a balance drained through two instances', () => {
  it('tells the billing contact and the webhook once that it is low and once that it is exhausted', async () => {
    // Q 10.50 at Q 1.00 a lookup, warned below Q 10.00: the first charge makes it low, the
    // eleventh finds it exhausted.
    const integration = await newIntegration(TARIFF, 1_050);
    expect((await setLowBalanceAlert(TEST_ACTOR, integration.id, 1_000)).ok).toBe(true);
    expect((await setIntegrationDetails(TEST_ACTOR, integration.id, { billingContactName: 'Berta Cobros', billingContactEmail: 'cobros@multi.gt', technicalContactEmail: 'tecnica@multi.gt' })).ok).toBe(true);
    const set = await setNotificationWebhook(TEST_ACTOR, integration.id, 'http://127.0.0.1:8080/avisos', { allowLocalTargets: true });
    if (!set.ok) throw new Error(set.error.message);
    const webhook = await startWebhookReceiver(set.value.secret);
    receivers.push(webhook);
    await (await database()).db.update(integrations).set({ notificationWebhookUrl: webhook.url }).where(eq(integrations.id, integration.id));
    await servedBy(apps, integration);

    const statuses: number[] = [];
    // Two at a time, one on each instance, until the balance no longer pays a lookup.
    for (let round = 0; round < 6; round++) {
      const answers = await Promise.all(
        apps.map((app) => fetch(`${app.baseUrl}${OMISOS}`, { method: 'POST', headers: integration.headers, body: JSON.stringify({ nit: SHOWCASE_MEMBER.nit }) })),
      );
      for (const answer of answers) {
        statuses.push(answer.status);
        await answer.arrayBuffer();
      }
    }
    expect(countBy(statuses, (status) => status)).toEqual({ 200: 10, 402: 2 });

    const deliveries = await eventually(
      async () => (await database()).db.select().from(alertDeliveries).where(and(eq(alertDeliveries.integrationId, integration.id), eq(alertDeliveries.audience, 'integrator'))),
      (rows) => rows.length === 4 && rows.every((row) => row.status === 'sent'),
      60_000,
      'the notifications sent',
    );
    expect(countBy(deliveries, (row) => `${row.condition} ${row.channel}`)).toEqual({
      'balance_low email': 1,
      'balance_low webhook': 1,
      'balance_exhausted email': 1,
      'balance_exhausted webhook': 1,
    });
    expect(smtp.to('cobros@multi.gt').map((mail) => mail.subject).sort()).toEqual([
      '[Pasarela de consultas de contribuyentes] Su saldo está bajo',
      '[Pasarela de consultas de contribuyentes] Su saldo se agotó',
    ]);
    expect(mimePart(smtp.to('cobros@multi.gt')[0]!.raw, 'text/plain')!.body.toString('utf8')).toContain('Hola, Berta Cobros:');
    expect(smtp.to('tecnica@multi.gt')).toHaveLength(0);
    expect(webhook.received.map((request) => [request.body.tipo, request.signed]).sort()).toEqual([
      ['saldo_agotado', true],
      ['saldo_bajo', true],
    ]);
  });
});
