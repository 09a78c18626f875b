// Refunding an online payment from its console page, through the built app with the Recurrente
// simulator and the FEL certifier's: support sees the payment but the server refuses them the
// refund; an administrator's two sendings at once refund once (balance, provider, credit note), and
// the page shows the refund's state; a part is refunded first, then the rest.
import { formatNit } from '@/lib/flows/integration-management/details-display';
import { FEL_SIM_CERTIFIER } from '@/simulator/fel';
import { pdfTextLines } from '../support/pdf-text';
import { ONLINE_PAYMENT_STANDING_EXPLANATIONS, ONLINE_PAYMENT_STATE_EXPLANATIONS } from '@/lib/flows/online-top-ups/labels';
import { randomUUID } from 'node:crypto';
import { asc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/db/client';
import { integrations, invoiceReversals, invoices, onlinePaymentRefunds, onlinePayments } from '@/db/schema';
import { ACTION_MESSAGES } from '@/lib/flows/auth/action';
import { formatQuetzales } from '@/lib/platform/money';
import { startSimulator, type RunningSimulator } from '@/simulator/server';
import { createTestIntegration, eventually, type TestIntegration } from '@/tests/conformance/harness';
import { startApp, type RunningApp } from '../support/app-server';
import { cardTopUpPaid, recurrenteSimulatorSettings } from '../support/online-payments';
import { addPortalMember, consoleSignedIn, newConsoleUser, portalSignedIn } from '../support/people';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';

let testDatabase: TestDatabase;
let simulator: RunningSimulator;
let app: RunningApp;
let integration: TestIntegration;
let accounts: { admin: { email: string; password: string }; support: { email: string; password: string } };

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  simulator = await startSimulator({ port: 0, populationSize: 1_000 });
  await testDatabase.use(async () => {
    integration = await createTestIntegration('reembolso-consola', { balanceCentavos: 0 });
    await addPortalMember(integration, 'conta-reembolso@example.com', 'facturacion');
    accounts = { admin: await newConsoleUser('admin-reembolso@example.com', 'admin'), support: await newConsoleUser('soporte-reembolso@example.com', 'support') };
  });
  app = await startApp({
    env: {
      ...recurrenteSimulatorSettings(simulator.url),
      RECURRENTE_PARTIAL_REFUNDS: 'true',
      ONLINE_TOP_UP_POLL_MS: '3600000',
      FEL_ENABLED: 'true',
      FEL_CERTIFIER_BASE_URL: `${simulator.url}/fel`,
      FEL_NIT_LOOKUP_BASE_URL: `${simulator.url}/fel/receptores`,
      FEL_WORKER_INTERVAL_MS: '200',
      RATE_LIMIT_SIGN_IN_PER_MINUTE: '500',
    },
  });
  simulator.recurrente.setWebhookUrl(`${app.baseUrl}/api/pagos/recurrente`);
}, PROCESS_TEST_TIMEOUT_MS);

afterAll(async () => {
  await app?.stop();
  await simulator?.close();
  await testDatabase?.cleanup();
});

/** How long the credit and its invoice may take to show. */
const UNTIL_MS = 30_000;
const found = (value: unknown) => value !== undefined;

