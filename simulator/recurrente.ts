// The payment provider simulator: Recurrente's API shapes (docs/payments.md) under `/recurrente`,
// with a hosted checkout page a browser can complete (card approved, card declined, bank transfer
// pending), signed webhooks (Svix's scheme) sent to a configured URL, a clock that can be moved so
// pending transfers settle or expire, and faults for the API and for the webhooks. Recurrente's
// own test mode sends no webhooks: this is how tests and development see them.

import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { svixSignature, SVIX_HEADERS } from '../lib/providers/payments/svix-signature';
import { FAULT_HEADER } from './faults';
import { sleep } from './abortable-sleep';
import { readBody } from './body';

/** What the simulated provider accepts unless told otherwise: test-mode keys and a `whsec_` secret. */
export const RECURRENTE_SIM_DEV_KEYS = {
  publicKey: 'pk_test_simulador_recurrente',
  secretKey: 'sk_test_simulador_recurrente',
  // base64 of "simulador-recurrente-desarrollo".
  webhookSecret: 'whsec_c2ltdWxhZG9yLXJlY3VycmVudGUtZGVzYXJyb2xsbw==',
} as const;

/** Paths below `/recurrente`; the API's base URL for the adapter is `<simulator>/recurrente/api`. */
export const RECURRENTE_SIM_PATHS = {
  api: '/api',
  checkoutPage: '/checkout-session',
  /** The simulator's own: settle or expire a pending transfer now, move the clock, list deliveries. */
  transfers: '/_sim/transfers',
  clock: '/_sim/clock',
  webhooks: '/_sim/webhooks',
} as const;

/** A saved payment method every charge of which is declined (automatic top-up's failures). */
export const RECURRENTE_SIM_DECLINING_METHOD = 'pay_m_rechazada';
/** What the hosted page offers; the form field `resultado` carries one. */
export const RECURRENTE_SIM_CHOICES = ['card_approved', 'card_declined', 'bank_transfer'] as const;
export type RecurrenteSimChoice = (typeof RECURRENTE_SIM_CHOICES)[number];
/** A bank transfer not received within this long fails (Recurrente: up to 24 hours). */
export const RECURRENTE_SIM_TRANSFER_EXPIRY_MS = 24 * 3_600_000;
/** The simulated fee: 4.5 % + Q 2.00 (a third party's quote; informative only). */
export function recurrenteSimFee(amount: number): number {
  return Math.round((amount * 45) / 1000) + 200;
}

export const RECURRENTE_API_FAULTS = ['server_error', 'server_error_after_work', 'timeout', 'drop', 'invalid_json', 'rate_limited'] as const;
export type RecurrenteApiFaultName = (typeof RECURRENTE_API_FAULTS)[number];
export type RecurrenteOperation = 'create_checkout' | 'read_checkout' | 'read_payment' | 'refund' | 'read_refund' | 'charge' | 'find_charge';

/**
 * A fault of the API for the next `times` requests (every one when unset) of some operations (all
 * by default). `server_error`: 500, nothing done; `server_error_after_work`: the work is done, then
 * 500; `timeout`: the work is done, the answer comes after `delayMs` (default 35 s); `drop`: the
 * work is done, the connection is closed without an answer; `invalid_json`: the work is done, the
 * answer's JSON is cut in half; `rate_limited`: 429, nothing done.
 */
export interface RecurrenteApiFault {
  fault: RecurrenteApiFaultName;
  operations?: RecurrenteOperation[];
  times?: number;
  delayMs?: number;
}

export const RECURRENTE_WEBHOOK_FAULTS = ['duplicate', 'out_of_order', 'late', 'bad_signature', 'never_sent', 'other_currency'] as const;
export type RecurrenteWebhookFaultName = (typeof RECURRENTE_WEBHOOK_FAULTS)[number];

/**
 * A fault of the next `times` webhook messages (every one when unset) of some event types (all by
 * default). `duplicate`: delivered twice, same svix-id; `out_of_order`: held back until the next
 * message has been delivered; `late`: delivered after `delayMs` (default 2 s), signed when sent as
 * Svix does; `bad_signature`: signed with another secret; `never_sent`: recorded, not delivered;
 * `other_currency`: validly signed, but the payment (and its checkout) in US dollars, its amount
 * unchanged (a provider's mistake, or a payment of another checkout replayed with our metadata).
 */
export interface RecurrenteWebhookFault {
  fault: RecurrenteWebhookFaultName;
  eventTypes?: string[];
  times?: number;
  delayMs?: number;
}

export interface RecurrenteSimOptions {
  keys?: { publicKey: string; secretKey: string; webhookSecret: string };
  /** Where webhooks go; none are sent (only recorded) while unset. */
  webhookUrl?: string;
  apiFaults?: RecurrenteApiFault[];
  webhookFaults?: RecurrenteWebhookFault[];
  /** The simulator's clock before `advanceClock` moves it. */
  now?: () => Date;
  log?: (line: string) => void;
}

