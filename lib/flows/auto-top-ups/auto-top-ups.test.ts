// Automatic top-up against the Recurrente simulator, on a real database: an owner opts in with the
// card of a paid checkout; a balance under the threshold gets exactly one charge however many runs
// race for it, credited as any online payment (ledger, invoice row, audit, notice); the daily cap
// holds; an answer lost is settled by reading the charge back by its key, never by charging again;
// a charge and its retry that fail pause it, with the owner and billing contacts told.
import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { db } from '@/db/client';
import { alertDeliveries, auditLog, autoTopUpCharges, autoTopUps, integrations, invoices, ledgerEntries, onlinePayments } from '@/db/schema';
import { adjustBalance, balanceAndLedgerSum } from '@/lib/core/billing/ledger';
import { createRecurrenteProvider } from '@/lib/providers/payments/recurrente';
import type { PaymentProvider } from '@/lib/providers/payments/provider';
import { subscribeReactions } from '@/lib/root/reactions';
import { RECURRENTE_SIM_DECLINING_METHOD, RECURRENTE_SIM_DEV_KEYS } from '@/simulator/recurrente';
import { startSimulator, type RunningSimulator } from '@/simulator/server';
import { setIntegrationDetails } from '@/lib/flows/integration-management/details-service';
import { settleByRead, startOnlineTopUp } from '@/lib/flows/online-top-ups/payments';
import type { Reporter } from '@/lib/flows/top-ups/requests';
import { createTestIntegration, TEST_ACTOR, type TestIntegration } from '@/tests/conformance/harness';
import { useOnlinePaymentSettings } from '@/tests/support/online-payments';
import { portalReporter } from '@/tests/support/people';
import { useTestDatabase, type TestDatabase } from '@/tests/support/test-database';
import { autoTopUpOf, autoTopUpsInUse, cardPaymentsOf, disableAutoTopUp, enableAutoTopUp, guatemalanDayStart, IN_FLIGHT_READ_AFTER_MS, runAutoTopUps } from './auto-top-ups';
import { AUTO_TOP_UP_MESSAGES, savedCardLabel } from './messages';

let testDatabase: TestDatabase;
let simulator: RunningSimulator;
let provider: PaymentProvider;
let integration: TestIntegration;
let owner: Reporter;
let billing: Reporter;
let cardPaymentId: string;

const THRESHOLD = 20_000;
const AMOUNT = 10_000;
/** The fee of the settings below on AMOUNT: 4.5 % + Q 2.00. */
const FEE = 650;

beforeAll(async () => {
  subscribeReactions();
  testDatabase = await useTestDatabase();
  simulator = await startSimulator({ port: 0, populationSize: 1_000 });
  useOnlinePaymentSettings(simulator.url);
  provider = createRecurrenteProvider({ apiUrl: `${simulator.url}/recurrente/api`, ...RECURRENTE_SIM_DEV_KEYS, readTimeoutMs: 500, log: () => {} });
  integration = await createTestIntegration('automatica-a', { balanceCentavos: 100_000 });
  const details = await setIntegrationDetails(TEST_ACTOR, integration.id, { billingContactName: 'Fabio Facturas', billingContactEmail: 'pagos@automatica-a.gt' });
  if (!details.ok) throw new Error(details.error.message);
  owner = await portalReporter(integration, 'duena@automatica-a.example', 'propietario');
  billing = await portalReporter(integration, 'facturas@automatica-a.example', 'facturacion');
  // The card to save: an online top-up paid by card on the simulator's hosted page.
  const started = await startOnlineTopUp(provider, billing, 5_000, { successUrl: (id) => `http://127.0.0.1:9/${id}`, cancelUrl: 'http://127.0.0.1:9/' });
  if (!started.ok) throw new Error(started.error.message);
  const [row] = await (await db()).select().from(onlinePayments).where(eq(onlinePayments.id, started.value.id));
  simulator.recurrente.completeCheckout(row!.checkoutId!, 'card_approved');
  expect(await settleByRead(provider, started.value.id)).toMatchObject({ kind: 'credited' });
  cardPaymentId = started.value.id;
});
afterAll(async () => {
  await simulator?.close();
  await testDatabase?.cleanup();
});
beforeEach(() => {
  simulator.recurrente.setApiFaults([]);
});

