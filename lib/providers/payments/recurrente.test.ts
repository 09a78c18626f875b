// The Recurrente adapter against the simulator (simulator/recurrente.ts): every outcome and fault,
// the indeterminate answers settled by a read, and the webhooks as a receiver gets them.

import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RECURRENTE_SIM_CUSTOMER, RECURRENTE_SIM_DECLINING_METHOD, RECURRENTE_SIM_DEV_KEYS, RECURRENTE_SIM_TRANSFER_EXPIRY_MS } from '../../../simulator/recurrente';
import { startSimulator, type RunningSimulator } from '../../../simulator/server';
import type { CheckoutRequest, PaymentProvider, PaymentState, WebhookOutcome } from './provider';
import { createRecurrenteProvider, interpretCheckout, interpretPaymentIntent, type RecurrenteOptions } from './recurrente';

let simulator: RunningSimulator;
let receiver: Server;
/** What the receiver got, and when by the simulator's clock (a route verifies on arrival). */
let received: Array<{ headers: IncomingHttpHeaders; body: string; at: Date }> = [];
let provider: PaymentProvider;
const logLines: Array<Record<string, unknown>> = [];
let sequence = 0;

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), at: simulator.recurrente.now() });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  simulator = await startSimulator({ port: 0, populationSize: 10_000, recurrente: { webhookUrl: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhook` } });
  provider = adapter();
});
afterAll(async () => {
  await simulator.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});
beforeEach(async () => {
  await simulator.recurrente.flushWebhooks();
  simulator.recurrente.setApiFaults([]);
  simulator.recurrente.setWebhookFaults([]);
  received = [];
});

function adapter(overrides: Partial<RecurrenteOptions> = {}): PaymentProvider {
  return createRecurrenteProvider({
    apiUrl: `${simulator.url}/recurrente/api`,
    publicKey: RECURRENTE_SIM_DEV_KEYS.publicKey,
    secretKey: RECURRENTE_SIM_DEV_KEYS.secretKey,
    webhookSecret: RECURRENTE_SIM_DEV_KEYS.webhookSecret,
    now: () => simulator.recurrente.now(),
    log: (line) => logLines.push(line),
    ...overrides,
  });
}

function checkoutRequest(overrides: Partial<CheckoutRequest> = {}): CheckoutRequest {
  return {
    topUpId: `recarga-${String(++sequence).padStart(6, '0')}`,
    amountCentavos: 11_200,
    currency: 'GTQ',
    description: 'Recarga de saldo',
    successUrl: 'https://pasarela.example.gt/portal/recargas/resultado',
    cancelUrl: 'https://pasarela.example.gt/portal/recargas',
    expiresAt: new Date(simulator.recurrente.now().getTime() + 3_600_000),
    ...overrides,
  };
}

async function created(overrides: Partial<CheckoutRequest> = {}) {
  const request = checkoutRequest(overrides);
  const outcome = await provider.createCheckout(request);
  if (outcome.kind !== 'created') throw new Error(`not created: ${JSON.stringify(outcome)}`);
  return { request, ...outcome };
}

/** The webhooks the receiver got, each verified by the adapter as its route would when it arrived. */
async function verifiedWebhooks(): Promise<WebhookOutcome[]> {
  await simulator.recurrente.flushWebhooks();
  return received.map((delivery) => provider.verifyWebhook({ headers: delivery.headers, rawBody: delivery.body, now: delivery.at }));
}

const approvedState = (outcome: { kind: string; state?: PaymentState }) => (outcome.state?.kind === 'approved' ? outcome.state : null);

describe('checkouts', () => {
  it('creates a hosted checkout with our top-up id, amount and expiry, and reads it as awaiting the customer', async () => {
    const { request, checkoutId, checkoutUrl } = await created();
    expect(checkoutId).toMatch(/^ch_/);
    expect(checkoutUrl).toBe(`${simulator.url}/recurrente/checkout-session/${checkoutId}`);
    expect(simulator.recurrente.checkout(checkoutId)).toMatchObject({ amount: 11_200, currency: 'GTQ', metadata: { top_up_id: request.topUpId }, expiresAt: request.expiresAt });
    expect(await provider.readCheckout(checkoutId)).toEqual({
      kind: 'found',
      checkoutId,
      topUpId: request.topUpId,
      amountCentavos: 11_200,
      expiresAt: request.expiresAt,
      state: { kind: 'pending', stage: 'awaiting_customer', paymentId: null },
    });
  });

  it('reads a card payment as approved, with the saved card; the webhook says the same', async () => {
    const { request, checkoutId } = await created();
    expect(simulator.recurrente.completeCheckout(checkoutId, 'card_approved')).toEqual({ ok: true, redirect: request.successUrl });
    const read = await provider.readCheckout(checkoutId);
    const state = approvedState(read as { kind: string; state: PaymentState });
    expect(state).toMatchObject({ amountCentavos: 11_200, currency: 'GTQ', method: 'card', refundedCentavos: 0 });
    expect(state?.paymentId).toMatch(/^pa_/);
    expect(state?.paymentMethodId).toMatch(/^pay_m_/);
    const payment = await provider.readPayment(state!.paymentId);
    expect(payment).toMatchObject({ kind: 'found', checkoutId, topUpId: request.topUpId, state: { kind: 'approved', paymentId: state!.paymentId, feeCentavos: 704 } });
    const [webhook] = await verifiedWebhooks();
    expect(webhook).toMatchObject({ kind: 'verified', event: { providerType: 'payment_intent.succeeded', checkoutId, topUpId: request.topUpId, state: { kind: 'approved', paymentId: state!.paymentId, amountCentavos: 11_200, paymentMethodId: state!.paymentMethodId } } });
  });

  it('reads a declined card as still awaiting the customer; the webhook says declined', async () => {
    const { checkoutId } = await created();
    simulator.recurrente.completeCheckout(checkoutId, 'card_declined');
    expect(await provider.readCheckout(checkoutId)).toMatchObject({ kind: 'found', state: { kind: 'pending', stage: 'awaiting_customer' } });
    const [webhook] = await verifiedWebhooks();
    expect(webhook).toMatchObject({ kind: 'verified', event: { providerType: 'payment_intent.failed', checkoutId, state: { kind: 'declined', reason: expect.stringContaining('rechazado') } } });
  });

  it('reads an unpaid checkout past its expiry as expired', async () => {
    const { checkoutId } = await created({ expiresAt: new Date(simulator.recurrente.now().getTime() + 60_000) });
    simulator.recurrente.advanceClock(61_000);
    expect(await provider.readCheckout(checkoutId)).toMatchObject({ kind: 'found', state: { kind: 'expired' } });
    expect(simulator.recurrente.completeCheckout(checkoutId, 'card_approved')).toEqual({ ok: false, problem: 'expired' });
  });

  it('refuses what cannot be sent without sending it, and passes the provider’s refusals on', async () => {
    const before = simulator.recurrente.payments().length;
    for (const bad of [{ amountCentavos: 0 }, { amountCentavos: 10.5 }, { topUpId: 'x' }, { successUrl: 'javascript:alert(1)' }, { metadata: Object.fromEntries(Array.from({ length: 50 }, (_, index) => [`k${index}`, 'v'])) }]) {
      expect(await provider.createCheckout(checkoutRequest(bad)), JSON.stringify(bad).slice(0, 40)).toMatchObject({ kind: 'refused' });
    }
    expect(simulator.recurrente.payments().length).toBe(before);
    expect(await provider.readCheckout('ch_noexiste')).toEqual({ kind: 'not_found' });
    expect(await provider.readCheckout('../../etc')).toEqual({ kind: 'not_found' });
    expect(await provider.readPayment('pa_noexiste')).toEqual({ kind: 'not_found' });
  });

  it('answers credentials_refused to wrong keys, and reads are unavailable', async () => {
    const wrong = adapter({ secretKey: 'sk_test_otra' });
    expect(await wrong.createCheckout(checkoutRequest())).toMatchObject({ kind: 'credentials_refused', detail: 'HTTP 401' });
    expect(await wrong.readCheckout('ch_cualquiera')).toMatchObject({ kind: 'unavailable' });
  });

  it('answers retry_later to a 500 that did nothing, and indeterminate to a time-out after sending; a read settles it', async () => {
    simulator.recurrente.setApiFaults([{ fault: 'server_error', operations: ['create_checkout'], times: 1 }]);
    expect(await provider.createCheckout(checkoutRequest())).toMatchObject({ kind: 'retry_later', reason: 'provider_error' });
    simulator.recurrente.setApiFaults([{ fault: 'timeout', operations: ['read_checkout'], times: 1, delayMs: 2_000 }]);
    const { checkoutId } = await created();
    const started = Date.now();
    expect(await adapter({ readTimeoutMs: 300 }).readCheckout(checkoutId)).toMatchObject({ kind: 'unavailable' });
    expect(Date.now() - started).toBeLessThan(1_900);
    simulator.recurrente.setApiFaults([{ fault: 'timeout', operations: ['create_checkout'], times: 1, delayMs: 2_000 }]);
    expect(await adapter({ timeoutMs: 300 }).createCheckout(checkoutRequest())).toMatchObject({ kind: 'indeterminate', reason: 'timeout_after_sending' });
  });

  it('answers retry_later to a rate limit, indeterminate to a cut answer, and unavailable to a cut read', async () => {
    simulator.recurrente.setApiFaults([{ fault: 'rate_limited', operations: ['create_checkout'], times: 1 }]);
    expect(await provider.createCheckout(checkoutRequest())).toMatchObject({ kind: 'retry_later', reason: 'rate_limited' });
    simulator.recurrente.setApiFaults([{ fault: 'invalid_json', operations: ['create_checkout'], times: 1 }]);
    expect(await provider.createCheckout(checkoutRequest())).toMatchObject({ kind: 'indeterminate', reason: 'unreadable_answer' });
    simulator.recurrente.setApiFaults([{ fault: 'invalid_json', operations: ['read_checkout'], times: 1 }]);
    const { checkoutId } = await created();
    expect(await provider.readCheckout(checkoutId)).toMatchObject({ kind: 'unavailable' });
    expect(await provider.readCheckout(checkoutId)).toMatchObject({ kind: 'found', state: { kind: 'pending' } });
  });

  it('answers retry_later not_sent when nothing listens, and the reads are unavailable', async () => {
    const port = await freePort();
    const nowhere = adapter({ apiUrl: `http://127.0.0.1:${port}/recurrente/api` });
    expect(await nowhere.createCheckout(checkoutRequest())).toMatchObject({ kind: 'retry_later', reason: 'not_sent' });
    expect(await nowhere.readPayment('pa_x')).toMatchObject({ kind: 'unavailable' });
    expect(await nowhere.chargeSavedMethod({ paymentMethodId: 'pay_m_x', amountCentavos: 100, currency: 'GTQ', description: 'Recarga automática', topUpId: 'recarga-nowhere', idempotencyKey: 'cargo-nowhere' })).toMatchObject({ kind: 'retry_later', reason: 'not_sent' });
  });
});

