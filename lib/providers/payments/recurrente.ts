// Recurrente (Guatemala: cards and bank transfers in quetzales), from the request and answer shapes
// of its published API reference (docs/payments.md says which are confirmed and which are not):
// hosted checkouts, reads, refunds, charging a saved payment method, and its webhooks (Svix's
// signature scheme). One attempt per call; retrying, and settling an indeterminate answer by a
// read, is the caller's decision. Keys, customers' names and e-mails never reach a log line.

import { outsideParty } from '../../platform/http/call-once';
import { logger } from '../../platform/logging/logger';
import {
  isPayableCentavos,
  isPaymentReference,
  type ActionFailure,
  type ChargeOutcome,
  type CreateCheckoutOutcome,
  type FindChargeOutcome,
  type PaymentEvent,
  type PaymentIndeterminateReason,
  type PaymentProvider,
  type PaymentState,
  type ReadCheckoutOutcome,
  type ReadPaymentOutcome,
  type RefundOutcome,
  type SavedCard,
  type WebhookOutcome,
} from './provider';
import { DEFAULT_WEBHOOK_TOLERANCE_SECONDS, verifySvix } from './svix-signature';

/** Recurrente's production API; the simulator serves the same paths under `<simulator>/recurrente/api`. */
export const RECURRENTE_API_URL = 'https://app.recurrente.com/api';

export const RECURRENTE_PATHS = {
  checkouts: '/checkouts',
  paymentIntents: '/payment_intents',
  refunds: '/refunds',
  oneTimePayments: '/one_time_payments',
} as const;

/** The metadata key our top-up id travels under, on every checkout and charge. */
export const TOP_UP_METADATA_KEY = 'top_up_id';
/** Recurrente's limits on metadata: 50 keys, names of 40 characters, values of 500. */
const METADATA_LIMITS = { keys: 50, name: 40, value: 500 } as const;

export interface RecurrenteOptions {
  apiUrl: string;
  publicKey: string;
  secretKey: string;
  /** The endpoint's `whsec_…` signing secret. */
  webhookSecret: string;
  webhookToleranceSeconds?: number;
  /** Calls that act (create, refund, charge); reads wait `readTimeoutMs`. */
  timeoutMs?: number;
  readTimeoutMs?: number;
  /** Up to here, a request that has not connected was never sent. */
  connectTimeoutMs?: number;
  /** Recurrente documents full refunds only; a partial one is sent only when this says so. */
  partialRefunds?: boolean;
  /** The clock a checkout's expiry is read against (tests move it with the simulator's). */
  now?: () => Date;
  /** One line per call (operation, outcome, status, time): never a key, a name or an e-mail. */
  log?: (line: Record<string, unknown>) => void;
}

const MAX_ANSWER_BYTES = 1024 * 1024;
type Exchange =
  | { kind: 'answer'; status: number; body: Record<string, unknown> | unknown[] | null }
  | { kind: 'not_sent'; detail: string }
  | { kind: 'lost'; reason: PaymentIndeterminateReason; detail: string };

