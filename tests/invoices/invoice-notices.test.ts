// An integrator is told when its top-up's FEL invoice is certified: its webhook gets
// `factura_emitida` with SAT's numbers, and its billing contact an e-mail with the invoice's PDF,
// against real receivers (an SMTP server, an HTTP server) and the certifier simulator. The invoice
// worker emits; the reaction subscribed in the composition root tells, once per invoice however
// often the event is heard. An invoice whose telling did not finish (its instance died after
// writing "certified", a listener failed) is told again by a later round, still once.
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { database, db } from '@/db/client';
import { alertDeliveries, integrations, invoices, type AlertDelivery, type Invoice } from '@/db/schema';
import type { Actor } from '@/lib/core/audit/audit';
import { topUp } from '@/lib/core/billing/ledger';
import { setIntegrationDetails } from '@/lib/flows/integration-management/details-service';
import { invoiceCertified } from '@/lib/flows/invoicing/events';
import { invoicesInQueue } from '@/lib/flows/invoicing/queue';
import { certifierOf, issuerOf } from '@/lib/flows/invoicing/settings';
import { createInvoiceWorker, type InvoiceWorkerOptions } from '@/lib/flows/invoicing/worker';
import { allSettings as env } from '@/lib/root/settings';
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
const webhooks: WebhookReceiver[] = [];
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
  await Promise.all(webhooks.map((webhook) => webhook.close()));
  await smtp?.close();
  await simulator?.close();
  await testDatabase?.cleanup();
});

async function deliveriesOf(integrationId: number): Promise<AlertDelivery[]> {
  return (await database()).db.select().from(alertDeliveries).where(eq(alertDeliveries.integrationId, integrationId)).orderBy(alertDeliveries.id);
}

/** An integration with a billing contact and a webhook this file receives, and its top-up's invoice (pending). */
async function toppedUpIntegration(name: string, centavos: number): Promise<{ integration: { id: number; nombre: string }; webhook: WebhookReceiver; invoice: Invoice }> {
  const created = await createTestIntegration(name, { balanceCentavos: 0 });
  const details = await setIntegrationDetails(TEST_ACTOR, created.id, {
    technicalContactName: 'Tania Técnica',
    technicalContactEmail: `tecnica@${name}.gt`,
    billingContactName: 'Fabio Facturas',
    billingContactEmail: `pagos@${name}.gt`,
  });
  expect(details.ok).toBe(true);
  const set = await setNotificationWebhook(TEST_ACTOR, created.id, 'http://127.0.0.1:8080/pendiente', { allowLocalTargets: true });
  if (!set.ok) throw new Error(set.error.message);
  const webhook = await startWebhookReceiver(set.value.secret);
  webhooks.push(webhook);
  await (await db()).update(integrations).set({ notificationWebhookUrl: webhook.url }).where(eq(integrations.id, created.id));
  const credited = await topUp(ADMIN, created.id, centavos, `Depósito ${name}`);
  if (!credited.ok) throw new Error(credited.error.message);
  return { integration: created, webhook, invoice: await invoiceOfEntry(credited.value.entry.id) };
}

async function invoiceOfEntry(ledgerEntryId: number): Promise<Invoice> {
  const [invoice] = await (await db()).select().from(invoices).where(eq(invoices.ledgerEntryId, ledgerEntryId));
  return invoice!;
}

async function invoiceNow(invoiceId: number): Promise<Invoice> {
  const [invoice] = await (await db()).select().from(invoices).where(eq(invoices.id, invoiceId));
  return invoice!;
}

function workerNamed(name: string, options: Partial<InvoiceWorkerOptions> = {}) {
  const settings = env();
  return createInvoiceWorker({ certifier: certifierOf(settings)!, issuer: issuerOf(settings)!, name, leaseSeconds: 30, ...options });
}

/** How often the event about one invoice is heard from now on (a listener beside the reactions'). */
function hearingOf(invoiceId: number): { count: () => number; stop: () => void } {
  let heard = 0;
  const stop = invoiceCertified.subscribe((event) => {
    if (event.invoiceId === invoiceId) heard += 1;
  });
  return { count: () => heard, stop };
}

/** Delivers what is due until the integration's deliveries are all settled; its invoice notices. */
async function invoiceNoticesOf(integrationId: number): Promise<AlertDelivery[]> {
  const delivered = await eventually(
    async () => (await alerts.deliverDue(), deliveriesOf(integrationId)),
    (rows) => rows.length > 0 && rows.every((row) => row.status !== 'pending'),
    15_000,
    'the invoice notices delivered',
  );
  return delivered.filter((row) => row.condition === 'invoice_issued');
}