describe('bank transfers', () => {
  it('is pending while in progress, and approved once it settles (webhooks pending then succeeded)', async () => {
    const { checkoutId } = await created();
    simulator.recurrente.completeCheckout(checkoutId, 'bank_transfer');
    const pending = await provider.readCheckout(checkoutId);
    expect(pending).toMatchObject({ kind: 'found', state: { kind: 'pending', stage: 'transfer_in_progress', paymentId: expect.stringMatching(/^pa_/) } });
    const paymentId = (pending as { state: { paymentId: string } }).state.paymentId;
    expect(await provider.readPayment(paymentId)).toMatchObject({ kind: 'found', state: { kind: 'pending', stage: 'transfer_in_progress', paymentId } });
    simulator.recurrente.advanceClock(RECURRENTE_SIM_TRANSFER_EXPIRY_MS - 60_000);
    expect(simulator.recurrente.settleTransfer(checkoutId)).toBe(true);
    expect(await provider.readPayment(paymentId)).toMatchObject({ kind: 'found', state: { kind: 'approved', paymentId, method: 'bank_transfer', paymentMethodId: null, amountCentavos: 11_200 } });
    expect(await provider.readCheckout(checkoutId)).toMatchObject({ kind: 'found', state: { kind: 'approved', paymentId, method: 'bank_transfer' } });
    const events = (await verifiedWebhooks()).map((outcome) => (outcome.kind === 'verified' ? [outcome.event.providerType, outcome.event.state?.kind] : outcome.reason));
    expect(events).toEqual([
      ['bank_transfer_intent.pending', 'pending'],
      ['bank_transfer_intent.succeeded', 'approved'],
    ]);
  });

  it('expires when it has not arrived within 24 hours of the simulated clock', async () => {
    const { checkoutId } = await created({ expiresAt: new Date(simulator.recurrente.now().getTime() + 48 * 3_600_000) });
    simulator.recurrente.completeCheckout(checkoutId, 'bank_transfer');
    const paymentId = simulator.recurrente.checkout(checkoutId)!.paymentId!;
    simulator.recurrente.advanceClock(RECURRENTE_SIM_TRANSFER_EXPIRY_MS);
    expect(await provider.readPayment(paymentId)).toMatchObject({ kind: 'found', state: { kind: 'expired', paymentId } });
    const last = (await verifiedWebhooks()).at(-1);
    expect(last).toMatchObject({ kind: 'verified', event: { providerType: 'bank_transfer_intent.failed', state: { kind: 'expired', paymentId } } });
  });
});

