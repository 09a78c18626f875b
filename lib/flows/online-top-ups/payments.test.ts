// Online top-ups' money path against the Recurrente simulator, on a real database: a card payment
// credits once (ledger, balance, audit by the portal user, FEL invoice row, the integrator's notice)
// only when the provider says so; the same webhook five times, or five at once, and reads racing
// it credit once; a bad signature changes nothing; a pending transfer settled later credits once
// and one that never arrives is reported; a read that times out leaves the top-up open for a later one.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { db } from '@/db/client';
import { alertDeliveries, auditLog, integrations, invoices, ledgerEntries, onlinePayments } from '@/db/schema';
import { balanceAndLedgerSum } from '@/lib/core/billing/ledger';
import { createRecurrenteProvider } from '@/lib/providers/payments/recurrente';
import type { PaymentProvider } from '@/lib/providers/payments/provider';
import { subscribeReactions } from '@/lib/root/reactions';
import { RECURRENTE_SIM_CUSTOMER, RECURRENTE_SIM_DEV_KEYS, RECURRENTE_SIM_TRANSFER_EXPIRY_MS } from '@/simulator/recurrente';
import { startSimulator, type RunningSimulator } from '@/simulator/server';
import { setIntegrationDetails } from '@/lib/flows/integration-management/details-service';
import { createTestIntegration, TEST_ACTOR, type TestIntegration } from '@/tests/conformance/harness';
import { useOnlinePaymentSettings } from '@/tests/support/online-payments';
import { portalReporter } from '@/tests/support/people';
import { useTestDatabase, type TestDatabase } from '@/tests/support/test-database';
import type { Reporter } from '@/lib/flows/top-ups/requests';
import { amountOutOfLimitsMessage, ONLINE_TOP_UP_MESSAGES } from './messages';
import { findOnlinePayment, pollOpenOnlinePayments, quoteOnlineTopUp, settleByRead, settleOnlinePayment, startOnlineTopUp } from './payments';
import { receivePaymentWebhook } from './webhook';
import { onlinePaymentMismatched, type MismatchedOnlinePayment } from './events';
import { paymentMismatchAlert } from '@/lib/reactions/alerts/conditions';

let testDatabase: TestDatabase;
let simulator: RunningSimulator;
let receiver: Server;
let provider: PaymentProvider;
let integration: TestIntegration;
let billing: Reporter;
let developer: Reporter;
const adapterLog: Record<string, unknown>[] = [];
/** Every delivery the receiver got, as sent, and what it answered. */
const received: { headers: Record<string, string | string[] | undefined>; rawBody: string; status: number }[] = [];

const URLS = { successUrl: (id: string) => `http://127.0.0.1:9/portal/recargas/en-linea/${id}`, cancelUrl: 'http://127.0.0.1:9/portal/recargas' };

beforeAll(async () => {
  subscribeReactions();
  testDatabase = await useTestDatabase();
  simulator = await startSimulator({ port: 0, populationSize: 1_000 });
  useOnlinePaymentSettings(simulator.url);
  provider = createRecurrenteProvider({
    apiUrl: `${simulator.url}/recurrente/api`,
    ...RECURRENTE_SIM_DEV_KEYS,
    readTimeoutMs: 500,
    now: () => simulator.recurrente.now(),
    log: (line) => adapterLog.push(line),
  });
  // What the webhook route does, on the simulator's clock (it moves hours in these tests).
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      void receivePaymentWebhook(provider, { headers: request.headers, rawBody, now: simulator.recurrente.now() }).then(
        (receipt) => {
          const status = receipt.kind === 'refused' ? 400 : 200;
          received.push({ headers: { ...request.headers }, rawBody, status });
          response.writeHead(status).end();
        },
        () => response.writeHead(500).end(),
      );
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  simulator.recurrente.setWebhookUrl(`http://127.0.0.1:${(receiver.address() as AddressInfo).port}/api/pagos/recurrente`);
  integration = await createTestIntegration('en-linea-a', { balanceCentavos: 1_000 });
  const details = await setIntegrationDetails(TEST_ACTOR, integration.id, { billingContactName: 'Fabio Facturas', billingContactEmail: 'pagos@en-linea-a.gt' });
  if (!details.ok) throw new Error(details.error.message);
  billing = await portalReporter(integration, 'pagos@en-linea-a.example', 'facturacion');
  developer = await portalReporter(integration, 'dev@en-linea-a.example', 'desarrollador');
});
afterAll(async () => {
  await new Promise((resolve) => receiver?.close(resolve));
  await simulator?.close();
  await testDatabase?.cleanup();
});
beforeEach(() => {
  simulator.recurrente.setWebhookFaults([]);
  simulator.recurrente.setApiFaults([]);
});

