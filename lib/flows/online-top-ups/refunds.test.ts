// Refunding a credited online payment, on a real database and against the Recurrente simulator:
// the balance moves back once (a double submit refunds once), the provider is asked once, an
// unclear answer is settled by reading the payment, a refusal gives the amount back once, the
// invoice's credit note is written, the balance never goes below zero, and support is refused.
import { eq, inArray, like } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { db } from '@/db/client';
import { auditLog, integrations, invoiceReversals, invoices, ledgerEntries, onlinePayments } from '@/db/schema';
import type { Actor } from '@/lib/core/audit/audit';
import { adjustBalance, balanceAndLedgerSum } from '@/lib/core/billing/ledger';
import { certifierOf, issuerOf } from '@/lib/flows/invoicing/settings';
import { createInvoiceWorker } from '@/lib/flows/invoicing/worker';
import { invoicesInQueue } from '@/lib/flows/invoicing/queue';
import { allSettings as env } from '@/lib/root/settings';
import { createRecurrenteProvider } from '@/lib/providers/payments/recurrente';
import type { PaymentProvider } from '@/lib/providers/payments/provider';
import type { FelCertifier } from '@/lib/providers/fel/certifier';
import { RECURRENTE_SIM_DEV_KEYS } from '@/simulator/recurrente';
import { startSimulator, type RunningSimulator } from '@/simulator/server';
import { createTestIntegration, type TestIntegration } from '@/tests/conformance/harness';
import { useOnlinePaymentSettings } from '@/tests/support/online-payments';
import { portalReporter } from '@/tests/support/people';
import { useTestDatabase, type TestDatabase } from '@/tests/support/test-database';
import type { Reporter } from '@/lib/flows/top-ups/requests';
import { REFUND_MESSAGES, refundBalanceSpentMessage, refundOverLeftMessage } from './messages';
import { pollOpenOnlinePayments, settleByRead, startOnlineTopUp } from './payments';
import { refundsOfOnlinePayment, refundOnlinePayment, retryRefundCreditNote, settleRefundByRead, type RefundStaff } from './refunds';

const ADMIN: RefundStaff = { role: 'admin', actor: { kind: 'user', id: 7, email: 'admin-reembolsos@servicio.example' } };
const SUPPORT: RefundStaff = { role: 'support', actor: { kind: 'user', id: 8, email: 'soporte@servicio.example' } };

let testDatabase: TestDatabase;
let simulator: RunningSimulator;
let provider: PaymentProvider;
/** The same adapter with partial refunds on (RECURRENTE_PARTIAL_REFUNDS). */
let partial: PaymentProvider;
let integration: TestIntegration;
let billing: Reporter;

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  simulator = await startSimulator({ port: 0, populationSize: 1_000 });
  useOnlinePaymentSettings(simulator.url);
  partial = createRecurrenteProvider({ apiUrl: `${simulator.url}/recurrente/api`, ...RECURRENTE_SIM_DEV_KEYS, partialRefunds: true, timeoutMs: 300, readTimeoutMs: 500, now: () => simulator.recurrente.now(), log: () => {} });
  provider = createRecurrenteProvider({ apiUrl: `${simulator.url}/recurrente/api`, ...RECURRENTE_SIM_DEV_KEYS, timeoutMs: 300, readTimeoutMs: 500, now: () => simulator.recurrente.now(), log: () => {} });
  integration = await createTestIntegration('reembolsos-a', { balanceCentavos: 0 });
  billing = await portalReporter(integration, 'pagos@reembolsos-a.example', 'facturacion');
});
afterAll(async () => {
  await simulator?.close();
  await testDatabase?.cleanup();
});
beforeEach(() => {
  simulator.recurrente.setWebhookFaults([{ fault: 'never_sent' }]);
  simulator.recurrente.setApiFaults([]);
});

async function balance(): Promise<number> {
  const [row] = await (await db()).select({ balance: integrations.balanceCentavos }).from(integrations).where(eq(integrations.id, integration.id));
  return row!.balance;
}