describe('webhook faults', () => {
  async function paidCheckout() {
    const { checkoutId } = await created();
    simulator.recurrente.completeCheckout(checkoutId, 'card_approved');
    return { checkoutId, paymentId: simulator.recurrente.checkout(checkoutId)!.paymentId! };
  }

  it('delivers a duplicated message twice with the same id and payment', async () => {
    simulator.recurrente.setWebhookFaults([{ fault: 'duplicate', times: 1 }]);
    const { paymentId } = await paidCheckout();
    const outcomes = await verifiedWebhooks();
    expect(outcomes).toHaveLength(2);
    const [first, second] = outcomes.map((outcome) => (outcome.kind === 'verified' ? outcome.event : null));
    expect(first?.messageId).toBe(second?.messageId);
    expect([first?.state, second?.state]).toEqual([expect.objectContaining({ paymentId }), expect.objectContaining({ paymentId })]);
  });

  it('refuses a message signed with another secret; the read still finds the payment', async () => {
    simulator.recurrente.setWebhookFaults([{ fault: 'bad_signature', times: 1 }]);
    const { checkoutId, paymentId } = await paidCheckout();
    expect(await verifiedWebhooks()).toEqual([{ kind: 'refused', reason: 'bad_signature' }]);
    expect(await provider.readCheckout(checkoutId)).toMatchObject({ state: { kind: 'approved', paymentId } });
  });

  it('sends nothing for a message never sent; the read settles it', async () => {
    simulator.recurrente.setWebhookFaults([{ fault: 'never_sent', times: 1 }]);
    const { checkoutId, paymentId } = await paidCheckout();
    expect(await verifiedWebhooks()).toEqual([]);
    expect(simulator.recurrente.deliveries().at(-1)).toMatchObject({ paymentId, fault: 'never_sent', status: null });
    expect(await provider.readCheckout(checkoutId)).toMatchObject({ state: { kind: 'approved', paymentId } });
  });

  it('delivers a transfer’s succeeded before its pending when the pending one is held out of order', async () => {
    simulator.recurrente.setWebhookFaults([{ fault: 'out_of_order', eventTypes: ['bank_transfer_intent.pending'], times: 1 }]);
    const { checkoutId } = await created();
    simulator.recurrente.completeCheckout(checkoutId, 'bank_transfer');
    simulator.recurrente.settleTransfer(checkoutId);
    const types = (await verifiedWebhooks()).map((outcome) => (outcome.kind === 'verified' ? outcome.event.providerType : outcome.reason));
    expect(types).toEqual(['bank_transfer_intent.succeeded', 'bank_transfer_intent.pending']);
  });

  it('delivers a late message after its delay, signed when sent, so it verifies', async () => {
    simulator.recurrente.setWebhookFaults([{ fault: 'late', times: 1, delayMs: 300 }]);
    const started = Date.now();
    await paidCheckout();
    const [outcome] = await verifiedWebhooks();
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(outcome).toMatchObject({ kind: 'verified', event: { providerType: 'payment_intent.succeeded' } });
  });

  it('refuses a message replayed beyond the tolerance', async () => {
    await paidCheckout();
    const [delivery] = (await simulator.recurrente.flushWebhooks(), received);
    const later = new Date(simulator.recurrente.now().getTime() + 10 * 60_000);
    expect(provider.verifyWebhook({ headers: delivery!.headers, rawBody: delivery!.body, now: later })).toEqual({ kind: 'refused', reason: 'stale_timestamp' });
    expect(adapter({ webhookToleranceSeconds: 900 }).verifyWebhook({ headers: delivery!.headers, rawBody: delivery!.body, now: later })).toMatchObject({ kind: 'verified' });
  });
});