async function balance(): Promise<number> {
  const [row] = await (await db()).select({ balance: integrations.balanceCentavos }).from(integrations).where(eq(integrations.id, integration.id));
  return row!.balance;
}

async function started(amountCentavos = 10_000) {
  const result = await startOnlineTopUp(provider, billing, amountCentavos, URLS, simulator.recurrente.now());
  if (!result.ok) throw new Error(result.error.message);
  const [row] = await (await db()).select().from(onlinePayments).where(eq(onlinePayments.id, result.value.id));
  return { ...result.value, checkoutId: row!.checkoutId! };
}

async function entriesOf(id: string) {
  return (await db()).select().from(ledgerEntries).where(like(ledgerEntries.note, `%${id}%`));
}

async function noticesOf(condition: 'online_top_up_credited' | 'online_top_up_expired', id: string) {
  const rows = await (await db()).select().from(alertDeliveries).where(and(eq(alertDeliveries.integrationId, integration.id), eq(alertDeliveries.condition, condition)));
  return rows.map((row) => JSON.parse(row.payload) as { mensaje: string; datos: Record<string, unknown> }).filter((payload) => payload.datos.pago_id === id);
}

async function statesOf(id: string): Promise<string[]> {
  return (await findOnlinePayment(id))!.events.map((event) => event.state);
}

describe('starting an online top-up', () => {
  it('shows the fee from the settings, keeps the operator’s limits, and is for the owner and billing only', async () => {
    expect(quoteOnlineTopUp(10_000)).toEqual({ ok: true, value: { amountCentavos: 10_000, feeCentavos: 650, totalCentavos: 10_650 } });
    expect(await startOnlineTopUp(provider, billing, 4_999, URLS)).toMatchObject({ ok: false, error: { code: 'invalid', message: amountOutOfLimitsMessage(5_000, 1_000_000) } });
    expect(await startOnlineTopUp(provider, billing, 1_000_001, URLS)).toMatchObject({ ok: false, error: { code: 'invalid' } });
    expect(await startOnlineTopUp(provider, developer, 10_000, URLS)).toMatchObject({ ok: false, error: { code: 'forbidden', message: ONLINE_TOP_UP_MESSAGES.forbidden } });
    expect(await startOnlineTopUp(null, billing, 10_000, URLS)).toMatchObject({ ok: false, error: { code: 'off' } });
    const { id, checkoutId, checkoutUrl } = await started(10_000);
    expect(id).toMatch(/^recarga-[0-9a-f-]{36}$/);
    expect(checkoutUrl).toContain(checkoutId);
    // The checkout charges the amount and the fee; our id travels as its metadata.
    expect(simulator.recurrente.checkout(checkoutId)).toMatchObject({ amount: 10_650, metadata: { top_up_id: id } });
    expect(await statesOf(id)).toEqual(['created', 'checkout_open']);
  });

  it('a creation without an answer stays indeterminate, harmless, and closes at its expiry without a notice', async () => {
    simulator.recurrente.setApiFaults([{ fault: 'drop', operations: ['create_checkout'], times: 1 }]);
    const before = await balance();
    const result = await startOnlineTopUp(provider, billing, 10_000, URLS, simulator.recurrente.now());
    expect(result).toMatchObject({ ok: false, error: { code: 'unavailable', message: ONLINE_TOP_UP_MESSAGES.unavailable } });
    const [row] = await (await db()).select().from(onlinePayments).where(eq(onlinePayments.state, 'indeterminate'));
    expect(row).toMatchObject({ checkoutId: null, detail: 'checkout: connection_dropped' });
    await pollOpenOnlinePayments(provider, new Date(row!.expiresAt.getTime() + 1_000));
    expect((await findOnlinePayment(row!.id))!.payment.state).toBe('expired');
    expect(await noticesOf('online_top_up_expired', row!.id)).toEqual([]);
    expect(await balance()).toBe(before);
  });
});