export interface RecurrenteDelivery {
  messageId: string;
  eventType: string;
  paymentId: string | null;
  checkoutId: string | null;
  fault: RecurrenteWebhookFaultName | null;
  /** The HTTP status the receiver answered; null when not sent, or it could not be reached. */
  status: number | null;
  sentAt: Date | null;
  error?: string;
}

export interface RecurrenteSimCheckout {
  id: string;
  status: 'unpaid' | 'payment_in_progress' | 'paid';
  amount: number;
  currency: string;
  name: string;
  successUrl: string | null;
  cancelUrl: string | null;
  metadata: Record<string, string>;
  expiresAt: Date | null;
  createdAt: Date;
  paymentId: string | null;
}

export interface RecurrenteSimPayment {
  id: string;
  checkoutId: string | null;
  oneTimePaymentId: string | null;
  idempotencyKey: string | null;
  amount: number;
  currency: string;
  status: 'succeeded' | 'failed' | 'pending';
  method: 'card' | 'bank_transfer';
  paymentMethodId: string | null;
  failureReason: string | null;
  refunded: number;
  metadata: Record<string, string>;
  createdAt: Date;
}

export interface RecurrenteSimControl {
  checkout(id: string): RecurrenteSimCheckout | undefined;
  payment(id: string): RecurrenteSimPayment | undefined;
  /** Every payment, in order (a test counts charges per idempotency key with it). */
  payments(): RecurrenteSimPayment[];
  /** What the hosted page's form does, without a browser. */
  completeCheckout(id: string, choice: RecurrenteSimChoice): { ok: true; redirect: string | null } | { ok: false; problem: string };
  /** The pending transfer of a checkout arrives now, or fails now. */
  settleTransfer(checkoutId: string): boolean;
  expireTransfer(checkoutId: string): boolean;
  /** Moves the clock; transfers pending longer than 24 hours then fail. */
  advanceClock(milliseconds: number): void;
  now(): Date;
  setWebhookUrl(url: string | undefined): void;
  setApiFaults(faults: RecurrenteApiFault[]): void;
  setWebhookFaults(faults: RecurrenteWebhookFault[]): void;
  /** Every delivery attempt, in the order they happened. */
  deliveries(): RecurrenteDelivery[];
  /** Waits for deliveries under way, late ones included, and sends the ones held out of order. */
  flushWebhooks(): Promise<void>;
}

export interface RecurrenteSimulator extends RecurrenteSimControl {
  /** Serves one request whose path starts with `/recurrente`; `path` is what follows it. */
  serve(request: IncomingMessage, response: ServerResponse, path: string): Promise<void>;
}

type Answer = { status: number; json: unknown } | { status: number; contentType: string; text: string; headers?: Record<string, string> };

const MAX_BODY_BYTES = 64 * 1024;
const DEFAULT_TIMEOUT_FAULT_MS = 35_000;
const DEFAULT_LATE_MS = 2_000;
const API_VERSION = '2024-04-24';
/** A made-up customer: the adapter's tests check it never reaches a log line. */
export const RECURRENTE_SIM_CUSTOMER = { id: 'us_simulado', email: 'cliente.simulado@example.com', full_name: 'Cliente Simulado Pérez' } as const;