describe('refunds', () => {
  async function paid(amount = 11_200) {
    const { checkoutId } = await created({ amountCentavos: amount });
    simulator.recurrente.completeCheckout(checkoutId, 'card_approved');
    return simulator.recurrente.checkout(checkoutId)!.paymentId!;
  }

  it('refunds all of a payment; a second refund is refused', async () => {
    const paymentId = await paid();
    expect(await provider.refund({ paymentId, amountCentavos: null })).toMatchObject({ kind: 'refunded', refundId: expect.stringMatching(/^re_/), amountCentavos: 11_200, status: 'succeeded' });
    expect(await provider.readPayment(paymentId)).toMatchObject({ state: { kind: 'approved', refundedCentavos: 11_200 } });
    expect(await provider.refund({ paymentId, amountCentavos: null })).toMatchObject({ kind: 'refused', detail: expect.stringContaining('HTTP 422') });
  });

  it('sends a partial refund only when partial refunds are on', async () => {
    const paymentId = await paid();
    expect(await provider.refund({ paymentId, amountCentavos: 2_000 })).toMatchObject({ kind: 'unsupported' });
    expect(simulator.recurrente.payment(paymentId)!.refunded).toBe(0);
    const partial = adapter({ partialRefunds: true });
    expect(await partial.refund({ paymentId, amountCentavos: 2_000 })).toMatchObject({ kind: 'refunded', amountCentavos: 2_000 });
    expect(await partial.refund({ paymentId, amountCentavos: 9_201 })).toMatchObject({ kind: 'refused' });
    expect(await partial.refund({ paymentId, amountCentavos: null })).toMatchObject({ kind: 'refunded', amountCentavos: 9_200 });
  });

  it('answers indeterminate when the connection drops after refunding; reading the payment settles it', async () => {
    const paymentId = await paid();
    simulator.recurrente.setApiFaults([{ fault: 'drop', operations: ['refund'], times: 1 }]);
    expect(await provider.refund({ paymentId, amountCentavos: null })).toMatchObject({ kind: 'indeterminate', reason: 'connection_dropped' });
    expect(await provider.readPayment(paymentId)).toMatchObject({ state: { kind: 'approved', refundedCentavos: 11_200 } });
  });

  it('refuses to refund what is not a paid payment', async () => {
    expect(await provider.refund({ paymentId: 'pa_noexiste', amountCentavos: null })).toMatchObject({ kind: 'refused', detail: expect.stringContaining('HTTP 404') });
    expect(await provider.refund({ paymentId: 'no es un id', amountCentavos: null })).toMatchObject({ kind: 'refused' });
  });
});