describe('a card payment', () => {
  it('credits once from the verified webhook, with its ledger entry, FEL invoice row, audit by the portal user and notice', async () => {
    const before = await balance();
    const { id, checkoutId } = await started(10_000);
    expect(simulator.recurrente.completeCheckout(checkoutId, 'card_approved')).toMatchObject({ ok: true });
    await simulator.recurrente.flushWebhooks();
    expect(await balance()).toBe(before + 10_000);
    const { payment } = (await findOnlinePayment(id))!;
    expect(payment).toMatchObject({ state: 'credited', providerPaymentId: simulator.recurrente.checkout(checkoutId)!.paymentId });
    const [entry, ...more] = await entriesOf(id);
    expect(more).toEqual([]);
    expect(entry).toMatchObject({ id: payment.ledgerEntryId, kind: 'top_up', amountCentavos: 10_000, actor: expect.stringContaining('pagos@en-linea-a.example') });
    const [invoice] = await (await db()).select().from(invoices).where(eq(invoices.ledgerEntryId, entry!.id));
    expect(invoice).toMatchObject({ state: 'pending', totalCentavos: 10_000 });
    const [audit] = await (await db()).select().from(auditLog).where(and(eq(auditLog.action, 'online_top_up.credit'), eq(auditLog.targetId, String(integration.id))));
    expect(audit!.actor).toContain('pagos@en-linea-a.example');
    expect(audit!.after).toMatchObject({ onlinePaymentId: id, state: 'credited', source: 'webhook' });
    const [notice, ...otherNotices] = await noticesOf('online_top_up_credited', id);
    expect(otherNotices).toEqual([]);
    expect(notice!.mensaje).toContain('Acreditamos Q 100.00');
    expect(await statesOf(id)).toEqual(['created', 'checkout_open', 'credited']);
    const sums = await balanceAndLedgerSum(integration.id);
    expect(sums.balanceCentavos).toBe(sums.ledgerSumCentavos);
  });

  it('the browser’s return proves nothing: with no webhook nothing is credited until a server-side read', async () => {
    simulator.recurrente.setWebhookFaults([{ fault: 'never_sent' }]);
    const before = await balance();
    const { id, checkoutId } = await started(20_000);
    const paid = simulator.recurrente.completeCheckout(checkoutId, 'card_approved');
    expect(paid).toMatchObject({ ok: true, redirect: URLS.successUrl(id) });
    await simulator.recurrente.flushWebhooks();
    expect(await balance()).toBe(before);
    expect(await settleByRead(provider, id)).toMatchObject({ kind: 'credited' });
    expect(await balance()).toBe(before + 20_000);
    expect(await settleByRead(provider, id)).toEqual({ kind: 'already_credited' });
    expect(await entriesOf(id)).toHaveLength(1);
  });

  it('the same webhook 5 times, then 5 at once with 5 reads racing them, credits once', async () => {
    const before = await balance();
    const { id, checkoutId } = await started(30_000);
    simulator.recurrente.setWebhookFaults([{ fault: 'duplicate' }]);
    simulator.recurrente.completeCheckout(checkoutId, 'card_approved');
    await simulator.recurrente.flushWebhooks();
    const delivery = received.filter((entry) => entry.rawBody.includes(id)).at(-1)!;
    for (let i = 0; i < 5; i++) await receivePaymentWebhook(provider, { ...delivery, now: simulator.recurrente.now() });
    const together = await Promise.all([
      ...Array.from({ length: 5 }, () => receivePaymentWebhook(provider, { ...delivery, now: simulator.recurrente.now() })),
      ...Array.from({ length: 5 }, () => settleByRead(provider, id)),
    ]);
    expect(together.filter((outcome) => 'kind' in outcome && outcome.kind === 'credited')).toEqual([]);
    expect(await balance()).toBe(before + 30_000);
    expect(await entriesOf(id)).toHaveLength(1);
    expect(await noticesOf('online_top_up_credited', id)).toHaveLength(1);
  });

  it('five webhooks of a payment not yet credited, all at once, credit once', async () => {
    const before = await balance();
    const { id, checkoutId } = await started(40_000);
    simulator.recurrente.setWebhookFaults([{ fault: 'never_sent' }]);
    simulator.recurrente.completeCheckout(checkoutId, 'card_approved');
    await simulator.recurrente.flushWebhooks();
    // The one the simulator recorded but never sent, delivered now five times at once.
    const message = simulator.recurrente.deliveries().filter((entry) => entry.checkoutId === checkoutId).at(-1)!;
    expect(message.status).toBeNull();
    simulator.recurrente.setWebhookFaults([]);
    const outcomes = await Promise.all(Array.from({ length: 5 }, () => settleByRead(provider, id)));
    expect(outcomes.filter((outcome) => outcome.kind === 'credited')).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome.kind === 'already_credited')).toHaveLength(4);
    expect(await balance()).toBe(before + 40_000);
    expect(await entriesOf(id)).toHaveLength(1);
  });

  it('a webhook with a bad signature changes nothing and is logged without personal data', async () => {
    const before = await balance();
    const { id, checkoutId } = await started(10_000);
    simulator.recurrente.setWebhookFaults([{ fault: 'bad_signature' }]);
    simulator.recurrente.completeCheckout(checkoutId, 'card_approved');
    await simulator.recurrente.flushWebhooks();
    const refused = received.filter((entry) => entry.rawBody.includes(id));
    expect(refused.map((entry) => entry.status)).toEqual([400]);
    expect(await balance()).toBe(before);
    expect((await findOnlinePayment(id))!.payment.state).toBe('checkout_open');
    const line = adapterLog.filter((entry) => entry.operation === 'webhook' && entry.reason === 'bad_signature');
    expect(line.length).toBeGreaterThan(0);
    const logged = JSON.stringify(adapterLog);
    expect(logged).not.toContain(RECURRENTE_SIM_CUSTOMER.email);
    expect(logged).not.toContain(RECURRENTE_SIM_CUSTOMER.full_name);
    // The payment is real: a server-side read credits it.
    expect(await settleByRead(provider, id)).toMatchObject({ kind: 'credited' });
  });
});

