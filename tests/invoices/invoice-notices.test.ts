// An integrator is told when its top-up's FEL invoice is certified: its webhook gets
// `factura_emitida` with SAT's numbers, and its billing contact an e-mail with the invoice's PDF,
// against real receivers (an SMTP server, an HTTP server) and the certifier simulator. The invoice
// worker emits; the reaction subscribed in the composition root tells, once per invoice however
// often the event is heard.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database, db } from '@/db/client';
import { alertDeliveries, integrations, invoices, type AlertDelivery } from '@/db/schema';
import type { Actor } from '@/lib/core/audit/audit';
import { topUp } from '@/lib/core/billing/ledger';
import { setIntegrationDetails } from '@/lib/flows/integration-management/details-service';
import { invoiceCertified } from '@/lib/flows/invoicing/events';
import { invoicesInQueue } from '@/lib/flows/invoicing/queue';
import { certifierOf, issuerOf } from '@/lib/flows/invoicing/settings';
import { createInvoiceWorker } from '@/lib/flows/invoicing/worker';
import { env } from '@/lib/platform/env';
import { AlertDispatcher, setAlertDispatcher } from '@/lib/reactions/alerts/dispatcher';
import { IntegratorNotifier, setIntegratorNotifier } from '@/lib/reactions/integrator-notifications/notifier';
import { setNotificationWebhook } from '@/lib/reactions/integrator-notifications/preferences';
import { subscribeReactions } from '@/lib/root/reactions';
import { startSimulator, type RunningSimulator } from '../../simulator/server';
import { createTestIntegration, eventually, TEST_ACTOR } from '../conformance/harness';
import { pdfTextLines } from '../support/pdf-text';
import { mimePart, startSmtpReceiver, type SmtpReceiver } from '../support/smtp-receiver';
import { resetEnvCache, useTestDatabase, type TestDatabase } from '../support/test-database';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

const ADMIN: Actor = { kind: 'user', id: 9, email: 'admin@servicio.example' };

let testDatabase: TestDatabase;
let simulator: RunningSimulator;
let smtp: SmtpReceiver;
let webhook: WebhookReceiver;
let alerts: AlertDispatcher;
let notifier: IntegratorNotifier;

beforeAll(async () => {
  // The worker emits; what this file checks is what the reactions subscribed at start do.
  subscribeReactions();
  testDatabase = await useTestDatabase();
  simulator = await startSimulator({ port: 0 });
  smtp = await startSmtpReceiver();
  Object.assign(process.env, { FEL_ENABLED: 'true', FEL_CERTIFIER_BASE_URL: `${simulator.url}/fel`, FEL_NIT_LOOKUP_BASE_URL: `${simulator.url}/fel/receptores` });
  resetEnvCache();
  alerts = new AlertDispatcher({ lowBalanceDefaultCentavos: 10_000, repeatIntervalSeconds: 3_600, maxAttempts: 3, retryBaseMs: 20, serviceName: 'Pasarela de pruebas', appEnv: 'development' });
  notifier = new IntegratorNotifier({
    email: { host: '127.0.0.1', port: smtp.port, secure: false, requireTls: false, from: 'avisos@pasarela.example' },
    webhookTimeoutMs: 2_000,
    repeatIntervalSeconds: 3_600,
    sourceOutageSeconds: 600,
    targets: { allowLocalTargets: true },
    serviceName: 'Pasarela de pruebas',
    appEnv: 'development',
    lowBalanceDefaultCentavos: 10_000,
    alerts: { maxAttempts: 3, retryBaseMs: 20 },
    portalUrl: 'https://pasarela.example/portal',
  });
  notifier.attachTo(alerts);
  setAlertDispatcher(alerts);
  setIntegratorNotifier(notifier);
});

afterAll(async () => {
  await alerts?.stop();
  await notifier?.close();
  setAlertDispatcher(undefined);
  setIntegratorNotifier(undefined);
  await webhook?.close();
  await smtp?.close();
  await simulator?.close();
  await testDatabase?.cleanup();
});

async function deliveriesOf(integrationId: number): Promise<AlertDelivery[]> {
  return (await database()).db.select().from(alertDeliveries).where(eq(alertDeliveries.integrationId, integrationId)).orderBy(alertDeliveries.id);
}