/** A card payment credited by a read, its invoice certified by the worker. */
async function creditedPayment(amountCentavos: number): Promise<{ id: string; invoiceId: number; providerPaymentId: string }> {
  const started = await startOnlineTopUp(provider, billing, amountCentavos, { successUrl: (id) => `http://127.0.0.1:9/${id}`, cancelUrl: 'http://127.0.0.1:9/' }, simulator.recurrente.now());
  if (!started.ok) throw new Error(started.error.message);
  const [row] = await (await db()).select().from(onlinePayments).where(eq(onlinePayments.id, started.value.id));
  simulator.recurrente.completeCheckout(row!.checkoutId!, 'card_approved');
  await simulator.recurrente.flushWebhooks();
  expect(await settleByRead(provider, started.value.id)).toMatchObject({ kind: 'credited' });
  await runInvoiceWorker();
  const [payment] = await (await db()).select().from(onlinePayments).where(eq(onlinePayments.id, started.value.id));
  const [invoice] = await (await db()).select().from(invoices).where(eq(invoices.ledgerEntryId, payment!.ledgerEntryId!));
  expect(invoice).toMatchObject({ state: 'certified', totalCentavos: amountCentavos });
  return { id: payment!.id, invoiceId: invoice!.id, providerPaymentId: payment!.providerPaymentId! };
}

/** The invoice worker's rounds until its queue (invoices, voids, credit notes) is empty. */
async function runInvoiceWorker(certifier?: FelCertifier): Promise<void> {
  const settings = env();
  const worker = createInvoiceWorker({ certifier: certifier ?? certifierOf(settings)!, issuer: issuerOf(settings)!, name: 'w1', backoffBaseMs: 20, backoffCeilingMs: 200, credentialsPauseMs: 200, leaseSeconds: 30 });
  const ends = Date.now() + 20_000;
  const reversalsInQueue = async () => (await (await db()).select({ id: invoiceReversals.id }).from(invoiceReversals).where(inArray(invoiceReversals.state, ['pending', 'indeterminate']))).length;
  while (((await invoicesInQueue()) > 0 || (await reversalsInQueue()) > 0) && Date.now() < ends) await worker.runOnce();
}

/** The payment's latest refund, with its credit note. */
async function latestRefundOf(id: string) {
  return (await refundsOfOnlinePayment(id)).at(-1);
}

async function refundEntriesOf(id: string) {
  return (await db()).select().from(ledgerEntries).where(like(ledgerEntries.note, `%pago en línea ${id}%`));
}

async function reconciles(): Promise<void> {
  const sums = await balanceAndLedgerSum(integration.id);
  expect(sums.balanceCentavos).toBe(sums.ledgerSumCentavos);
}