describe('a certified invoice', () => {
  it('reaches the webhook as factura_emitida and the billing contact with its PDF, once', async () => {
    const { integration: created, webhook, invoice: pending } = await toppedUpIntegration('avisos-factura', 11_200);
    const worker = workerNamed('avisos', { noticeGraceSeconds: 0 });
    await eventually(async () => (await worker.runOnce(), invoicesInQueue()), (left) => left === 0, 20_000, 'the invoice certified');
    const invoice = await invoiceNow(pending.id);
    expect(invoice.state).toBe('certified');
    // Told by the round that certified it, and recorded so: later rounds tell it no more.
    expect(invoice.noticeEmittedAt).toBeInstanceOf(Date);
    const hearing = hearingOf(invoice.id);
    await worker.runOnce();
    await worker.runOnce();
    hearing.stop();
    expect(hearing.count()).toBe(0);

    // Heard again (a second instance, a retry): the key holds, nothing more is queued.
    await invoiceCertified.emit({ invoiceId: invoice.id, integrationId: created.id });
    await invoiceCertified.emit({ invoiceId: invoice.id, integrationId: created.id });
    const notices = await invoiceNoticesOf(created.id);
    expect(notices.map((row) => [row.channel, row.status, row.target]).sort()).toEqual([
      ['email', 'sent', 'pagos@avisos-factura.gt'],
      ['webhook', 'sent', expect.stringContaining('127.0.0.1')],
    ]);

    const received = webhook.about(`factura_emitida:${invoice.id}`);
    expect(received).toHaveLength(1);
    expect(received[0]!.signed).toBe(true);
    expect(received[0]!.body).toMatchObject({
      tipo: 'factura_emitida',
      integracion: { id: created.id, nombre: created.nombre },
      datos: {
        factura_id: invoice.id,
        serie: invoice.serie,
        numero_dte: invoice.numero,
        uuid: invoice.uuid,
        monto_total_centavos: 11_200,
        monto_gravable_centavos: 10_000,
        iva_centavos: 1_200,
        factura_url: `https://pasarela.example/portal/facturas/${invoice.id}`,
      },
    });

    const mails = smtp.to('pagos@avisos-factura.gt');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe(`[Pasarela de pruebas] Factura ${invoice.serie}-${invoice.numero} emitida`);
    expect(smtp.to('tecnica@avisos-factura.gt')).toHaveLength(0);
    const text = mimePart(mails[0]!.raw, 'text/plain')!.body.toString('utf8');
    expect(text).toContain(`Número de autorización (UUID): ${invoice.uuid}`);
    expect(text).toContain('Total: Q 112.00');
    const attached = mimePart(mails[0]!.raw, 'application/pdf');
    expect(attached?.headers).toContain(`factura-${invoice.serie}-${invoice.numero}.pdf`);
    const pdf = pdfTextLines(attached!.body).join('\n');
    expect(pdf).toContain(invoice.uuid!);
    expect(pdf).toContain('Q 112.00');
    expect(pdf).toContain('Consumidor Final');
  });
});