export function createRecurrenteProvider(options: RecurrenteOptions): PaymentProvider {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const readTimeoutMs = options.readTimeoutMs ?? 15_000;
  const connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
  const tolerance = options.webhookToleranceSeconds ?? DEFAULT_WEBHOOK_TOLERANCE_SECONDS;
  const log = options.log ?? ((line) => logger('payments-recurrente').info(line, 'Payment provider call'));
  const call = outsideParty(connectTimeoutMs);
  const base = options.apiUrl.replace(/\/+$/, '');
  const now = options.now ?? (() => new Date());

  async function exchange(method: 'GET' | 'POST', path: string, init: { body?: unknown; headers?: Record<string, string>; timeoutMs: number }): Promise<Exchange> {
    const result = await call(`${base}${path}`, {
      method,
      headers: {
        accept: 'application/json',
        'X-PUBLIC-KEY': options.publicKey,
        'X-SECRET-KEY': options.secretKey,
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...init.headers,
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      timeoutMs: init.timeoutMs,
      maxAnswerBytes: MAX_ANSWER_BYTES,
    });
    return result.kind === 'answer' ? { kind: 'answer', status: result.status, body: parseJson(result.bodyText) } : result;
  }

  async function timed<T extends { kind: string }>(operation: string, topUpId: string | null, run: () => Promise<{ outcome: T; status?: number }>): Promise<T> {
    const started = Date.now();
    const { outcome, status } = await run();
    log({ provider: 'recurrente', operation, topUpId, outcome: outcome.kind, reason: 'reason' in outcome ? outcome.reason : undefined, status, ms: Date.now() - started });
    return outcome;
  }

  /** What a call that acts answered, when it is not what the call wanted. */
  function actionFailure(result: Exchange, moneyMoves: boolean): ActionFailure | null {
    if (result.kind === 'not_sent') return { kind: 'retry_later', reason: 'not_sent', detail: result.detail };
    if (result.kind === 'lost') return { kind: 'indeterminate', reason: result.reason, detail: result.detail };
    const { status, body } = result;
    if (status === 401 || status === 403) return { kind: 'credentials_refused', detail: `HTTP ${status}` };
    if (status === 429) return { kind: 'retry_later', reason: 'rate_limited', detail: 'HTTP 429' };
    // A 5xx after a charge or refund was sent may come after the money moved: read before anything else.
    if (status >= 500) return moneyMoves ? { kind: 'indeterminate', reason: 'provider_error', detail: `HTTP ${status}` } : { kind: 'retry_later', reason: 'provider_error', detail: `HTTP ${status}` };
    if (status >= 400) return { kind: 'refused', detail: `HTTP ${status}${errorText(body)}` };
    if (!isObject(body)) return { kind: 'indeterminate', reason: 'unreadable_answer', detail: `HTTP ${status} with a body that is not a JSON object` };
    return null;
  }

  async function read(path: string): Promise<{ outcome: { kind: 'object'; body: Record<string, unknown> } | { kind: 'not_found' } | { kind: 'unavailable'; detail: string }; status?: number }> {
    const result = await exchange('GET', path, { timeoutMs: readTimeoutMs });
    if (result.kind !== 'answer') return { outcome: { kind: 'unavailable', detail: result.detail } };
    if (result.status === 404) return { outcome: { kind: 'not_found' }, status: 404 };
    if (result.status < 200 || result.status >= 300) return { outcome: { kind: 'unavailable', detail: `HTTP ${result.status}` }, status: result.status };
    if (!isObject(result.body)) return { outcome: { kind: 'unavailable', detail: 'a body that is not a JSON object' }, status: result.status };
    return { outcome: { kind: 'object', body: result.body }, status: result.status };
  }

  return {
    name: 'recurrente',
    partialRefunds: options.partialRefunds === true,

    createCheckout: (checkout) =>
      timed<CreateCheckoutOutcome>('create_checkout', checkout.topUpId, async () => {
        const problem = checkoutProblem(checkout);
        if (problem !== null) return { outcome: { kind: 'refused', detail: problem } satisfies CreateCheckoutOutcome };
        const result = await exchange('POST', RECURRENTE_PATHS.checkouts, {
          body: {
            items: [{ name: checkout.description, currency: checkout.currency, amount_in_cents: checkout.amountCentavos, quantity: 1 }],
            success_url: checkout.successUrl,
            cancel_url: checkout.cancelUrl,
            metadata: { ...checkout.metadata, [TOP_UP_METADATA_KEY]: checkout.topUpId },
            expires_at: checkout.expiresAt.toISOString(),
          },
          timeoutMs,
        });
        const status = result.kind === 'answer' ? result.status : undefined;
        const failure = actionFailure(result, false);
        if (failure !== null) return { outcome: failure, status };
        const body = (result as { body: Record<string, unknown> }).body;
        if (typeof body.id !== 'string' || typeof body.checkout_url !== 'string') {
          return { outcome: { kind: 'indeterminate', reason: 'unreadable_answer', detail: 'an answer without id or checkout_url' }, status };
        }
        return { outcome: { kind: 'created', checkoutId: body.id, checkoutUrl: body.checkout_url }, status };
      }),

    readCheckout: (checkoutId) =>
      timed<ReadCheckoutOutcome>('read_checkout', null, async () => {
        if (!isProviderId(checkoutId)) return { outcome: { kind: 'not_found' } satisfies ReadCheckoutOutcome };
        const { outcome, status } = await read(`${RECURRENTE_PATHS.checkouts}/${encodeURIComponent(checkoutId)}`);
        if (outcome.kind !== 'object') return { outcome, status };
        return { outcome: interpretCheckout(outcome.body, now()), status };
      }),

    readPayment: (paymentId) =>
      timed<ReadPaymentOutcome>('read_payment', null, async () => {
        if (!isProviderId(paymentId)) return { outcome: { kind: 'not_found' } satisfies ReadPaymentOutcome };
        const { outcome, status } = await read(`${RECURRENTE_PATHS.paymentIntents}/${encodeURIComponent(paymentId)}`);
        if (outcome.kind !== 'object') return { outcome, status };
        return { outcome: interpretPaymentIntent(outcome.body, paymentId, now()), status };
      }),

    verifyWebhook: (input) => {
      const outcome = verifyRecurrenteWebhook({ ...input, secret: options.webhookSecret, toleranceSeconds: tolerance });
      // The message id and type only: the body names the customer.
      log({ provider: 'recurrente', operation: 'webhook', outcome: outcome.kind, reason: outcome.kind === 'refused' ? outcome.reason : undefined, type: outcome.kind === 'verified' ? outcome.event.providerType : undefined });
      return outcome;
    },

    refund: (refund) =>
      timed<RefundOutcome>('refund', null, async () => {
        if (!isProviderId(refund.paymentId)) return { outcome: { kind: 'refused', detail: 'not a payment id' } satisfies RefundOutcome };
        if (refund.amountCentavos !== null && !isPayableCentavos(refund.amountCentavos)) return { outcome: { kind: 'refused', detail: 'the amount must be whole centavos above zero' } satisfies RefundOutcome };
        if (refund.amountCentavos !== null && !options.partialRefunds) {
          return { outcome: { kind: 'unsupported', detail: 'partial refunds are off (RECURRENTE_PARTIAL_REFUNDS): Recurrente documents full refunds only' } satisfies RefundOutcome };
        }
        const result = await exchange('POST', RECURRENTE_PATHS.refunds, {
          body: { payment_intent_id: refund.paymentId, ...(refund.amountCentavos === null ? {} : { amount_in_cents: refund.amountCentavos }) },
          timeoutMs,
        });
        const status = result.kind === 'answer' ? result.status : undefined;
        const failure = actionFailure(result, true);
        if (failure !== null) return { outcome: failure, status };
        return { outcome: interpretRefund((result as { body: Record<string, unknown> }).body, refund.amountCentavos), status };
      }),

    chargeSavedMethod: (charge) =>
      timed<ChargeOutcome>('charge', charge.topUpId, async () => {
        const problem =
          !isProviderId(charge.paymentMethodId) ? 'not a payment method id'
          : !isPayableCentavos(charge.amountCentavos) ? 'the amount must be whole centavos above zero'
          : !isPaymentReference(charge.idempotencyKey) || !isPaymentReference(charge.topUpId) ? 'the idempotency key and top-up id must be 8 to 100 letters, digits, - or _'
          : null;
        if (problem !== null) return { outcome: { kind: 'refused', detail: problem } satisfies ChargeOutcome };
        const result = await exchange('POST', RECURRENTE_PATHS.oneTimePayments, {
          body: {
            payment_method_id: charge.paymentMethodId,
            items: [{ name: charge.description, currency: charge.currency, amount_in_cents: charge.amountCentavos, quantity: 1 }],
            metadata: { [TOP_UP_METADATA_KEY]: charge.topUpId, idempotency_key: charge.idempotencyKey },
          },
          headers: { 'Idempotency-Key': charge.idempotencyKey },
          timeoutMs,
        });
        const status = result.kind === 'answer' ? result.status : undefined;
        const failure = actionFailure(result, true);
        if (failure !== null) return { outcome: failure, status };
        const state = interpretCharge((result as { body: Record<string, unknown> }).body, charge.amountCentavos, charge.paymentMethodId);
        if (state === null || state.kind === 'expired') return { outcome: { kind: 'indeterminate', reason: 'unreadable_answer', detail: 'a charge answer without a known status' }, status };
        return { outcome: { kind: 'charged', state }, status };
      }),

    findCharge: (idempotencyKey) =>
      timed<FindChargeOutcome>('find_charge', null, async () => {
        if (!isPaymentReference(idempotencyKey)) return { outcome: { kind: 'not_found' } satisfies FindChargeOutcome };
        const result = await exchange('GET', `${RECURRENTE_PATHS.oneTimePayments}?idempotency_key=${encodeURIComponent(idempotencyKey)}`, { timeoutMs: readTimeoutMs });
        if (result.kind !== 'answer') return { outcome: { kind: 'unavailable', detail: result.detail } satisfies FindChargeOutcome };
        if (result.status < 200 || result.status >= 300 || !Array.isArray(result.body)) return { outcome: { kind: 'unavailable', detail: `HTTP ${result.status}` } satisfies FindChargeOutcome, status: result.status };
        const found = result.body.find((item): item is Record<string, unknown> => isObject(item) && isObject(item.metadata) && item.metadata.idempotency_key === idempotencyKey);
        if (found === undefined) return { outcome: { kind: 'not_found' } satisfies FindChargeOutcome, status: result.status };
        const amount = centavosOf(found.amount_in_cents);
        const state = interpretCharge(found, amount ?? 0, typeof found.payment_method_id === 'string' ? found.payment_method_id : null);
        return { outcome: state === null ? { kind: 'unavailable', detail: 'a charge without a known status' } : { kind: 'found', state }, status: result.status };
      }),
  };
}

/** Verifies a delivery with Svix's scheme, then reads it as a PaymentEvent. Pure. */
export function verifyRecurrenteWebhook(input: {
  headers: Record<string, string | string[] | undefined>;
  rawBody: string;
  now: Date;
  secret: string;
  toleranceSeconds?: number;
}): WebhookOutcome {
  const check = verifySvix({ secret: input.secret, headers: input.headers, body: input.rawBody, now: input.now, toleranceSeconds: input.toleranceSeconds });
  if (!check.ok) return { kind: 'refused', reason: check.reason };
  const body = parseJson(input.rawBody);
  if (!isObject(body) || typeof body.event_type !== 'string') return { kind: 'refused', reason: 'unreadable_body' };
  return { kind: 'verified', event: interpretEvent(check.id, body) };
}

/**
 * One webhook body as a PaymentEvent, by Recurrente's event types: payment_intent.succeeded/failed
 * (cards), bank_transfer_intent.pending/succeeded/failed (transfers); others carry no state.
 */
export function interpretEvent(messageId: string, body: Record<string, unknown>): PaymentEvent {
  const type = String(body.event_type);
  const checkout = isObject(body.checkout) ? body.checkout : {};
  const paymentId = idOf(body.payment) ?? (typeof body.id === 'string' && body.id.startsWith('pa_') ? body.id : null);
  const amount = centavosOf(body.amount_in_cents);
  const method = isObject(checkout.payment_method) ? checkout.payment_method : null;
  let state: PaymentState | null = null;
  switch (type) {
    case 'payment_intent.succeeded':
      if (paymentId !== null && amount !== null) {
        state = approved(paymentId, amount, currencyOf(body, checkout), 'card', method !== null && method.type === 'card' ? idOf(method) : null, centavosOf(body.fee), 0, cardOf(method));
      }
      break;
    case 'bank_transfer_intent.succeeded':
      if (paymentId !== null && amount !== null) state = approved(paymentId, amount, currencyOf(body, checkout), 'bank_transfer', null, centavosOf(body.fee), 0);
      break;
    case 'payment_intent.failed':
      state = { kind: 'declined', paymentId, reason: typeof body.failure_reason === 'string' ? body.failure_reason : 'rechazado' };
      break;
    case 'bank_transfer_intent.pending':
      state = { kind: 'pending', stage: 'transfer_in_progress', paymentId };
      break;
    case 'bank_transfer_intent.failed':
      state = { kind: 'expired', paymentId };
      break;
  }
  const createdAt = typeof body.created_at === 'string' ? new Date(body.created_at) : null;
  return {
    messageId,
    providerType: type,
    checkoutId: idOf(checkout),
    topUpId: topUpIdOf(checkout.metadata),
    state,
    occurredAt: createdAt !== null && !Number.isNaN(createdAt.getTime()) ? createdAt : null,
  };
}

/** A checkout as Recurrente answers GET /api/checkouts/:id. */
export function interpretCheckout(body: Record<string, unknown>, now: Date): ReadCheckoutOutcome {
  const checkoutId = idOf(body);
  const amount = centavosOf(body.total_in_cents);
  if (checkoutId === null || amount === null) return { kind: 'unavailable', detail: 'a checkout without id or total_in_cents' };
  const expiresAt = typeof body.expires_at === 'string' && !Number.isNaN(Date.parse(body.expires_at)) ? new Date(body.expires_at) : null;
  const state = checkoutState(body, amount, now, expiresAt);
  if (state === null) return { kind: 'unavailable', detail: `a checkout in an unknown status` };
  return { kind: 'found', checkoutId, topUpId: topUpIdOf(body.metadata), amountCentavos: amount, expiresAt, state };
}

function checkoutState(body: Record<string, unknown>, amount: number, now: Date, expiresAt: Date | null): PaymentState | null {
  const paymentId = idOf(body.payment);
  const method = isObject(body.payment_method) ? body.payment_method : null;
  switch (body.status) {
    case 'paid': {
      if (paymentId === null) return null;
      const transfer = method !== null && typeof method.type === 'string' && method.type.startsWith('bank_transfer');
      return approved(paymentId, amount, currencyOf(body), transfer ? 'bank_transfer' : 'card', !transfer && method !== null ? idOf(method) : null, null, centavosOf(body.refunded_amount_in_cents) ?? 0, cardOf(method));
    }
    case 'payment_in_progress':
      return { kind: 'pending', stage: 'transfer_in_progress', paymentId };
    case 'unpaid':
      return expiresAt !== null && expiresAt.getTime() <= now.getTime() ? { kind: 'expired', paymentId } : { kind: 'pending', stage: 'awaiting_customer', paymentId: null };
    case 'expired':
      return { kind: 'expired', paymentId };
    default:
      return null;
  }
}

/**
 * A payment intent as GET /api/payment_intents/:id answers it (its `status` unconfirmed: read with
 * the checkout it carries when it has none).
 */
export function interpretPaymentIntent(body: Record<string, unknown>, paymentId: string, now: Date): ReadPaymentOutcome {
  const checkout = isObject(body.checkout) ? body.checkout : null;
  const amount = centavosOf(body.amount_in_cents) ?? (checkout === null ? null : centavosOf(checkout.total_in_cents));
  const refunded = centavosOf(body.refunded_amount_in_cents) ?? 0;
  const method = isObject(body.payment_method) ? body.payment_method : checkout !== null && isObject(checkout.payment_method) ? checkout.payment_method : null;
  const transfer = (method !== null && typeof method.type === 'string' && method.type.startsWith('bank_transfer')) || (typeof body.id === 'string' && body.id.startsWith('ba_'));
  const found = (state: PaymentState): ReadPaymentOutcome => ({ kind: 'found', checkoutId: checkout === null ? null : idOf(checkout), topUpId: topUpIdOf(body.metadata) ?? (checkout === null ? null : topUpIdOf(checkout.metadata)), state });
  switch (body.status) {
    case 'succeeded':
    case 'paid':
      if (amount === null) return { kind: 'unavailable', detail: 'a paid payment without its amount' };
      return found(approved(paymentId, amount, currencyOf(body, checkout), transfer ? 'bank_transfer' : 'card', !transfer && method !== null ? idOf(method) : null, centavosOf(body.fee), refunded, cardOf(method)));
    case 'failed':
      return found(transfer ? { kind: 'expired', paymentId } : { kind: 'declined', paymentId, reason: typeof body.failure_reason === 'string' ? body.failure_reason : 'rechazado' });
    case 'pending':
    case 'processing':
    case 'in_progress':
      return found({ kind: 'pending', stage: 'transfer_in_progress', paymentId });
  }
  if (checkout !== null && amount !== null) {
    const expiresAt = typeof checkout.expires_at === 'string' && !Number.isNaN(Date.parse(checkout.expires_at)) ? new Date(checkout.expires_at) : null;
    const state = checkoutState({ ...checkout, payment: { id: paymentId }, refunded_amount_in_cents: refunded, currency: currencyOf(body, checkout) }, amount, now, expiresAt);
    if (state !== null) return found(state);
  }
  return { kind: 'unavailable', detail: 'a payment in an unknown status' };
}

export function interpretRefund(body: Record<string, unknown>, requested: number | null): RefundOutcome {
  const refundId = idOf(body);
  const amount = centavosOf(body.customer_refunded_amount_in_cents) ?? centavosOf(body.amount_in_cents) ?? requested;
  if (refundId === null || amount === null) return { kind: 'indeterminate', reason: 'unreadable_answer', detail: 'a refund answer without id or amount' };
  if (body.status === 'succeeded') return { kind: 'refunded', refundId, amountCentavos: amount, status: 'succeeded' };
  if (body.status === 'pending' || body.status === 'processing') return { kind: 'refunded', refundId, amountCentavos: amount, status: 'pending' };
  if (body.status === 'failed') return { kind: 'refused', detail: 'the provider answered the refund failed' };
  return { kind: 'indeterminate', reason: 'unreadable_answer', detail: 'a refund in an unknown status' };
}

/** POST /api/one_time_payments answers `{ id: "on_…", status: "paid" }`; the payment's own id when it gives one. */
export function interpretCharge(body: Record<string, unknown>, amount: number, paymentMethodId: string | null): PaymentState | null {
  const paymentId = idOf(body.payment) ?? (typeof body.payment_intent_id === 'string' ? body.payment_intent_id : null) ?? idOf(body);
  if (paymentId === null) return null;
  switch (body.status) {
    case 'paid':
    case 'succeeded':
      return approved(paymentId, centavosOf(body.amount_in_cents) ?? amount, currencyOf(body), 'card', paymentMethodId, centavosOf(body.fee), 0);
    case 'failed':
    case 'declined':
      return { kind: 'declined', paymentId, reason: typeof body.failure_reason === 'string' ? body.failure_reason : 'rechazado' };
    case 'pending':
    case 'processing':
      return { kind: 'pending', stage: 'transfer_in_progress', paymentId };
    default:
      return null;
  }
}

function approved(
  paymentId: string,
  amount: number,
  currency: string | null,
  method: 'card' | 'bank_transfer',
  paymentMethodId: string | null,
  fee: number | null,
  refunded: number,
  card: SavedCard | null = null,
): PaymentState {
  return { kind: 'approved', paymentId, amountCentavos: amount, currency, method, paymentMethodId, feeCentavos: fee, refundedCentavos: refunded, card };
}

/** A payment method's card (`card.network`, `card.last4`), when it is one and both are readable. */
function cardOf(method: Record<string, unknown> | null): SavedCard | null {
  const card = method !== null && method.type === 'card' && isObject(method.card) ? method.card : null;
  if (card === null || typeof card.network !== 'string' || typeof card.last4 !== 'string') return null;
  return /^[a-z_ -]{1,30}$/i.test(card.network) && /^\d{4}$/.test(card.last4) ? { network: card.network.toLowerCase(), last4: card.last4 } : null;
}

/** The currency an answer names (its own `currency`, else its checkout's), upper case; null when none does. */
function currencyOf(...bodies: Array<Record<string, unknown> | null>): string | null {
  for (const body of bodies) {
    if (body !== null && typeof body.currency === 'string' && /^[A-Za-z]{3}$/.test(body.currency)) return body.currency.toUpperCase();
  }
  return null;
}

function checkoutProblem(checkout: Parameters<PaymentProvider['createCheckout']>[0]): string | null {
  if (!isPayableCentavos(checkout.amountCentavos)) return 'the amount must be whole centavos above zero';
  if (!isPaymentReference(checkout.topUpId)) return 'the top-up id must be 8 to 100 letters, digits, - or _';
  if (checkout.description.trim() === '' || checkout.description.length > 200) return 'the description must be 1 to 200 characters';
  for (const url of [checkout.successUrl, checkout.cancelUrl]) if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) return 'the return URLs must be http(s) URLs';
  if (Number.isNaN(checkout.expiresAt.getTime())) return 'the expiry must be a date';
  const metadata = { ...checkout.metadata, [TOP_UP_METADATA_KEY]: checkout.topUpId };
  const entries = Object.entries(metadata);
  if (entries.length > METADATA_LIMITS.keys || entries.some(([key, value]) => key.length > METADATA_LIMITS.name || value.length > METADATA_LIMITS.value)) {
    return `metadata holds at most ${METADATA_LIMITS.keys} keys of ${METADATA_LIMITS.name} characters with values of ${METADATA_LIMITS.value}`;
  }
  return null;
}

/** Recurrente's ids: a prefix and letters or digits (ch_…, pa_…, pay_m_…). */
function isProviderId(text: string): boolean {
  return /^[a-z]{2,5}_[a-z0-9_]{1,64}$/i.test(text);
}

function idOf(value: unknown): string | null {
  return isObject(value) && typeof value.id === 'string' && value.id !== '' ? value.id : null;
}

function topUpIdOf(metadata: unknown): string | null {
  return isObject(metadata) && typeof metadata[TOP_UP_METADATA_KEY] === 'string' ? (metadata[TOP_UP_METADATA_KEY] as string) : null;
}

/** Amounts come as numbers or, in some answers (total_in_cents), as strings of digits. */
function centavosOf(value: unknown): number | null {
  const number = typeof value === 'string' && /^[0-9]{1,12}$/.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isSafeInteger(number) && number >= 0 ? number : null;
}

function errorText(body: unknown): string {
  // The provider's words about our request (no customer data in them), cut short.
  return isObject(body) && typeof body.error === 'string' ? `: ${body.error.slice(0, 200)}` : '';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseJson(text: string): Record<string, unknown> | unknown[] | null {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown> | unknown[]) : null;
  } catch {
    return null;
  }
}