describe('what is never credited', () => {
  const approved = (paymentId: string, amountCentavos: number) => ({ kind: 'approved' as const, paymentId, amountCentavos, currency: 'GTQ' as const, method: 'card' as const, paymentMethodId: null, feeCentavos: null, refundedCentavos: 0 });

  it('a payment of another amount than charged waits for support, and the poller leaves it', async () => {
    const before = await balance();
    const { id, checkoutId } = await started(10_000);
    expect(await settleOnlinePayment(provider, { topUpId: id, checkoutId, state: approved('pa_otromonto1', 10_000), source: 'webhook', messageId: 'msg_1' })).toEqual({ kind: 'amount_mismatch' });
    expect((await findOnlinePayment(id))!.payment).toMatchObject({ state: 'indeterminate', detail: 'amount_mismatch', providerPaymentId: 'pa_otromonto1' });
    expect(await balance()).toBe(before);
    const events = (await findOnlinePayment(id))!.events.length;
    await pollOpenOnlinePayments(provider, simulator.recurrente.now());
    expect((await findOnlinePayment(id))!.events).toHaveLength(events);
  });

  it('a validly signed webhook of a payment in dollars is refused, logged and alerted, never credited as quetzales (issue 64, point 11)', async () => {
    const told: MismatchedOnlinePayment[] = [];
    onlinePaymentMismatched.subscribe((payment) => void told.push(payment));
    const before = await balance();
    const { id, checkoutId } = await started(20_000);
    simulator.recurrente.setWebhookFaults([{ fault: 'other_currency' }]);
    simulator.recurrente.completeCheckout(checkoutId, 'card_approved');
    await simulator.recurrente.flushWebhooks();
    expect((await findOnlinePayment(id))!.payment).toMatchObject({ state: 'indeterminate', detail: 'amount_mismatch' });
    expect(await balance()).toBe(before);
    expect(await entriesOf(id)).toEqual([]);
    const [mismatch, ...more] = told.filter((payment) => payment.topUpId === id);
    expect(more).toEqual([]);
    expect(mismatch).toMatchObject({ currency: 'USD', expectedCentavos: 21_100, paidCentavos: 21_100, integrationId: integration.id });
    const alert = paymentMismatchAlert(mismatch!, { serviceName: 'Consulta', appEnv: 'production', lowBalanceDefaultCentavos: 0 });
    expect(alert).toMatchObject({ condition: 'books_mismatch', key: `books_mismatch:payment:${id}`, payload: { tipo: 'cuentas_no_cuadran' } });
    expect(alert.payload.mensaje).toContain('211.00 USD');
    expect(alert.payload.mensaje).toContain('No se acreditó nada');
  });

  it('an approved payment that names no currency is not credited either', async () => {
    const before = await balance();
    const { id, checkoutId } = await started(10_000);
    const noCurrency = { ...approved('pa_sinmoneda1', 10_650), currency: null };
    expect(await settleOnlinePayment(provider, { topUpId: id, checkoutId, state: noCurrency, source: 'read' })).toEqual({ kind: 'amount_mismatch' });
    expect(await balance()).toBe(before);
  });

  it('one provider payment credits one top-up: another claiming it is a conflict and changes nothing', async () => {
    const { id, checkoutId } = await started(10_000);
    simulator.recurrente.completeCheckout(checkoutId, 'card_approved');
    await simulator.recurrente.flushWebhooks();
    const paymentId = (await findOnlinePayment(id))!.payment.providerPaymentId!;
    const other = await started(10_000);
    const before = await balance();
    expect(await settleOnlinePayment(provider, { topUpId: other.id, checkoutId: other.checkoutId, state: approved(paymentId, 10_650), source: 'webhook' })).toEqual({ kind: 'conflict' });
    expect(await balance()).toBe(before);
    expect((await findOnlinePayment(other.id))!.payment).toMatchObject({ state: 'checkout_open', providerPaymentId: null, ledgerEntryId: null });
  });
});