describe('refunding an online payment', () => {
  it('moves the balance back once on a double submit, refunds once at the provider, and writes the credit note', async () => {
    const { id, invoiceId, providerPaymentId } = await creditedPayment(10_000);
    const before = await balance();
    const [first, second] = await Promise.all([refundOnlinePayment(provider, ADMIN, id, 'Cobro duplicado'), refundOnlinePayment(provider, ADMIN, id, 'Cobro duplicado')]);
    expect([first, second].filter((result) => result.ok && result.value.created)).toHaveLength(1);
    expect(await balance()).toBe(before - 10_000);
    expect(await refundEntriesOf(id)).toMatchObject([{ amountCentavos: -10_000, actor: expect.stringContaining('admin-reembolsos@servicio.example') }]);
    expect(simulator.recurrente.payment(providerPaymentId)).toMatchObject({ refunded: 10_650 });
    const refund = await latestRefundOf(id);
    expect(refund).toMatchObject({ state: 'done', amountCentavos: 10_000 });
    const [note] = await (await db()).select().from(invoiceReversals).where(eq(invoiceReversals.invoiceId, invoiceId));
    expect(note).toMatchObject({ kind: 'credit_note', amountCentavos: 10_000, ledgerEntryId: refund!.ledgerEntryId, id: refund!.invoiceReversalId });
    const audits = await (await db()).select().from(auditLog).where(eq(auditLog.action, 'online_top_up.refund'));
    expect(audits.map((audit) => audit.actor)).toEqual([expect.stringContaining('admin-reembolsos@servicio.example')]);
    // Asked a third time, later: nothing moves, nothing is sent.
    expect(await refundOnlinePayment(provider, ADMIN, id, 'Otra vez')).toEqual({ ok: false, error: { code: 'fully_refunded', message: REFUND_MESSAGES.fullyRefunded } });
    expect(simulator.recurrente.payment(providerPaymentId)).toMatchObject({ refunded: 10_650 });
    expect(await balance()).toBe(before - 10_000);
    await reconciles();
  });

  it('a time-out is indeterminate, then settled done by reading the payment without sending again', async () => {
    const { id, providerPaymentId } = await creditedPayment(20_000);
    const before = await balance();
    simulator.recurrente.setApiFaults([{ fault: 'timeout', operations: ['refund'], times: 1, delayMs: 1_000 }]);
    expect(await refundOnlinePayment(provider, ADMIN, id, 'Pidió la devolución')).toMatchObject({ ok: true, value: { created: true, refund: { state: 'indeterminate' } } });
    expect(await balance()).toBe(before - 20_000);
    const refund = (await latestRefundOf(id))!;
    expect((await settleRefundByRead(provider, refund.id)).state).toBe('done');
    expect(simulator.recurrente.payment(providerPaymentId)).toMatchObject({ refunded: 20_000 + 900 + 200 });
    expect(await balance()).toBe(before - 20_000);
    expect(await refundEntriesOf(id)).toHaveLength(1);
    await reconciles();
  });

  it('a 500 that did nothing is indeterminate, then settled failed by reading: the amount returns once', async () => {
    const { id, providerPaymentId } = await creditedPayment(30_000);
    const before = await balance();
    simulator.recurrente.setApiFaults([{ fault: 'server_error', operations: ['refund'], times: 1 }]);
    expect(await refundOnlinePayment(provider, ADMIN, id, 'Pidió la devolución')).toMatchObject({ ok: true, value: { refund: { state: 'indeterminate' } } });
    expect(await balance()).toBe(before - 30_000);
    // A second click settles it by reading; it never sends the refund again.
    expect(await refundOnlinePayment(provider, ADMIN, id, 'Pidió la devolución')).toMatchObject({ ok: true, value: { created: false, refund: { state: 'failed' } } });
    expect(simulator.recurrente.payment(providerPaymentId)).toMatchObject({ refunded: 0 });
    expect(await balance()).toBe(before);
    expect((await refundEntriesOf(id)).map((entry) => entry.amountCentavos).sort()).toEqual([-30_000, 30_000].sort());
    expect(await (await db()).select().from(invoiceReversals).where(eq(invoiceReversals.amountCentavos, 30_000))).toEqual([]);
    await reconciles();
  });

  it('refuses with the balance already spent, and refuses support staff, moving nothing', async () => {
    const { id, providerPaymentId } = await creditedPayment(5_000);
    expect(await refundOnlinePayment(provider, SUPPORT, id, 'Soporte')).toMatchObject({ ok: false, error: { code: 'forbidden', message: REFUND_MESSAGES.forbidden } });
    const spent = await adjustBalance({ kind: 'user', id: 7, email: 'admin-reembolsos@servicio.example' } satisfies Actor, integration.id, -(await balance()) + 1_000, 'Consumo');
    expect(spent.ok).toBe(true);
    expect(await refundOnlinePayment(provider, ADMIN, id, 'Ya lo gastó')).toMatchObject({ ok: false, error: { code: 'balance_spent', message: refundBalanceSpentMessage(1_000, 5_000) } });
    expect(await balance()).toBe(1_000);
    expect(await latestRefundOf(id)).toBeUndefined();
    expect(simulator.recurrente.payment(providerPaymentId)).toMatchObject({ refunded: 0 });
    await reconciles();
  });

  it('a credit note the certifier refuses leaves the refund done and the balance where it was, and is sent again when retried', async () => {
    const { id, invoiceId, providerPaymentId } = await creditedPayment(8_000);
    const before = await balance();
    expect(await refundOnlinePayment(provider, ADMIN, id, 'Cobro por error')).toMatchObject({ ok: true, value: { refund: { state: 'done' } } });
    expect(await balance()).toBe(before - 8_000);
    const real = certifierOf(env())!;
    const refusing: FelCertifier = { ...real, name: real.name, certify: async () => ({ kind: 'rejected', errors: [{ code: 'FEL_NCRE01', message: 'El receptor no coincide.' }] }) };
    await runInvoiceWorker(refusing);
    // The money went back to the customer at the provider: the refused document returns nothing to the balance.
    expect(await balance()).toBe(before - 8_000);
    expect(await refundEntriesOf(id)).toHaveLength(1);
    const refund = (await latestRefundOf(id))!;
    expect(refund).toMatchObject({ state: 'done', creditNote: { state: 'to_correct', lastErrorCode: 'FEL_NCRE01' } });
    expect(simulator.recurrente.payment(providerPaymentId)).toMatchObject({ refunded: 8_000 + 360 + 200 });
    const [standing] = await (await db()).select({ reversal: invoices.reversal }).from(invoices).where(eq(invoices.id, invoiceId));
    expect(standing!.reversal).toBe('credit_note_pending');
    await reconciles();

    // Retried (a second click too): the same document goes back to the queue once and is certified.
    const [first, second] = await Promise.all([retryRefundCreditNote(ADMIN.actor, refund.id), retryRefundCreditNote(ADMIN.actor, refund.id)]);
    expect([first, second].map((result) => result.ok && result.value.queued).sort()).toEqual([false, true]);
    await runInvoiceWorker();
    const notes = await (await db()).select().from(invoiceReversals).where(eq(invoiceReversals.invoiceId, invoiceId));
    expect(notes).toMatchObject([{ kind: 'credit_note', state: 'done', amountCentavos: 8_000, ledgerEntryId: refund.ledgerEntryId }]);
    expect(simulator.fel.certificationCount(notes[0]!.identifier)).toBe(1);
    expect((await latestRefundOf(id))!.creditNote).toMatchObject({ state: 'done' });
    expect(await balance()).toBe(before - 8_000);
    await reconciles();
  });

  it('the poller settles stuck refunds by reading the payment, with nobody opening a page, and never sends one again', async () => {
    const lost = await creditedPayment(6_000);
    const unsent = await creditedPayment(7_000);
    const before = await balance();
    simulator.recurrente.setApiFaults([{ fault: 'timeout', operations: ['refund'], times: 1, delayMs: 1_000 }]);
    expect(await refundOnlinePayment(provider, ADMIN, lost.id, 'Devolución')).toMatchObject({ ok: true, value: { refund: { state: 'indeterminate' } } });
    simulator.recurrente.setApiFaults([{ fault: 'server_error', operations: ['refund'], times: 1 }]);
    expect(await refundOnlinePayment(provider, ADMIN, unsent.id, 'Devolución')).toMatchObject({ ok: true, value: { refund: { state: 'indeterminate' } } });
    simulator.recurrente.setApiFaults([]);
    expect(await balance()).toBe(before - 13_000);

    expect(await pollOpenOnlinePayments(provider)).toMatchObject({ refundsSettled: 2 });
    expect(await latestRefundOf(lost.id)).toMatchObject({ state: 'done', creditNote: { kind: 'credit_note', amountCentavos: 6_000 } });
    expect(await latestRefundOf(unsent.id)).toMatchObject({ state: 'failed', creditNote: null });
    expect(simulator.recurrente.payment(lost.providerPaymentId)).toMatchObject({ refunded: 6_000 + 270 + 200 });
    expect(simulator.recurrente.payment(unsent.providerPaymentId)).toMatchObject({ refunded: 0 });
    expect(await balance()).toBe(before - 6_000);
    // Settled: the next rounds read nothing more and move nothing.
    expect(await pollOpenOnlinePayments(provider)).toMatchObject({ refundsSettled: 0 });
    expect(await balance()).toBe(before - 6_000);
    await reconciles();
  });
});