describe('charging a saved payment method', () => {
  async function savedCard() {
    const { checkoutId } = await created();
    simulator.recurrente.completeCheckout(checkoutId, 'card_approved');
    return simulator.recurrente.payment(simulator.recurrente.checkout(checkoutId)!.paymentId!)!.paymentMethodId!;
  }
  const chargesOf = (key: string) => simulator.recurrente.payments().filter((payment) => payment.idempotencyKey === key).length;
  const charge = (paymentMethodId: string, idempotencyKey: string, amountCentavos = 5_000) => ({ paymentMethodId, amountCentavos, currency: 'GTQ' as const, description: 'Recarga automática', topUpId: `recarga-${idempotencyKey}`, idempotencyKey });

  it('charges a saved card once per idempotency key; findCharge finds it', async () => {
    const method = await savedCard();
    const key = `cargo-${++sequence}-aprobado`;
    const outcome = await provider.chargeSavedMethod(charge(method, key));
    expect(outcome).toMatchObject({ kind: 'charged', state: { kind: 'approved', amountCentavos: 5_000, method: 'card', paymentMethodId: method, paymentId: expect.stringMatching(/^pa_/) } });
    expect(await provider.chargeSavedMethod(charge(method, key))).toEqual(outcome);
    expect(chargesOf(key)).toBe(1);
    expect(await provider.findCharge(key)).toMatchObject({ kind: 'found', state: { kind: 'approved', paymentId: (outcome as { state: { paymentId: string } }).state.paymentId } });
    expect(await provider.findCharge(`cargo-${++sequence}-nunca`)).toEqual({ kind: 'not_found' });
  });

  it('answers declined for a card the bank refuses, and refused for an unknown method', async () => {
    const key = `cargo-${++sequence}-rechazado`;
    expect(await provider.chargeSavedMethod(charge(RECURRENTE_SIM_DECLINING_METHOD, key))).toMatchObject({ kind: 'charged', state: { kind: 'declined', reason: 'Fondos insuficientes.' } });
    expect(await provider.chargeSavedMethod(charge('pay_m_desconocido', `cargo-${++sequence}-x`))).toMatchObject({ kind: 'refused', detail: expect.stringContaining('HTTP 422') });
  });

  it('answers indeterminate to a 500 after charging, to a time-out and to a dropped connection; findCharge settles each without charging again', async () => {
    const method = await savedCard();
    for (const [fault, reason] of [
      ['server_error_after_work', 'provider_error'],
      ['timeout', 'timeout_after_sending'],
      ['drop', 'connection_dropped'],
    ] as const) {
      simulator.recurrente.setApiFaults([{ fault, operations: ['charge'], times: 1, delayMs: 2_000 }]);
      const key = `cargo-${++sequence}-${fault}`;
      expect(await adapter({ timeoutMs: 300 }).chargeSavedMethod(charge(method, key)), fault).toMatchObject({ kind: 'indeterminate', reason });
      expect(await provider.findCharge(key), fault).toMatchObject({ kind: 'found', state: { kind: 'approved', amountCentavos: 5_000 } });
      expect(chargesOf(key), fault).toBe(1);
    }
  });

  it('answers indeterminate to a 500 that did nothing too; findCharge then says it never happened', async () => {
    const method = await savedCard();
    simulator.recurrente.setApiFaults([{ fault: 'server_error', operations: ['charge'], times: 1 }]);
    const key = `cargo-${++sequence}-500`;
    expect(await provider.chargeSavedMethod(charge(method, key))).toMatchObject({ kind: 'indeterminate', reason: 'provider_error' });
    expect(await provider.findCharge(key)).toEqual({ kind: 'not_found' });
    simulator.recurrente.setApiFaults([{ fault: 'server_error', operations: ['find_charge'], times: 1 }]);
    expect(await provider.findCharge(key)).toMatchObject({ kind: 'unavailable' });
  });
});