describe('a certified invoice whose telling did not finish', () => {
  it('is told by a round after the grace when its instance died between writing certified and telling, once and never again', async () => {
    const { integration, webhook, invoice } = await toppedUpIntegration('avisos-caida', 5_600);
    // What the dying instance wrote (its claim's "certified" with SAT's numbers) and nothing after.
    await (await db())
      .update(invoices)
      .set({ state: 'certified', attempts: 1, certifier: 'infile', uuid: randomUUID().toUpperCase(), serie: '4F2A1B3C', numero: '2718281', certifiedAt: sql`now()`, updatedAt: sql`now()` })
      .where(eq(invoices.id, invoice.id));
    const worker = workerNamed('avisos-caida');
    const hearing = hearingOf(invoice.id);

    // Within the grace a live instance may still be telling it: no round tells it yet.
    await worker.runOnce();
    expect(hearing.count()).toBe(0);
    expect((await invoiceNow(invoice.id)).noticeEmittedAt).toBeNull();

    // Five minutes on, the next round tells it.
    await (await db())
      .update(invoices)
      .set({ certifiedAt: sql`${invoices.certifiedAt} - interval '5 minutes'`, updatedAt: sql`${invoices.updatedAt} - interval '5 minutes'` })
      .where(eq(invoices.id, invoice.id));
    await worker.runOnce();
    expect(hearing.count()).toBe(1);
    expect((await invoiceNow(invoice.id)).noticeEmittedAt).toBeInstanceOf(Date);

    // Told: later rounds, on this instance or another, tell it no more.
    await worker.runOnce();
    await workerNamed('avisos-caida-otra').runOnce();
    hearing.stop();
    expect(hearing.count()).toBe(1);

    const notices = await invoiceNoticesOf(integration.id);
    expect(notices.map((row) => [row.channel, row.status]).sort()).toEqual([
      ['email', 'sent'],
      ['webhook', 'sent'],
    ]);
    expect(webhook.about(`factura_emitida:${invoice.id}`)).toHaveLength(1);
    expect(webhook.about(`factura_emitida:${invoice.id}`)[0]!.body).toMatchObject({ datos: { factura_id: invoice.id, serie: '4F2A1B3C', numero_dte: '2718281' } });
    expect(smtp.to('pagos@avisos-caida.gt')).toHaveLength(1);
  });

  it('stays untold when the notice could not be queued, and the next round tells it, once', async () => {
    const { integration, webhook, invoice } = await toppedUpIntegration('avisos-fallo', 22_400);
    // The notifier's queuing fails once for this invoice (the database did not answer).
    const record = notifier.record.bind(notifier);
    let failures = 1;
    const spy = vi.spyOn(notifier, 'record').mockImplementation(async (draft) => {
      if (draft.key.endsWith(`factura_emitida:${invoice.id}`) && failures-- > 0) throw new Error('la base de datos no respondió');
      return record(draft);
    });
    try {
      const worker = workerNamed('avisos-fallo', { noticeGraceSeconds: 0 });
      await eventually(async () => (await worker.runOnce(), invoicesInQueue()), (left) => left === 0, 20_000, 'the invoice certified');
      const certified = await invoiceNow(invoice.id);
      expect(certified.state).toBe('certified');
      expect(certified.noticeEmittedAt).toBeNull();
      expect((await deliveriesOf(integration.id)).filter((row) => row.condition === 'invoice_issued')).toEqual([]);

      const hearing = hearingOf(invoice.id);
      await worker.runOnce();
      expect(hearing.count()).toBe(1);
      expect((await invoiceNow(invoice.id)).noticeEmittedAt).toBeInstanceOf(Date);
      await worker.runOnce();
      hearing.stop();
      expect(hearing.count()).toBe(1);
    } finally {
      spy.mockRestore();
    }
    const notices = await invoiceNoticesOf(integration.id);
    expect(notices.map((row) => [row.channel, row.status]).sort()).toEqual([
      ['email', 'sent'],
      ['webhook', 'sent'],
    ]);
    expect(webhook.about(`factura_emitida:${invoice.id}`)).toHaveLength(1);
    expect(smtp.to('pagos@avisos-fallo.gt')).toHaveLength(1);
  });

  it('is told again when another listener failed after the notice was queued, and the notice still goes once', async () => {
    const { integration, webhook, invoice } = await toppedUpIntegration('avisos-otro', 33_600);
    let failures = 1;
    const failing = invoiceCertified.subscribe((event) => {
      if (event.invoiceId === invoice.id && failures-- > 0) throw new Error('otro oyente falló');
    });
    try {
      const worker = workerNamed('avisos-otro', { noticeGraceSeconds: 0 });
      await eventually(async () => (await worker.runOnce(), invoicesInQueue()), (left) => left === 0, 20_000, 'the invoice certified');
      expect((await invoiceNow(invoice.id)).noticeEmittedAt).toBeNull();

      const hearing = hearingOf(invoice.id);
      await worker.runOnce();
      await worker.runOnce();
      hearing.stop();
      expect(hearing.count()).toBe(1);
      expect((await invoiceNow(invoice.id)).noticeEmittedAt).toBeInstanceOf(Date);
    } finally {
      failing();
    }
    const notices = await invoiceNoticesOf(integration.id);
    expect(notices.map((row) => [row.channel, row.status]).sort()).toEqual([
      ['email', 'sent'],
      ['webhook', 'sent'],
    ]);
    expect(webhook.about(`factura_emitida:${invoice.id}`)).toHaveLength(1);
    expect(smtp.to('pagos@avisos-otro.gt')).toHaveLength(1);
  });
});