describe('a bank transfer', () => {
  it('pending for hours, then settled, credits once and tells the integrator', async () => {
    const before = await balance();
    const { id, checkoutId } = await started(50_000);
    simulator.recurrente.completeCheckout(checkoutId, 'bank_transfer');
    await simulator.recurrente.flushWebhooks();
    expect((await findOnlinePayment(id))!.payment.state).toBe('pending_transfer');
    await pollOpenOnlinePayments(provider, simulator.recurrente.now());
    expect((await findOnlinePayment(id))!.payment.state).toBe('pending_transfer');
    simulator.recurrente.advanceClock(5 * 3_600_000);
    simulator.recurrente.setWebhookFaults([{ fault: 'duplicate' }]);
    expect(simulator.recurrente.settleTransfer(checkoutId)).toBe(true);
    await simulator.recurrente.flushWebhooks();
    await pollOpenOnlinePayments(provider, simulator.recurrente.now());
    expect(await balance()).toBe(before + 50_000);
    expect(await entriesOf(id)).toHaveLength(1);
    expect(await statesOf(id)).toEqual(['created', 'checkout_open', 'pending_transfer', 'credited']);
    expect((await noticesOf('online_top_up_credited', id))[0]!.mensaje).toContain('transferencia bancaria');
  });

  it('settled with its webhook lost is credited once by the poller', async () => {
    const before = await balance();
    const { id, checkoutId } = await started(60_000);
    simulator.recurrente.completeCheckout(checkoutId, 'bank_transfer');
    await simulator.recurrente.flushWebhooks();
    simulator.recurrente.setWebhookFaults([{ fault: 'never_sent' }]);
    simulator.recurrente.settleTransfer(checkoutId);
    await simulator.recurrente.flushWebhooks();
    expect(await balance()).toBe(before);
    await Promise.all([pollOpenOnlinePayments(provider, simulator.recurrente.now()), pollOpenOnlinePayments(provider, simulator.recurrente.now())]);
    expect(await balance()).toBe(before + 60_000);
    expect(await entriesOf(id)).toHaveLength(1);
  });

  it('that never arrives expires after 24 hours, is reported to the integrator, and credits nothing', async () => {
    const before = await balance();
    const { id, checkoutId } = await started(70_000);
    simulator.recurrente.completeCheckout(checkoutId, 'bank_transfer');
    await simulator.recurrente.flushWebhooks();
    simulator.recurrente.setWebhookFaults([{ fault: 'never_sent' }]);
    simulator.recurrente.advanceClock(RECURRENTE_SIM_TRANSFER_EXPIRY_MS + 60_000);
    await pollOpenOnlinePayments(provider, simulator.recurrente.now());
    await pollOpenOnlinePayments(provider, simulator.recurrente.now());
    expect((await findOnlinePayment(id))!.payment.state).toBe('expired');
    expect(await balance()).toBe(before);
    const [notice, ...more] = await noticesOf('online_top_up_expired', id);
    expect(more).toEqual([]);
    expect(notice!.mensaje).toContain('no se completó');
  });

  it('a read that times out leaves it open; a later read settles it once', async () => {
    const before = await balance();
    const { id, checkoutId } = await started(80_000);
    simulator.recurrente.completeCheckout(checkoutId, 'bank_transfer');
    await simulator.recurrente.flushWebhooks();
    simulator.recurrente.setWebhookFaults([{ fault: 'never_sent' }]);
    simulator.recurrente.settleTransfer(checkoutId);
    simulator.recurrente.setApiFaults([{ fault: 'timeout', operations: ['read_checkout'], times: 1, delayMs: 1_500 }]);
    expect(await settleByRead(provider, id)).toEqual({ kind: 'unavailable' });
    expect((await findOnlinePayment(id))!.payment.state).toBe('pending_transfer');
    expect(await balance()).toBe(before);
    expect(await settleByRead(provider, id)).toMatchObject({ kind: 'credited' });
    expect(await balance()).toBe(before + 80_000);
  });
});