describe('logs', () => {
  it('never carry a key, the webhook secret, or the customer’s name or e-mail', async () => {
    logLines.length = 0;
    const { checkoutId } = await created();
    simulator.recurrente.completeCheckout(checkoutId, 'card_approved');
    await provider.readCheckout(checkoutId);
    await verifiedWebhooks();
    expect(logLines.map((line) => line.operation)).toEqual(['create_checkout', 'read_checkout', 'webhook']);
    const text = JSON.stringify(logLines);
    for (const secret of [...Object.values(RECURRENTE_SIM_DEV_KEYS), RECURRENTE_SIM_CUSTOMER.email, RECURRENTE_SIM_CUSTOMER.full_name]) expect(text).not.toContain(secret);
  });
});

describe('answers read without a network', () => {
  const now = new Date('2026-11-27T20:00:00Z');
  it('reads checkout and payment statuses the simulator does not send as unavailable, never as paid', () => {
    expect(interpretCheckout({ id: 'ch_1', status: 'otro', total_in_cents: '500' }, now)).toMatchObject({ kind: 'unavailable' });
    expect(interpretCheckout({ id: 'ch_1', status: 'paid', total_in_cents: '500' }, now)).toMatchObject({ kind: 'unavailable' });
    expect(interpretCheckout({ id: 'ch_1', status: 'unpaid', total_in_cents: 'quinientos' }, now)).toMatchObject({ kind: 'unavailable' });
    expect(interpretPaymentIntent({ id: 'pa_1' }, 'pa_1', now)).toMatchObject({ kind: 'unavailable' });
    expect(interpretPaymentIntent({ id: 'pa_1', status: 'succeeded' }, 'pa_1', now)).toMatchObject({ kind: 'unavailable' });
  });

  it('reads a payment intent without a status by the checkout it carries', () => {
    const checkout = { id: 'ch_1', status: 'paid', total_in_cents: '500', payment_method: { id: 'pay_m_1', type: 'card' }, metadata: { top_up_id: 'recarga-1' } };
    expect(interpretPaymentIntent({ id: 'pa_1', checkout }, 'pa_1', now)).toMatchObject({ kind: 'found', topUpId: 'recarga-1', state: { kind: 'approved', paymentId: 'pa_1', amountCentavos: 500, paymentMethodId: 'pay_m_1' } });
  });
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