describe('refunding part of an online payment', () => {
  it('refunds parts up to what is left, one at a time even when asked at once, each with its balance move and credit note', async () => {
    const { id, invoiceId, providerPaymentId } = await creditedPayment(10_000);
    const before = await balance();
    expect(await refundOnlinePayment(partial, ADMIN, id, 'Parte no usada', 3_000)).toMatchObject({ ok: true, value: { created: true, refund: { state: 'done', amountCentavos: 3_000 } } });
    expect(await balance()).toBe(before - 3_000);
    expect(simulator.recurrente.payment(providerPaymentId)).toMatchObject({ refunded: 3_000 });
    // More than is left: refused, nothing moves.
    expect(await refundOnlinePayment(partial, ADMIN, id, 'Demasiado', 7_001)).toEqual({ ok: false, error: { code: 'over_left', message: refundOverLeftMessage(7_000) } });
    expect(await balance()).toBe(before - 3_000);
    // Two administrators at once for 4,000 each (8,000 > 7,000 left): one refund is made, the other finds it.
    const both = await Promise.all([refundOnlinePayment(partial, ADMIN, id, 'Otra parte', 4_000), refundOnlinePayment(partial, ADMIN, id, 'Otra parte', 4_000)]);
    expect(both.filter((result) => result.ok && result.value.created)).toHaveLength(1);
    expect(simulator.recurrente.payment(providerPaymentId)).toMatchObject({ refunded: 7_000 });
    expect(await balance()).toBe(before - 7_000);
    // What is left, by default the whole rest: then nothing is.
    expect(await refundOnlinePayment(partial, ADMIN, id, 'El resto')).toMatchObject({ ok: true, value: { refund: { state: 'done', amountCentavos: 3_000 } } });
    expect(await refundOnlinePayment(partial, ADMIN, id, 'Más')).toMatchObject({ ok: false, error: { code: 'fully_refunded' } });
    expect(simulator.recurrente.payment(providerPaymentId)).toMatchObject({ refunded: 10_000 });
    expect(await balance()).toBe(before - 10_000);
    expect((await refundEntriesOf(id)).map((entry) => entry.amountCentavos)).toEqual([-3_000, -4_000, -3_000]);

    await runInvoiceWorker();
    const notes = await (await db()).select().from(invoiceReversals).where(eq(invoiceReversals.invoiceId, invoiceId));
    expect(notes.map((note) => [note.kind, note.state, note.amountCentavos]).sort()).toEqual([
      ['credit_note', 'done', 3_000],
      ['credit_note', 'done', 3_000],
      ['credit_note', 'done', 4_000],
    ]);
    for (const note of notes) expect(simulator.fel.certification(note.identifier)).toMatchObject({ type: 'NCRE', grandTotal: (note.amountCentavos / 100).toFixed(2) });
    expect((await refundsOfOnlinePayment(id)).map((refund) => [refund.state, refund.creditNote?.state])).toEqual([
      ['done', 'done'],
      ['done', 'done'],
      ['done', 'done'],
    ]);
    const [standing] = await (await db()).select({ reversal: invoices.reversal }).from(invoices).where(eq(invoices.id, invoiceId));
    expect(standing!.reversal).toBe('credited');
    await reconciles();
  });

  it('never takes the balance below zero: a part above the balance is refused, one the balance covers is made', async () => {
    const { id, providerPaymentId } = await creditedPayment(6_000);
    const spent = await adjustBalance({ kind: 'user', id: 7, email: 'admin-reembolsos@servicio.example' } satisfies Actor, integration.id, -(await balance()) + 2_500, 'Consumo');
    expect(spent.ok).toBe(true);
    expect(await refundOnlinePayment(partial, ADMIN, id, 'Todo', 6_000)).toEqual({ ok: false, error: { code: 'balance_spent', message: refundBalanceSpentMessage(2_500, 6_000) } });
    expect(await refundOnlinePayment(partial, ADMIN, id, 'Parte', 2_501)).toMatchObject({ ok: false, error: { code: 'balance_spent' } });
    expect(await balance()).toBe(2_500);
    expect(simulator.recurrente.payment(providerPaymentId)).toMatchObject({ refunded: 0 });
    expect(await refundOnlinePayment(partial, ADMIN, id, 'Lo que cubre el saldo', 2_500)).toMatchObject({ ok: true, value: { refund: { state: 'done', amountCentavos: 2_500 } } });
    expect(await balance()).toBe(0);
    expect(simulator.recurrente.payment(providerPaymentId)).toMatchObject({ refunded: 2_500 });
    await reconciles();
  });

  it('is refused before anything moves when the provider takes whole refunds only, or the amount is not whole centavos', async () => {
    const { id, providerPaymentId } = await creditedPayment(5_000);
    const before = await balance();
    expect(await refundOnlinePayment(provider, ADMIN, id, 'Parte', 1_000)).toEqual({ ok: false, error: { code: 'partial_unsupported', message: REFUND_MESSAGES.partialUnsupported } });
    for (const amount of [0, -5, 10.5]) expect(await refundOnlinePayment(partial, ADMIN, id, 'Parte', amount)).toEqual({ ok: false, error: { code: 'invalid', message: REFUND_MESSAGES.amountInvalid } });
    expect(await balance()).toBe(before);
    expect(simulator.recurrente.payment(providerPaymentId)).toMatchObject({ refunded: 0 });
    expect(await refundsOfOnlinePayment(id)).toEqual([]);
  });
});