describe('a certified invoice', () => {
  it('reaches the webhook as factura_emitida and the billing contact with its PDF, once', async () => {
    const created = await createTestIntegration('avisos-factura', { balanceCentavos: 0 });
    const details = await setIntegrationDetails(TEST_ACTOR, created.id, {
      technicalContactName: 'Tania Técnica',
      technicalContactEmail: 'tecnica@avisos-factura.gt',
      billingContactName: 'Fabio Facturas',
      billingContactEmail: 'pagos@avisos-factura.gt',
    });
    expect(details.ok).toBe(true);
    const set = await setNotificationWebhook(TEST_ACTOR, created.id, 'http://127.0.0.1:8080/pendiente', { allowLocalTargets: true });
    if (!set.ok) throw new Error(set.error.message);
    webhook = await startWebhookReceiver(set.value.secret);
    await (await db()).update(integrations).set({ notificationWebhookUrl: webhook.url }).where(eq(integrations.id, created.id));

    const credited = await topUp(ADMIN, created.id, 11_200, 'Depósito 5521');
    if (!credited.ok) throw new Error(credited.error.message);
    const settings = env();
    const worker = createInvoiceWorker({ certifier: certifierOf(settings)!, issuer: issuerOf(settings)!, name: 'avisos', leaseSeconds: 30 });
    await eventually(async () => (await worker.runOnce(), invoicesInQueue()), (left) => left === 0, 20_000, 'the invoice certified');
    const [invoice] = await (await db()).select().from(invoices).where(eq(invoices.ledgerEntryId, credited.value.entry.id));
    expect(invoice!.state).toBe('certified');

    // Heard again (a second instance, a retry): the key holds, nothing more is queued.
    await invoiceCertified.emit({ invoiceId: invoice!.id, integrationId: created.id });
    await invoiceCertified.emit({ invoiceId: invoice!.id, integrationId: created.id });
    const delivered = await eventually(
      async () => (await alerts.deliverDue(), deliveriesOf(created.id)),
      (rows) => rows.length > 0 && rows.every((row) => row.status !== 'pending'),
      15_000,
      'the invoice notices delivered',
    );
    const notices = delivered.filter((row) => row.condition === 'invoice_issued');
    expect(notices.map((row) => [row.channel, row.status, row.target]).sort()).toEqual([
      ['email', 'sent', 'pagos@avisos-factura.gt'],
      ['webhook', 'sent', expect.stringContaining('127.0.0.1')],
    ]);

    const received = webhook.about(`factura_emitida:${invoice!.id}`);
    expect(received).toHaveLength(1);
    expect(received[0]!.signed).toBe(true);
    expect(received[0]!.body).toMatchObject({
      tipo: 'factura_emitida',
      integracion: { id: created.id, nombre: created.nombre },
      datos: {
        factura_id: invoice!.id,
        serie: invoice!.serie,
        numero_dte: invoice!.numero,
        uuid: invoice!.uuid,
        monto_total_centavos: 11_200,
        monto_gravable_centavos: 10_000,
        iva_centavos: 1_200,
        factura_url: `https://pasarela.example/portal/facturas/${invoice!.id}`,
      },
    });

    const mails = smtp.to('pagos@avisos-factura.gt');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe(`[Pasarela de pruebas] Factura ${invoice!.serie}-${invoice!.numero} emitida`);
    expect(smtp.to('tecnica@avisos-factura.gt')).toHaveLength(0);
    const text = mimePart(mails[0]!.raw, 'text/plain')!.body.toString('utf8');
    expect(text).toContain(`Número de autorización (UUID): ${invoice!.uuid}`);
    expect(text).toContain('Total: Q 112.00');
    const attached = mimePart(mails[0]!.raw, 'application/pdf');
    expect(attached?.headers).toContain(`factura-${invoice!.serie}-${invoice!.numero}.pdf`);
    const pdf = pdfTextLines(attached!.body).join('\n');
    expect(pdf).toContain(invoice!.uuid!);
    expect(pdf).toContain('Q 112.00');
    expect(pdf).toContain('Consumidor Final');
  });
});