async function balance(): Promise<number> {
  const [row] = await (await db()).select({ balance: integrations.balanceCentavos }).from(integrations).where(eq(integrations.id, integration.id));
  return row!.balance;
}

/** Lowers the balance to `centavos` as a lookup's charge would. */
async function setBalance(centavos: number): Promise<void> {
  const moved = await adjustBalance(TEST_ACTOR, integration.id, centavos - (await balance()), 'Consumo de prueba');
  if (!moved.ok) throw new Error(moved.error.message);
}

/** The automatic charges the simulator received (one per idempotency key it answered). */
function simulatorCharges() {
  return simulator.recurrente.payments().filter((payment) => payment.idempotencyKey?.startsWith('auto-'));
}

async function charges() {
  return (await db()).select().from(autoTopUpCharges).where(eq(autoTopUpCharges.integrationId, integration.id)).orderBy(autoTopUpCharges.id);
}

async function enable(dailyMax = 2) {
  const result = await enableAutoTopUp(provider, owner, { sourcePaymentId: cardPaymentId, thresholdCentavos: THRESHOLD, amountCentavos: AMOUNT, dailyMax });
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

describe('opting in', () => {
  it('is for the owner only, within the online top-up limits, with the card of a paid checkout of this integration', async () => {
    const choice = { sourcePaymentId: cardPaymentId, thresholdCentavos: THRESHOLD, amountCentavos: AMOUNT, dailyMax: 2 };
    expect(await enableAutoTopUp(provider, billing, choice)).toMatchObject({ ok: false, error: { code: 'forbidden', message: AUTO_TOP_UP_MESSAGES.forbidden } });
    expect(await enableAutoTopUp(null, owner, choice)).toMatchObject({ ok: false, error: { code: 'off' } });
    expect(await enableAutoTopUp(provider, owner, { ...choice, amountCentavos: 4_999 })).toMatchObject({ ok: false, error: { code: 'invalid' }, fieldErrors: { monto: expect.any(String) } });
    expect(await enableAutoTopUp(provider, owner, { ...choice, dailyMax: 21 })).toMatchObject({ ok: false, error: { code: 'invalid', message: AUTO_TOP_UP_MESSAGES.dailyMax } });
    expect(await enableAutoTopUp(provider, owner, { ...choice, sourcePaymentId: 'recarga-de-otra' })).toMatchObject({ ok: false, error: { code: 'invalid', message: AUTO_TOP_UP_MESSAGES.noCard } });
    // The card as its owner recognizes it: its network and last four digits, as the provider described it.
    expect(await cardPaymentsOf(integration.id)).toEqual([expect.objectContaining({ id: cardPaymentId, card: { network: 'visa', last4: '4242' } })]);
    expect(savedCardLabel({ network: 'visa', last4: '4242' }, { amountCentavos: 300_000, settledOn: '27/11/2026' })).toBe('Visa •••• 4242 (pago de Q 3,000.00 del 27/11/2026)');
    const saved = await enable();
    expect(saved).toMatchObject({ state: 'active', thresholdCentavos: THRESHOLD, amountCentavos: AMOUNT, dailyMax: 2, paymentMethodId: expect.stringMatching(/^pay_m_/), cardNetwork: 'visa', cardLast4: '4242' });
    const [audit] = await (await db()).select().from(auditLog).where(and(eq(auditLog.action, 'auto_top_up.enable'), eq(auditLog.targetId, String(integration.id))));
    expect(audit!.actor).toContain('duena@automatica-a.example');
    expect(await autoTopUpsInUse()).toEqual([expect.objectContaining({ integrationId: integration.id, state: 'active' })]);
  });
});

describe('the charge', () => {
  it('nothing while the balance is over the threshold; under it, one charge however many runs race, credited as an online payment', async () => {
    await enable(2);
    expect(await runAutoTopUps(provider)).toMatchObject({ charged: 0 });
    await setBalance(THRESHOLD - 1);
    const runs = await Promise.all([runAutoTopUps(provider), runAutoTopUps(provider), runAutoTopUps(provider)]);
    expect(runs.reduce((sum, run) => sum + run.charged, 0)).toBe(1);
    expect(simulatorCharges()).toHaveLength(1);
    expect(simulatorCharges()[0]).toMatchObject({ amount: AMOUNT + FEE, status: 'succeeded' });
    expect(await balance()).toBe(THRESHOLD - 1 + AMOUNT);
    const [charge, ...more] = await charges();
    expect(more).toEqual([]);
    expect(charge).toMatchObject({ state: 'credited', attempt: 1 });
    const [payment] = await (await db()).select().from(onlinePayments).where(eq(onlinePayments.id, charge!.onlinePaymentId));
    expect(payment).toMatchObject({ state: 'credited', providerPaymentId: simulatorCharges()[0]!.id });
    const [entry] = await (await db()).select().from(ledgerEntries).where(like(ledgerEntries.note, `%${payment!.id}%`));
    expect(entry).toMatchObject({ id: payment!.ledgerEntryId, kind: 'top_up', amountCentavos: AMOUNT, actor: expect.stringContaining('duena@automatica-a.example') });
    const [invoice] = await (await db()).select().from(invoices).where(eq(invoices.ledgerEntryId, entry!.id));
    expect(invoice).toMatchObject({ totalCentavos: AMOUNT });
    const notices = await (await db()).select().from(alertDeliveries).where(and(eq(alertDeliveries.integrationId, integration.id), eq(alertDeliveries.condition, 'online_top_up_credited')));
    expect(notices.filter((row) => row.payload.includes(payment!.id))).toHaveLength(1);
    const sums = await balanceAndLedgerSum(integration.id);
    expect(sums.balanceCentavos).toBe(sums.ledgerSumCentavos);
  });

  it('respects the daily cap, counted in Guatemala’s day', async () => {
    // The cap counts the day's charges, whatever setting made them: room for two more today.
    await enable((await autoTopUpOf(integration.id)).chargesToday + 2);
    const before = (await charges()).length;
    await setBalance(THRESHOLD - 1);
    expect(await runAutoTopUps(provider)).toMatchObject({ charged: 1, credited: 1 });
    await setBalance(THRESHOLD - 1);
    expect(await runAutoTopUps(provider)).toMatchObject({ charged: 1, credited: 1 });
    await setBalance(THRESHOLD - 1);
    expect(await runAutoTopUps(provider)).toMatchObject({ charged: 0 });
    expect(await balance()).toBe(THRESHOLD - 1);
    expect((await autoTopUpOf(integration.id)).chargesToday).toBeGreaterThanOrEqual(2);
    const tomorrow = new Date(guatemalanDayStart(new Date()).getTime() + 86_400_000 + 60_000);
    expect(await runAutoTopUps(provider, { now: tomorrow })).toMatchObject({ charged: 1, credited: 1 });
    expect((await charges()).length).toBe(before + 3);
    expect(guatemalanDayStart(new Date('2026-11-28T05:59:00Z')).toISOString()).toBe('2026-11-27T06:00:00.000Z');
  });

  it('an answer lost is read back by its key: charged once, credited once; one never made is failed and retried', async () => {
    await enable(20);
    await setBalance(THRESHOLD - 1);
    simulator.recurrente.setApiFaults([{ fault: 'server_error_after_work', operations: ['charge'], times: 1 }]);
    const keysBefore = simulatorCharges().length;
    expect(await runAutoTopUps(provider)).toMatchObject({ charged: 1, credited: 0, failed: 0 });
    const [inFlight] = (await charges()).slice(-1);
    expect(inFlight).toMatchObject({ state: 'in_flight', detail: 'indeterminate: provider_error' });
    // While it is in flight nothing else is charged.
    expect(await runAutoTopUps(provider)).toMatchObject({ charged: 0 });
    const later = new Date(Date.now() + IN_FLIGHT_READ_AFTER_MS + 60_000);
    expect(await runAutoTopUps(provider, { now: later })).toMatchObject({ credited: 1, charged: 0 });
    expect(simulatorCharges().length).toBe(keysBefore + 1);
    expect(simulator.recurrente.payments().filter((payment) => payment.idempotencyKey === inFlight!.idempotencyKey)).toHaveLength(1);
    expect(await balance()).toBe(THRESHOLD - 1 + AMOUNT);

    await setBalance(THRESHOLD - 1);
    simulator.recurrente.setApiFaults([{ fault: 'server_error', operations: ['charge'], times: 1 }]);
    expect(await runAutoTopUps(provider, { retryAfterMs: 0 })).toMatchObject({ charged: 1, credited: 0 });
    expect(await runAutoTopUps(provider, { now: new Date(Date.now() + IN_FLIGHT_READ_AFTER_MS + 60_000), retryAfterMs: 0 })).toMatchObject({ failed: 1, charged: 1, credited: 1 });
    const [failed, retried] = (await charges()).slice(-2);
    expect(failed).toMatchObject({ state: 'failed', attempt: 1, detail: 'not made' });
    expect(retried).toMatchObject({ state: 'credited', attempt: 2 });
    expect(await balance()).toBe(THRESHOLD - 1 + AMOUNT);
  });

  it('a declined charge is retried once, after the wait; then it pauses and the owner and billing contacts are told', async () => {
    await enable(20);
    await (await db()).update(autoTopUps).set({ paymentMethodId: RECURRENTE_SIM_DECLINING_METHOD }).where(eq(autoTopUps.integrationId, integration.id));
    await setBalance(THRESHOLD - 1);
    expect(await runAutoTopUps(provider, { retryAfterMs: 60_000 })).toMatchObject({ charged: 1, failed: 1, paused: 0 });
    // The retry waits.
    expect(await runAutoTopUps(provider, { retryAfterMs: 60_000 })).toMatchObject({ charged: 0 });
    expect(await runAutoTopUps(provider, { retryAfterMs: 60_000, now: new Date(Date.now() + 61_000) })).toMatchObject({ charged: 1, failed: 1, paused: 1 });
    const [first, second] = (await charges()).slice(-2);
    expect(first).toMatchObject({ state: 'failed', attempt: 1, detail: 'declined: Fondos insuficientes.' });
    expect(second).toMatchObject({ state: 'failed', attempt: 2 });
    const { setting } = await autoTopUpOf(integration.id);
    expect(setting).toMatchObject({ state: 'paused', pausedReason: 'declined: Fondos insuficientes.' });
    expect(await balance()).toBe(THRESHOLD - 1);
    const [payment] = await (await db()).select().from(onlinePayments).where(eq(onlinePayments.id, second!.onlinePaymentId));
    expect(payment).toMatchObject({ state: 'expired', ledgerEntryId: null });
    const told = await (await db()).select().from(alertDeliveries).where(and(eq(alertDeliveries.integrationId, integration.id), eq(alertDeliveries.condition, 'auto_top_up_paused')));
    expect(told.filter((row) => row.channel === 'email').map((row) => row.target).sort()).toEqual(['duena@automatica-a.example', 'pagos@automatica-a.gt']);
    expect(JSON.parse(told[0]!.payload)).toMatchObject({ tipo: 'recarga_automatica_en_pausa', datos: { motivo: 'declined: Fondos insuficientes.' } });
    // Paused: nothing more is charged, however long it waits.
    expect(await runAutoTopUps(provider, { retryAfterMs: 0, now: new Date(Date.now() + 86_400_000) })).toMatchObject({ charged: 0 });
    const [pause] = await (await db()).select().from(auditLog).where(and(eq(auditLog.action, 'auto_top_up.pause'), eq(auditLog.targetId, String(integration.id))));
    expect(pause).toBeDefined();
    // The owner acts: resumed with the card again (audited as a resume), it charges at once.
    expect(await enableAutoTopUp(provider, owner, { sourcePaymentId: cardPaymentId, thresholdCentavos: THRESHOLD, amountCentavos: AMOUNT, dailyMax: 20 })).toMatchObject({ ok: true, value: { state: 'active', pausedReason: null } });
    const [resume] = await (await db()).select().from(auditLog).where(and(eq(auditLog.action, 'auto_top_up.resume'), eq(auditLog.targetId, String(integration.id))));
    expect(resume!.actor).toContain('duena@automatica-a.example');
    expect(await runAutoTopUps(provider)).toMatchObject({ charged: 1, credited: 1 });
  });

  it('turned off by the owner, nothing more is charged', async () => {
    await enable(20);
    expect(await disableAutoTopUp(billing)).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(await disableAutoTopUp(owner)).toMatchObject({ ok: true, value: { state: 'off' } });
    const [audit] = await (await db()).select().from(auditLog).where(and(eq(auditLog.action, 'auto_top_up.disable'), eq(auditLog.targetId, String(integration.id))));
    expect(audit!.actor).toContain('duena@automatica-a.example');
    await setBalance(THRESHOLD - 1);
    expect(await runAutoTopUps(provider)).toMatchObject({ charged: 0 });
    expect(await autoTopUpsInUse()).toEqual([]);
    expect(await disableAutoTopUp(owner)).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });
});
