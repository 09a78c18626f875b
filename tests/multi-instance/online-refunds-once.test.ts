// A refund of an online payment moves the balance back once whichever instance its forms reach (two
// built instances on one PostgreSQL and Redis): an administrator signed in on each sends the refund
// of the whole payment three times from each at once. The payment's row lock and the one open
// refund per payment hold this (lib/flows/online-top-ups/refunds.ts); each instance's memory plays
// no part. The provider refunds once and one credit note is issued for the amount.
import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/db/client';
import { invoiceReversals, invoices, onlinePaymentRefunds, onlinePayments } from '@/db/schema';
import { balanceAndLedgerSum } from '@/lib/core/billing/ledger';
import { startSimulator, type RunningSimulator } from '@/simulator/index';
import { eventually } from '../conformance/harness';
import { startApp, type RunningApp } from '../support/app-server';
import { cardTopUpPaid, recurrenteSimulatorSettings } from '../support/online-payments';
import { addPortalMember, consoleSignedIn, newConsoleUser, portalSignedIn, type ConsoleAccount } from '../support/people';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';
import { newIntegration, requiredEnv, twoInstanceEnv, type TestIntegration } from './support';

const SENT_FROM_EACH = 3;
const AMOUNT = 10_000;
const stamp = Date.now().toString(36);

let testDatabase: TestDatabase;
let simulator: RunningSimulator;
let instances: RunningApp[] = [];
let integration: TestIntegration;
let billingEmail: string;
let admin: ConsoleAccount;

beforeAll(async () => {
  requiredEnv('DATABASE_URL');
  testDatabase = await useTestDatabase();
  simulator = await startSimulator({ port: 0, latencyMs: 0 });
  integration = await newIntegration(1, 0);
  billingEmail = `reembolsos-${stamp}@example.com`;
  await addPortalMember({ id: integration.id, nombre: integration.headers['x-integracion-login']!, token: integration.headers['x-integracion-token']! }, billingEmail, 'facturacion');
  admin = await newConsoleUser(`admin-reembolsos-${stamp}@example.com`, 'admin');
  const env = twoInstanceEnv(testDatabase, simulator, {
    ...recurrenteSimulatorSettings(simulator.url),
    ONLINE_TOP_UP_POLL_MS: '1000',
    FEL_ENABLED: 'true',
    FEL_CERTIFIER_BASE_URL: `${simulator.url}/fel`,
    FEL_NIT_LOOKUP_BASE_URL: `${simulator.url}/fel/receptores`,
    FEL_WORKER_INTERVAL_MS: '200',
  });
  instances = await Promise.all([startApp({ env }), startApp({ env })]);
  simulator.recurrente.setWebhookUrl(`${instances[1]!.baseUrl}/api/pagos/recurrente`);
}, PROCESS_TEST_TIMEOUT_MS * 2);

afterAll(async () => {
  await Promise.all(instances.map((app) => app.stop()));
  await simulator?.close();
  await testDatabase?.cleanup();
});

/** How long the credit and its invoice may take to show. */
const UNTIL_MS = 30_000;
const found = (value: unknown) => value !== undefined;

describe('refunding an online payment on two instances', { timeout: PROCESS_TEST_TIMEOUT_MS * 2 }, () => {
  it('the whole refund sent 3 times from each instance at once moves the balance back once, refunds once and issues one credit note', async () => {
    const billing = await portalSignedIn(instances[0]!.baseUrl, billingEmail);
    await cardTopUpPaid(billing, simulator, (AMOUNT / 100).toFixed(2));
    const payment = (await eventually(
      async () => (await (await db()).select().from(onlinePayments).where(eq(onlinePayments.integrationId, integration.id))).find((row) => row.state === 'credited'),
      found,
      UNTIL_MS,
      'the credit',
    ))!;
    await eventually(async () => (await (await db()).select().from(invoices).where(eq(invoices.ledgerEntryId, payment.ledgerEntryId!))).find((row) => row.state === 'certified'), found, UNTIL_MS, 'the invoice');
    expect((await balanceAndLedgerSum(integration.id)).balanceCentavos).toBe(AMOUNT);

    const page = `/admin/recargas/pagos/${payment.id}`;
    const admins = await Promise.all(instances.map((app) => consoleSignedIn(app.baseUrl, admin)));
    await Promise.all(
      admins.flatMap((client) =>
        Array.from({ length: SENT_FROM_EACH }, () => client.serverAction(page, 'refundOnlinePaymentAction', { pago: payment.id, motivo: 'Cobro duplicado', envio: randomUUID() })),
      ),
    );

    const after = await balanceAndLedgerSum(integration.id);
    expect(after).toEqual({ balanceCentavos: 0, ledgerSumCentavos: 0 });
    const refunds = await (await db()).select().from(onlinePaymentRefunds).where(eq(onlinePaymentRefunds.onlinePaymentId, payment.id));
    expect(refunds).toMatchObject([{ state: 'done', amountCentavos: AMOUNT }]);
    expect(simulator.recurrente.payment(payment.providerPaymentId!)!.refunded).toBe(AMOUNT);
    const notes = await (await db()).select().from(invoiceReversals).where(inArray(invoiceReversals.ledgerEntryId, refunds.map((refund) => refund.ledgerEntryId)));
    expect(notes.map((note) => [note.kind, note.amountCentavos])).toEqual([['credit_note', AMOUNT]]);
  });
});