describe('refunding an online payment in the console', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('refuses support on the server; an administrator’s double submit refunds once and the page shows it', async () => {
    const billing = await portalSignedIn(app.baseUrl, 'conta-reembolso@example.com');
    await cardTopUpPaid(billing, simulator, '100.00');
    const payment = (await eventually(
      () => app.withDatabase(async () => (await db()).select().from(onlinePayments).where(eq(onlinePayments.integrationId, integration.id)).then((rows) => rows.find((row) => row.state === 'credited'))),
      found,
      UNTIL_MS,
      'the credit',
    ))!;
    await eventually(
      () => app.withDatabase(async () => (await db()).select().from(invoices).where(eq(invoices.ledgerEntryId, payment.ledgerEntryId!)).then((rows) => rows.find((row) => row.state === 'certified'))),
      found,
      UNTIL_MS,
      'the invoice',
    );
    const balance = () => app.withDatabase(async () => (await (await db()).select().from(integrations).where(eq(integrations.id, integration.id)))[0]!.balanceCentavos);
    expect(await balance()).toBe(10_000);
    const page = `/admin/recargas/pagos/${payment.id}`;

    const support = await consoleSignedIn(app.baseUrl, accounts.support);
    const seen = await support.request(page);
    expect(seen.text).toContain('Solo un administrador puede reembolsar un pago.');
    const refused = await support.serverAction(page, 'refundOnlinePaymentAction', { pago: payment.id, motivo: 'Soporte', envio: randomUUID() });
    expect(refused.text).toContain(ACTION_MESSAGES.forbidden);
    expect(await balance()).toBe(10_000);

    const admin = await consoleSignedIn(app.baseUrl, accounts.admin);
    const form = (await admin.request(page)).text;
    expect(form).toContain('Reembolsar el pago');
    expect(form).toContain('data-testid="refund-amount"');
    // A part first, then the rest sent twice at once: each refunded once.
    await admin.serverAction(page, 'refundOnlinePaymentAction', { pago: payment.id, monto: '30.00', motivo: 'Parte no usada', envio: randomUUID() });
    expect(await balance()).toBe(7_000);
    expect((await support.request(page)).text).toContain(`Reembolsado: ${formatQuetzales(3_000)} de ${formatQuetzales(10_000)}; queda ${formatQuetzales(7_000)} por reembolsar.`);
    await Promise.all([randomUUID(), randomUUID()].map((envio) => admin.serverAction(page, 'refundOnlinePaymentAction', { pago: payment.id, motivo: 'Cobro duplicado', envio })));
    expect(await balance()).toBe(0);
    const refunds = await app.withDatabase(async () => (await db()).select().from(onlinePaymentRefunds).where(eq(onlinePaymentRefunds.onlinePaymentId, payment.id)).orderBy(asc(onlinePaymentRefunds.id)));
    expect(refunds).toMatchObject([
      { state: 'done', amountCentavos: 3_000, requestedBy: expect.stringContaining('admin-reembolso@example.com') },
      { state: 'done', amountCentavos: 7_000, requestedBy: expect.stringContaining('admin-reembolso@example.com') },
    ]);
    expect(simulator.recurrente.payment(payment.providerPaymentId!)!.refunded).toBe(10_000);
    const notes = await app.withDatabase(async () => (await db()).select().from(invoiceReversals).where(inArray(invoiceReversals.ledgerEntryId, refunds.map((refund) => refund.ledgerEntryId))));
    expect(notes.map((note) => [note.kind, note.amountCentavos]).sort()).toEqual([
      ['credit_note', 3_000],
      ['credit_note', 7_000],
    ]);
    const shown = await support.request(page);
    expect(shown.text).toContain('Reembolsado');
    expect(shown.text).toContain(`queda ${formatQuetzales(0)} por reembolsar.`);
    expect(shown.text).not.toContain('Reembolsar el pago');
    // Refunded reads refunded everywhere (issue 64, point 7): the console's badge, the portal's list and its page.
    expect(shown.text).toMatch(/data-testid="console-online-payment-state"[^>]*>Reembolsado</);
    const portalList = await billing.request('/portal/recargas');
    expect(portalList.text).toMatch(/data-testid="online-payment-state"[^>]*>Reembolsado</);
    const portalPage = await billing.request(`/portal/recargas/pagos/${payment.id}`);
    expect(portalPage.text).toMatch(/data-testid="online-payment-state"[^>]*>Reembolsado</);
    expect(portalPage.text).toContain(ONLINE_PAYMENT_STANDING_EXPLANATIONS.refunded);
    expect(portalPage.text).toMatch(/data-testid="online-payment-refunded"[^>]*>Q 100\.00, el \d\d\/\d\d\/\d{4}/);
    expect(portalPage.text).toContain('Ver la factura y su nota de crédito');
    for (const text of [portalList.text, portalPage.text]) expect(text).not.toContain(ONLINE_PAYMENT_STATE_EXPLANATIONS.credited);

    // Each credit note, certified, has its PDF: SAT's numbers, the invoice it references and the certifier as SAT names it (issue 64, point 8).
    const [invoice] = await app.withDatabase(async () => (await db()).select().from(invoices).where(eq(invoices.ledgerEntryId, payment.ledgerEntryId!)));
    await eventually(
      () => app.withDatabase(async () => (await db()).select().from(invoiceReversals).where(eq(invoiceReversals.invoiceId, invoice!.id)).then((rows) => (rows.every((row) => row.state === 'done') ? rows : undefined))),
      found,
      UNTIL_MS,
      'the credit notes certified',
    );
    const pdf = await billing.request(`/portal/facturas/${invoice!.id}/nota-de-credito/pdf`);
    expect(pdf.status).toBe(200);
    const text = pdfTextLines(pdf.bytes).join('\n');
    expect(text).toContain('Nota de crédito electrónica');
    expect(text).toContain(`${invoice!.serie}-${invoice!.numero}`);
    expect(text).toContain(`Certificador: ${FEL_SIM_CERTIFIER.name}, NIT ${formatNit(FEL_SIM_CERTIFIER.nit)}`);
    expect(text).toContain('Total acreditado');
  });
});