export function createRecurrenteSimulator(options: RecurrenteSimOptions = {}): RecurrenteSimulator {
  const keys = options.keys ?? RECURRENTE_SIM_DEV_KEYS;
  const log = options.log ?? (() => {});
  const baseNow = options.now ?? (() => new Date());
  let offsetMs = 0;
  const now = () => new Date(baseNow().getTime() + offsetMs);
  let webhookUrl = options.webhookUrl;
  let apiFaults = (options.apiFaults ?? []).map((fault) => ({ ...fault }));
  let webhookFaults = (options.webhookFaults ?? []).map((fault) => ({ ...fault }));
  const checkouts = new Map<string, RecurrenteSimCheckout>();
  const payments = new Map<string, RecurrenteSimPayment>();
  const refunds = new Map<string, { id: string; paymentId: string; amount: number; createdAt: Date }>();
  const chargeAnswers = new Map<string, Answer>();
  const savedMethods = new Set<string>([RECURRENTE_SIM_DECLINING_METHOD]);
  const transferStarted = new Map<string, Date>();
  const deliveries: RecurrenteDelivery[] = [];
  const inFlight = new Set<Promise<void>>();
  let held: Array<() => Promise<void>> = [];

  const newId = (prefix: string) => `${prefix}_${randomBytes(8).toString('hex')}`;

  // ----- webhooks ---------------------------------------------------------------------------

  function chooseWebhookFault(eventType: string): RecurrenteWebhookFault | null {
    for (const fault of webhookFaults) {
      if (fault.eventTypes !== undefined && !fault.eventTypes.includes(eventType)) continue;
      if (fault.times !== undefined) {
        if (fault.times <= 0) continue;
        fault.times -= 1;
      }
      return fault;
    }
    return null;
  }

  async function deliver(messageId: string, body: string, record: Omit<RecurrenteDelivery, 'status' | 'sentAt'>, badSignature: boolean): Promise<void> {
    const entry: RecurrenteDelivery = { ...record, status: null, sentAt: null };
    deliveries.push(entry);
    if (webhookUrl === undefined) {
      entry.error = 'no webhook URL configured';
      return;
    }
    // Signed when sent, as Svix does for every attempt: a late message carries its sending time.
    const sentAt = now();
    const timestamp = Math.floor(sentAt.getTime() / 1000);
    const secret = badSignature ? `whsec_${Buffer.from('otra-llave-que-no-es-la-del-endpoint').toString('base64')}` : keys.webhookSecret;
    entry.sentAt = sentAt;
    try {
      const answer = await fetch(webhookUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [SVIX_HEADERS.id]: messageId,
          [SVIX_HEADERS.timestamp]: String(timestamp),
          [SVIX_HEADERS.signature]: svixSignature(secret, messageId, timestamp, body),
        },
        body,
        signal: AbortSignal.timeout(15_000),
      });
      await answer.arrayBuffer();
      entry.status = answer.status;
    } catch (error) {
      entry.error = (error as Error).message;
    }
    log(`webhook ${record.eventType} ${messageId}${record.fault === null ? '' : ` fault=${record.fault}`} -> ${entry.status ?? entry.error}`);
  }

  function track(work: () => Promise<void>): void {
    const promise = work().finally(() => inFlight.delete(promise));
    inFlight.add(promise);
  }

  function emit(eventType: string, payload: Record<string, unknown>, ids: { paymentId: string | null; checkoutId: string | null }): void {
    const messageId = `msg_${randomBytes(12).toString('hex')}`;
    const fault = chooseWebhookFault(eventType);
    const body = JSON.stringify({ event_type: eventType, api_version: API_VERSION, ...(fault?.fault === 'other_currency' ? inDollars(payload) : payload) });
    const record = { messageId, eventType, ...ids, fault: fault?.fault ?? null };
    const release = held;
    held = [];
    // Messages held out of order go after this one has been delivered.
    const thenHeld = async () => {
      for (const send of release) await send();
    };
    switch (fault?.fault) {
      case 'never_sent':
        deliveries.push({ ...record, status: null, sentAt: null, error: 'never sent (fault)' });
        track(thenHeld);
        return;
      case 'out_of_order':
        held.push(() => deliver(messageId, body, record, false));
        for (const send of release) held.push(send);
        return;
      case 'late':
        track(async () => {
          await new Promise((resolve) => setTimeout(resolve, fault.delayMs ?? DEFAULT_LATE_MS));
          await deliver(messageId, body, record, false);
        });
        track(thenHeld);
        return;
      case 'duplicate':
        track(async () => {
          await deliver(messageId, body, record, false);
          await deliver(messageId, body, record, false);
          await thenHeld();
        });
        return;
      default:
        track(async () => {
          await deliver(messageId, body, record, fault?.fault === 'bad_signature');
          await thenHeld();
        });
    }
  }

  function inDollars(payload: Record<string, unknown>): Record<string, unknown> {
    const checkout = isObject(payload.checkout) ? { ...payload.checkout, currency: 'USD' } : payload.checkout;
    return { ...payload, currency: 'USD', vat_withheld_currency: 'USD', checkout };
  }

  // ----- the objects as Recurrente answers them -----------------------------------------------

  function paymentMethodJson(payment: RecurrenteSimPayment | undefined) {
    if (payment === undefined) return null;
    if (payment.method === 'bank_transfer') return { id: payment.paymentMethodId, type: 'bank_transfer_receiver', bank_transfer_receiver: {} };
    return payment.paymentMethodId === null ? null : { id: payment.paymentMethodId, type: 'card', card: { last4: '4242', network: 'visa' } };
  }

  function checkoutJson(checkout: RecurrenteSimCheckout) {
    const payment = checkout.paymentId === null ? undefined : payments.get(checkout.paymentId);
    return {
      id: checkout.id,
      status: checkout.status,
      payment: payment === undefined ? null : { id: payment.id, paymentable: { type: 'OneTimePayment', id: `on_${payment.id.slice(3)}`, tax_name: null, tax_id: null } },
      payment_method: checkout.status === 'paid' ? paymentMethodJson(payment) : null,
      transfer_setups: [],
      metadata: checkout.metadata,
      expires_at: checkout.expiresAt?.toISOString() ?? null,
      success_url: checkout.successUrl ?? '',
      cancel_url: checkout.cancelUrl ?? '',
      created_at: checkout.createdAt.toISOString(),
      total_in_cents: String(checkout.amount),
      currency: checkout.currency,
      live_mode: false,
      latest_intent: payment === undefined ? null : { id: payment.id, created_at: payment.createdAt.toISOString(), type: payment.method === 'card' ? 'PaymentIntent' : 'BankTransferIntent', data: {} },
      // The simulator's own (unconfirmed in Recurrente's answers): what was refunded of its payment.
      refunded_amount_in_cents: payment?.refunded ?? 0,
    };
  }

  function paymentJson(payment: RecurrenteSimPayment) {
    const checkout = payment.checkoutId === null ? undefined : checkouts.get(payment.checkoutId);
    return {
      id: payment.id,
      status: payment.status,
      api_version: API_VERSION,
      created_at: payment.createdAt.toISOString(),
      amount_in_cents: payment.amount,
      currency: payment.currency,
      fee: payment.status === 'succeeded' ? recurrenteSimFee(payment.amount) : 0,
      failure_reason: payment.failureReason,
      refunded_amount_in_cents: payment.refunded,
      payment_method: paymentMethodJson(payment),
      metadata: payment.metadata,
      checkout: checkout === undefined ? null : checkoutJson(checkout),
      customer: RECURRENTE_SIM_CUSTOMER,
    };
  }

  function eventPayload(payment: RecurrenteSimPayment) {
    const checkout = payment.checkoutId === null ? undefined : checkouts.get(payment.checkoutId);
    return {
      id: payment.id,
      created_at: now().toISOString(),
      checkout: checkout === undefined ? { id: null, metadata: payment.metadata } : checkoutJson(checkout),
      failure_reason: payment.failureReason,
      amount_in_cents: payment.amount,
      currency: payment.currency,
      fee: payment.status === 'succeeded' ? recurrenteSimFee(payment.amount) : 0,
      vat_withheld: 0,
      vat_withheld_currency: payment.currency,
      customer: RECURRENTE_SIM_CUSTOMER,
      customer_id: RECURRENTE_SIM_CUSTOMER.id,
      payment: { id: payment.id, paymentable: { type: 'OneTimePayment', id: `on_${payment.id.slice(3)}` } },
      product: { id: 'prod_simulado' },
      invoice: { id: `inv_${payment.id.slice(3)}`, tax_invoice_url: null },
    };
  }

  const emitFor = (eventType: string, payment: RecurrenteSimPayment) => emit(eventType, eventPayload(payment), { paymentId: payment.id, checkoutId: payment.checkoutId });

  // ----- what happens to checkouts and transfers ------------------------------------------------

  function expired(checkout: RecurrenteSimCheckout): boolean {
    return checkout.status === 'unpaid' && checkout.expiresAt !== null && checkout.expiresAt.getTime() <= now().getTime();
  }

  function completeCheckout(id: string, choice: RecurrenteSimChoice): { ok: true; redirect: string | null } | { ok: false; problem: string } {
    sweep();
    const checkout = checkouts.get(id);
    if (checkout === undefined) return { ok: false, problem: 'not_found' };
    if (expired(checkout)) return { ok: false, problem: 'expired' };
    if (checkout.status !== 'unpaid') return { ok: false, problem: checkout.status };
    const payment: RecurrenteSimPayment = {
      id: newId('pa'),
      checkoutId: checkout.id,
      oneTimePaymentId: null,
      idempotencyKey: null,
      amount: checkout.amount,
      currency: checkout.currency,
      status: choice === 'card_approved' ? 'succeeded' : choice === 'card_declined' ? 'failed' : 'pending',
      method: choice === 'bank_transfer' ? 'bank_transfer' : 'card',
      paymentMethodId: choice === 'card_approved' ? newId('pay_m') : null,
      failureReason: choice === 'card_declined' ? 'Tu banco ha rechazado la transacción. Llama a tu banco y pide que autoricen esta transacción.' : null,
      refunded: 0,
      metadata: checkout.metadata,
      createdAt: now(),
    };
    payments.set(payment.id, payment);
    if (choice === 'card_declined') {
      // The checkout stays open: the customer may try another card.
      emitFor('payment_intent.failed', payment);
      return { ok: true, redirect: null };
    }
    checkout.paymentId = payment.id;
    if (choice === 'card_approved') {
      savedMethods.add(payment.paymentMethodId!);
      checkout.status = 'paid';
      emitFor('payment_intent.succeeded', payment);
    } else {
      checkout.status = 'payment_in_progress';
      transferStarted.set(checkout.id, now());
      emitFor('bank_transfer_intent.pending', payment);
    }
    return { ok: true, redirect: checkout.successUrl };
  }

  function finishTransfer(checkoutId: string, arrived: boolean): boolean {
    const checkout = checkouts.get(checkoutId);
    const payment = checkout?.paymentId == null ? undefined : payments.get(checkout.paymentId);
    if (checkout === undefined || payment === undefined || checkout.status !== 'payment_in_progress') return false;
    transferStarted.delete(checkoutId);
    if (arrived) {
      payment.status = 'succeeded';
      payment.paymentMethodId = newId('pay_m');
      checkout.status = 'paid';
      emitFor('bank_transfer_intent.succeeded', payment);
    } else {
      payment.status = 'failed';
      payment.failureReason = 'No se recibieron los fondos de la transferencia.';
      checkout.status = 'unpaid';
      emitFor('bank_transfer_intent.failed', payment);
    }
    return true;
  }

  /** Transfers pending beyond 24 hours of the simulator's clock fail. */
  function sweep(): void {
    for (const [checkoutId, startedAt] of [...transferStarted]) {
      if (now().getTime() - startedAt.getTime() >= RECURRENTE_SIM_TRANSFER_EXPIRY_MS) finishTransfer(checkoutId, false);
    }
  }

  // ----- the API --------------------------------------------------------------------------------

  const error = (status: number, message: string): Answer => ({ status, json: { error: message } });

  function createCheckout(body: unknown, origin: string): Answer {
    if (!isObject(body) || !Array.isArray(body.items) || body.items.length === 0) return error(422, 'items es requerido');
    let amount = 0;
    let currency: string | null = null;
    for (const item of body.items) {
      if (!isObject(item) || typeof item.name !== 'string' || item.name === '') return error(422, 'Cada item necesita name');
      if (item.currency !== 'GTQ' && item.currency !== 'USD') return error(422, 'currency debe ser GTQ o USD');
      if (!Number.isSafeInteger(item.amount_in_cents) || (item.amount_in_cents as number) <= 0) return error(422, 'amount_in_cents debe ser un entero positivo');
      const quantity = item.quantity === undefined ? 1 : item.quantity;
      if (!Number.isSafeInteger(quantity) || (quantity as number) < 1 || (quantity as number) > 9) return error(422, 'quantity debe estar entre 1 y 9');
      if (currency !== null && currency !== item.currency) return error(422, 'Todos los items deben tener la misma moneda');
      currency = item.currency;
      amount += (item.amount_in_cents as number) * (quantity as number);
    }
    const metadata = body.metadata === undefined ? {} : body.metadata;
    if (!isObject(metadata) || Object.keys(metadata).length > 50 || Object.entries(metadata).some(([key, value]) => key.length > 40 || typeof value !== 'string' || value.length > 500)) {
      return error(422, 'metadata admite hasta 50 llaves de 40 caracteres con valores de 500');
    }
    const expiresAt = body.expires_at === undefined || body.expires_at === null ? null : typeof body.expires_at === 'string' && !Number.isNaN(Date.parse(body.expires_at)) ? new Date(body.expires_at) : undefined;
    if (expiresAt === undefined) return error(422, 'expires_at debe ser una fecha ISO 8601');
    const url = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);
    const checkout: RecurrenteSimCheckout = {
      id: newId('ch'),
      status: 'unpaid',
      amount,
      currency: currency!,
      name: String((body.items[0] as Record<string, unknown>).name),
      successUrl: url(body.success_url),
      cancelUrl: url(body.cancel_url),
      metadata: metadata as Record<string, string>,
      expiresAt,
      createdAt: now(),
      paymentId: null,
    };
    checkouts.set(checkout.id, checkout);
    return { status: 201, json: { id: checkout.id, checkout_url: `${origin}/recurrente${RECURRENTE_SIM_PATHS.checkoutPage}/${checkout.id}` } };
  }

  function refund(body: unknown): Answer {
    if (!isObject(body) || typeof body.payment_intent_id !== 'string') return error(422, 'payment_intent_id es requerido');
    const payment = payments.get(body.payment_intent_id);
    if (payment === undefined) return error(404, 'No se encontró el pago');
    if (payment.status !== 'succeeded') return error(422, 'El pago no se puede reembolsar');
    const remaining = payment.amount - payment.refunded;
    const amount = body.amount_in_cents === undefined ? remaining : body.amount_in_cents;
    if (!Number.isSafeInteger(amount) || (amount as number) <= 0) return error(422, 'amount_in_cents debe ser un entero positivo');
    if ((amount as number) > remaining) return error(422, 'El monto excede lo que queda por reembolsar');
    payment.refunded += amount as number;
    const created = { id: newId('re'), paymentId: payment.id, amount: amount as number, createdAt: now() };
    refunds.set(created.id, created);
    return { status: 200, json: refundJson(created) };
  }

  function refundJson(created: { id: string; paymentId: string; amount: number; createdAt: Date }) {
    return {
      id: created.id,
      status: 'succeeded',
      customer: RECURRENTE_SIM_CUSTOMER,
      user_id: RECURRENTE_SIM_CUSTOMER.id,
      account_refunded_amount_in_cents: created.amount,
      customer_refunded_amount_in_cents: created.amount,
      currency: 'GTQ',
      created_at: created.createdAt.toISOString(),
    };
  }

  function oneTimeJson(payment: RecurrenteSimPayment) {
    return {
      id: payment.oneTimePaymentId,
      status: payment.status === 'succeeded' ? 'paid' : payment.status,
      amount_in_cents: payment.amount,
      currency: payment.currency,
      failure_reason: payment.failureReason,
      payment_method_id: payment.paymentMethodId,
      payment: { id: payment.id },
      metadata: payment.metadata,
    };
  }

  function charge(body: unknown, idempotencyKey: string | undefined): Answer {
    // The same key answers the same charge (how Stripe-style idempotency works; unconfirmed for Recurrente).
    if (idempotencyKey !== undefined && chargeAnswers.has(idempotencyKey)) return chargeAnswers.get(idempotencyKey)!;
    if (!isObject(body) || typeof body.payment_method_id !== 'string') return error(422, 'payment_method_id es requerido');
    if (!savedMethods.has(body.payment_method_id)) return error(422, 'No se encontró el método de pago');
    const items = Array.isArray(body.items) ? body.items : [];
    const first = items[0];
    if (items.length !== 1 || !isObject(first) || !Number.isSafeInteger(first.amount_in_cents) || (first.amount_in_cents as number) <= 0 || first.currency !== 'GTQ') {
      return error(422, 'items: un item en GTQ con amount_in_cents');
    }
    const metadata = isObject(body.metadata) ? (body.metadata as Record<string, string>) : {};
    const declines = body.payment_method_id === RECURRENTE_SIM_DECLINING_METHOD;
    const payment: RecurrenteSimPayment = {
      id: newId('pa'),
      checkoutId: null,
      oneTimePaymentId: newId('on'),
      idempotencyKey: idempotencyKey ?? null,
      amount: first.amount_in_cents as number,
      currency: 'GTQ',
      status: declines ? 'failed' : 'succeeded',
      method: 'card',
      paymentMethodId: body.payment_method_id,
      failureReason: declines ? 'Fondos insuficientes.' : null,
      refunded: 0,
      metadata: { ...metadata, ...(idempotencyKey === undefined ? {} : { idempotency_key: idempotencyKey }) },
      createdAt: now(),
    };
    payments.set(payment.id, payment);
    emitFor(declines ? 'payment_intent.failed' : 'payment_intent.succeeded', payment);
    const answer: Answer = { status: 200, json: oneTimeJson(payment) };
    if (idempotencyKey !== undefined) chargeAnswers.set(idempotencyKey, answer);
    return answer;
  }

  function findCharges(key: string | null): Answer {
    const found = [...payments.values()].filter((payment) => payment.oneTimePaymentId !== null && (key === null || payment.idempotencyKey === key));
    return { status: 200, json: found.map(oneTimeJson) };
  }

  function chooseApiFault(operation: RecurrenteOperation, header: string | undefined): RecurrenteApiFault | null | { problem: string } {
    if (header !== undefined) {
      const named = header.trim();
      return (RECURRENTE_API_FAULTS as readonly string[]).includes(named)
        ? { fault: named as RecurrenteApiFaultName }
        : { problem: `${FAULT_HEADER}: "${named}" is not a fault of the Recurrente simulator; known: ${RECURRENTE_API_FAULTS.join(', ')}` };
    }
    for (const fault of apiFaults) {
      if (fault.operations !== undefined && !fault.operations.includes(operation)) continue;
      if (fault.times !== undefined) {
        if (fault.times <= 0) continue;
        fault.times -= 1;
      }
      return fault;
    }
    return null;
  }

  function operationOf(method: string, segments: string[]): RecurrenteOperation | null {
    const [resource, id] = segments;
    if (segments.length > 2) return null;
    if (resource === 'checkouts') return method === 'POST' && id === undefined ? 'create_checkout' : method === 'GET' && id !== undefined ? 'read_checkout' : null;
    if (resource === 'payment_intents') return method === 'GET' && id !== undefined ? 'read_payment' : null;
    if (resource === 'refunds') return method === 'POST' && id === undefined ? 'refund' : method === 'GET' && id !== undefined ? 'read_refund' : null;
    if (resource === 'one_time_payments') return method === 'POST' && id === undefined ? 'charge' : method === 'GET' && id === undefined ? 'find_charge' : null;
    return null;
  }

  async function serveApi(request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> {
    const started = Date.now();
    const segments = url.pathname.slice(RECURRENTE_SIM_PATHS.api.length).split('/').filter((segment) => segment !== '');
    const operation = operationOf(request.method ?? 'GET', segments);
    if (operation === null) {
      write(response, error(404, `No route ${request.method} /recurrente${url.pathname}`));
      return;
    }
    const publicKey = headerValue(request, 'x-public-key');
    if (headerValue(request, 'x-secret-key') !== keys.secretKey || (publicKey !== undefined && publicKey !== keys.publicKey)) {
      write(response, error(401, 'Las llaves de API no son válidas'));
      return;
    }
    const abort = new AbortController();
    response.once('close', () => {
      if (!response.writableFinished) abort.abort();
    });
    const bodyText = request.method === 'POST' ? await readBody(request, MAX_BODY_BYTES) : '';
    const chosen = chooseApiFault(operation, headerValue(request, FAULT_HEADER));
    if (chosen !== null && 'problem' in chosen) {
      write(response, { status: 400, contentType: 'text/plain; charset=utf-8', text: `${chosen.problem}\n` });
      return;
    }
    const fault = chosen?.fault ?? null;
    const summary = `${request.method} /recurrente${url.pathname}${fault === null ? '' : ` fault=${fault}`}`;
    if (fault === 'server_error' || fault === 'rate_limited') {
      const refusal = fault === 'server_error' ? error(500, 'Internal Server Error') : error(429, 'Demasiadas solicitudes');
      write(response, refusal);
      log(`${summary} -> ${refusal.status}, nothing done`);
      return;
    }
    sweep();
    let answer: Answer;
    if (bodyText === null) answer = error(413, 'Request body too large');
    else {
      const body = bodyText === '' ? undefined : parseJson(bodyText);
      const id = segments[1] === undefined ? '' : decodeURIComponent(segments[1]);
      switch (operation) {
        case 'create_checkout':
          answer = createCheckout(body, `http://${request.headers.host ?? '127.0.0.1'}`);
          break;
        case 'read_checkout': {
          const checkout = checkouts.get(id);
          answer = checkout === undefined ? error(404, 'No se encontró el checkout') : { status: 200, json: checkoutJson(checkout) };
          break;
        }
        case 'read_payment': {
          const payment = payments.get(id);
          answer = payment === undefined ? error(404, 'No se encontró el pago') : { status: 200, json: paymentJson(payment) };
          break;
        }
        case 'refund':
          answer = refund(body);
          break;
        case 'read_refund': {
          const found = refunds.get(id);
          answer = found === undefined ? error(404, 'No se encontró el reembolso') : { status: 200, json: refundJson(found) };
          break;
        }
        case 'charge':
          answer = charge(body, headerValue(request, 'idempotency-key'));
          break;
        case 'find_charge':
          answer = findCharges(url.searchParams.get('idempotency_key'));
          break;
      }
    }
    if (fault === 'drop') {
      log(`${summary} -> work done, connection dropped`);
      request.socket.destroy();
      return;
    }
    if (fault === 'server_error_after_work') answer = error(500, 'Internal Server Error');
    if (fault === 'invalid_json' && 'json' in answer) {
      const text = JSON.stringify(answer.json);
      answer = { status: answer.status, contentType: 'application/json; charset=utf-8', text: text.slice(0, Math.max(1, Math.floor(text.length / 2))) };
    }
    if (fault === 'timeout' && !(await sleep(chosen?.delayMs ?? DEFAULT_TIMEOUT_FAULT_MS, abort.signal))) {
      log(`${summary} -> work done, client went away after ${Date.now() - started} ms`);
      return;
    }
    write(response, answer);
    log(`${summary} -> ${answer.status} in ${Date.now() - started} ms`);
  }

  // ----- the hosted checkout page ---------------------------------------------------------------

  async function servePage(request: IncomingMessage, response: ServerResponse, checkoutId: string): Promise<void> {
    sweep();
    const checkout = checkouts.get(checkoutId);
    if (checkout === undefined) {
      write(response, page(404, 'Enlace de pago no encontrado', '<p>Este enlace de pago no existe.</p>'));
      return;
    }
    if (request.method === 'POST') {
      const form = new URLSearchParams((await readBody(request, MAX_BODY_BYTES)) ?? '');
      const choice = form.get('resultado');
      if (!(RECURRENTE_SIM_CHOICES as readonly string[]).includes(choice ?? '')) {
        write(response, checkoutPage(checkout, 400, 'Elija cómo pagar.'));
        return;
      }
      const done = completeCheckout(checkout.id, choice as RecurrenteSimChoice);
      if (!done.ok) {
        write(response, closedPage(checkout));
        return;
      }
      if (choice === 'card_declined') {
        write(response, checkoutPage(checkout, 402, 'Tu banco ha rechazado la transacción. Intenta con otra tarjeta.'));
        return;
      }
      if (done.redirect !== null) {
        write(response, { status: 303, contentType: 'text/plain; charset=utf-8', text: 'Redirigiendo\n', headers: { location: done.redirect } });
        return;
      }
      write(response, page(200, 'Pago recibido', choice === 'bank_transfer' ? '<p>Transferencia en proceso.</p>' : '<p>Pago aprobado.</p>'));
      return;
    }
    if (request.method !== 'GET') {
      write(response, { status: 405, contentType: 'text/plain; charset=utf-8', text: 'Method not allowed\n', headers: { allow: 'GET, POST' } });
      return;
    }
    write(response, checkout.status === 'unpaid' && !expired(checkout) ? checkoutPage(checkout, 200, null) : closedPage(checkout));
  }

  function closedPage(checkout: RecurrenteSimCheckout): Answer {
    if (expired(checkout)) return page(410, 'Enlace vencido', '<p>Este enlace de pago venció.</p>');
    if (checkout.status === 'paid') return page(409, 'Ya pagado', '<p>Este enlace ya fue pagado.</p>');
    return page(409, 'Pago en proceso', '<p>La transferencia de este enlace está en proceso.</p>');
  }

  function checkoutPage(checkout: RecurrenteSimCheckout, status: number, message: string | null): Answer {
    const amount = `${checkout.currency === 'GTQ' ? 'Q' : 'US$'} ${(checkout.amount / 100).toFixed(2)}`;
    const option = (value: RecurrenteSimChoice, label: string, checked = false) =>
      `<label><input type="radio" name="resultado" value="${value}"${checked ? ' checked' : ''}> ${label}</label><br>`;
    return page(
      status,
      `Pagar ${amount}`,
      `<p>${escapeHtml(checkout.name)}: <strong>${amount}</strong></p>` +
        (message === null ? '' : `<p role="alert">${escapeHtml(message)}</p>`) +
        `<form method="post">` +
        option('card_approved', 'Tarjeta 4242 4242 4242 4242 (aprobada)', true) +
        option('card_declined', 'Tarjeta 4000 0000 0000 0002 (rechazada)') +
        option('bank_transfer', 'Transferencia bancaria (queda en proceso)') +
        `<button type="submit">Pagar ${amount}</button></form>` +
        (checkout.cancelUrl === null ? '' : `<p><a href="${escapeHtml(checkout.cancelUrl)}">Cancelar y volver</a></p>`),
    );
  }

  // ----- the simulator's own controls -----------------------------------------------------------

  async function serveSim(request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> {
    if (request.method === 'GET' && url.pathname === RECURRENTE_SIM_PATHS.webhooks) {
      write(response, { status: 200, json: deliveries.map((delivery) => ({ ...delivery, sentAt: delivery.sentAt?.toISOString() ?? null })) });
      return;
    }
    if (request.method === 'POST' && url.pathname === RECURRENTE_SIM_PATHS.clock) {
      const body = parseJson((await readBody(request, MAX_BODY_BYTES)) ?? '');
      const advance = isObject(body) ? body.advance_ms : undefined;
      if (!Number.isSafeInteger(advance) || (advance as number) < 0) {
        write(response, error(422, 'advance_ms must be a whole number of milliseconds'));
        return;
      }
      control.advanceClock(advance as number);
      write(response, { status: 200, json: { now: now().toISOString() } });
      return;
    }
    const transfer = /^\/_sim\/transfers\/([^/]+)\/(settle|expire)$/.exec(url.pathname);
    if (request.method === 'POST' && transfer !== null) {
      const [, checkoutId = '', action] = transfer;
      const done = action === 'settle' ? control.settleTransfer(checkoutId) : control.expireTransfer(checkoutId);
      write(response, done ? { status: 200, json: { checkout: checkoutId, result: action } } : error(409, 'no pending transfer on that checkout'));
      return;
    }
    write(response, error(404, `No route ${request.method} /recurrente${url.pathname}`));
  }

  const control: RecurrenteSimControl = {
    checkout: (id) => checkouts.get(id),
    payment: (id) => payments.get(id),
    payments: () => [...payments.values()],
    completeCheckout,
    settleTransfer: (checkoutId) => finishTransfer(checkoutId, true),
    expireTransfer: (checkoutId) => finishTransfer(checkoutId, false),
    advanceClock(milliseconds) {
      offsetMs += milliseconds;
      sweep();
    },
    now,
    setWebhookUrl(url) {
      webhookUrl = url;
    },
    setApiFaults(faults) {
      apiFaults = faults.map((fault) => ({ ...fault }));
    },
    setWebhookFaults(faults) {
      webhookFaults = faults.map((fault) => ({ ...fault }));
    },
    deliveries: () => [...deliveries],
    async flushWebhooks() {
      while (inFlight.size > 0 || held.length > 0) {
        await Promise.all([...inFlight]);
        const release = held;
        held = [];
        for (const send of release) track(send);
      }
    },
  };

  return {
    ...control,
    async serve(request, response, path) {
      const url = new URL(path === '' ? '/' : path, 'http://simulator');
      if (url.pathname.startsWith(`${RECURRENTE_SIM_PATHS.api}/`)) return serveApi(request, response, url);
      if (url.pathname.startsWith(`${RECURRENTE_SIM_PATHS.checkoutPage}/`)) return servePage(request, response, decodeURIComponent(url.pathname.slice(RECURRENTE_SIM_PATHS.checkoutPage.length + 1)));
      if (url.pathname.startsWith('/_sim/')) return serveSim(request, response, url);
      write(response, error(404, `No route ${request.method} /recurrente${url.pathname}`));
    },
  };
}

/** Reads SIMULATOR_RECURRENTE_FAULT: comma-separated API faults, each for every operation, e.g. `timeout,server_error`. */
export function parseRecurrenteFaultSpec(spec: string): RecurrenteApiFault[] {
  return spec
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry) => {
      if (!(RECURRENTE_API_FAULTS as readonly string[]).includes(entry)) {
        throw new Error(`SIMULATOR_RECURRENTE_FAULT: cannot read "${entry}"; faults: ${RECURRENTE_API_FAULTS.join(', ')}`);
      }
      return { fault: entry as RecurrenteApiFaultName };
    });
}

function page(status: number, title: string, content: string): Answer {
  return {
    status,
    contentType: 'text/html; charset=utf-8',
    text: `<!DOCTYPE html><html lang="es"><head><meta charset="utf-8"><title>${escapeHtml(title)} · Recurrente (simulador)</title></head><body><h1>${escapeHtml(title)}</h1>${content}<p><small>Simulador de Recurrente: ningún cobro es real.</small></p></body></html>`,
  };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

function headerValue(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function write(response: ServerResponse, answer: Answer): void {
  const [contentType, text] = 'json' in answer ? ['application/json; charset=utf-8', JSON.stringify(answer.json)] : [answer.contentType, answer.text];
  response.writeHead(answer.status, { 'content-type': contentType, 'content-length': Buffer.byteLength(text), ...('headers' in answer ? answer.headers : {}) });
  response.end(text);
}
