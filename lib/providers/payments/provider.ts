// What the product asks of an online payment provider, whichever it is (Recurrente first:
// lib/providers/payments/recurrente.ts). Every answer is a closed outcome; an adapter never throws
// for what the provider or the network did. Amounts are integer centavos end to end.

/** Quetzales only: top-ups are sold in GTQ. */
export type PaymentCurrency = 'GTQ';

/** Why nothing happened at the provider, and sending again later is right. */
export type PaymentRetryReason = 'not_sent' | 'provider_error' | 'rate_limited';
/**
 * Why we cannot tell whether the provider acted: the request may have arrived. `provider_error`:
 * a 5xx to a charge or refund, which may come after the money moved.
 */
export type PaymentIndeterminateReason = 'timeout_after_sending' | 'connection_dropped' | 'unreadable_answer' | 'provider_error';

/** The failures every call that asks the provider to act can end in. */
export type ActionFailure =
  /** Refused before anything was sent (our own checks) or by the provider (4xx): fix the request. */
  | { kind: 'refused'; detail: string }
  | { kind: 'retry_later'; reason: PaymentRetryReason; detail: string }
  /** Wrong keys: every call would fail alike; stop and fix the settings. */
  | { kind: 'credentials_refused'; detail: string }
  /**
   * Sent, but no readable answer: the provider may have acted. Settle it by reading (the checkout,
   * the payment, the charge by its idempotency key); never send the same action again on this alone.
   */
  | { kind: 'indeterminate'; reason: PaymentIndeterminateReason; detail: string };

/** A read that could not be answered: try again later; it says nothing about the payment. */
export type ReadFailure = { kind: 'unavailable'; detail: string };

export type PaymentMethodKind = 'card' | 'bank_transfer';

/**
 * Where one payment stands. `approved` is the only state money may be credited from, and only
 * once per `paymentId`.
 */
export type PaymentState =
  | {
      kind: 'approved';
      /** The provider's payment id: what a credit is keyed by. */
      paymentId: string;
      amountCentavos: number;
      /**
       * The currency the provider reported the payment in (ISO 4217, upper case), or null when its
       * answer named none: only GTQ, the checkout's, is ever credited.
       */
      currency: string | null;
      method: PaymentMethodKind;
      /** A card saved by the provider, for automatic top-ups; null for a transfer. */
      paymentMethodId: string | null;
      /** The card as its owner recognizes it (network and last four digits), when the provider says. */
      card?: SavedCard | null;
      /** The provider's fee when it says (informative: the credit is the amount). */
      feeCentavos: number | null;
      /** Refunded so far (0 when the provider does not say). */
      refundedCentavos: number;
    }
  /** A card was refused; on a checkout the customer may still try another. */
  | { kind: 'declined'; paymentId: string | null; reason: string }
  /**
   * Not paid yet: the customer has not paid (`awaiting_customer`), or a bank transfer was started
   * and settles within a day (`transfer_in_progress`, its payment id known).
   */
  | { kind: 'pending'; stage: 'awaiting_customer' | 'transfer_in_progress'; paymentId: string | null }
  /** The checkout expired unpaid, or a transfer never arrived: nothing will be credited. */
  | { kind: 'expired'; paymentId: string | null };

export interface CheckoutRequest {
  /**
   * Our top-up's id, fixed before the first attempt and sent as metadata, so every payment and
   * event names the top-up it pays. Never personal data (it travels to the provider).
   */
  topUpId: string;
  amountCentavos: number;
  currency: PaymentCurrency;
  /** What the hosted page shows the customer ("Recarga de saldo"). */
  description: string;
  successUrl: string;
  cancelUrl: string;
  expiresAt: Date;
  /** More metadata of ours (ids only, never personal data): at most 49 keys besides the top-up's. */
  metadata?: Record<string, string>;
}

export type CreateCheckoutOutcome =
  | { kind: 'created'; checkoutId: string; checkoutUrl: string }
  | ActionFailure;

export type ReadCheckoutOutcome =
  | { kind: 'found'; checkoutId: string; topUpId: string | null; amountCentavos: number; expiresAt: Date | null; state: PaymentState }
  | { kind: 'not_found' }
  | ReadFailure;

export type ReadPaymentOutcome =
  | { kind: 'found'; checkoutId: string | null; topUpId: string | null; state: PaymentState }
  | { kind: 'not_found' }
  | ReadFailure;

export interface RefundRequest {
  paymentId: string;
  /** null: the whole payment. */
  amountCentavos: number | null;
}

export type RefundOutcome =
  | { kind: 'refunded'; refundId: string; amountCentavos: number; status: 'succeeded' | 'pending' }
  /** A partial refund the provider (or its settings) does not take: nothing was sent. */
  | { kind: 'unsupported'; detail: string }
  | ActionFailure;

export interface ChargeRequest {
  paymentMethodId: string;
  amountCentavos: number;
  currency: PaymentCurrency;
  description: string;
  topUpId: string;
  /** Ours, fixed before the first attempt: the same key is the same charge, and how it is found again. */
  idempotencyKey: string;
}

export type ChargeOutcome =
  | { kind: 'charged'; state: Extract<PaymentState, { kind: 'approved' | 'declined' | 'pending' }> }
  | ActionFailure;

export type FindChargeOutcome = { kind: 'found'; state: PaymentState } | { kind: 'not_found' } | ReadFailure;

/** What a verified webhook says, in the product's words. */
export interface PaymentEvent {
  /** The provider's message id: the same message delivered twice carries the same one. */
  messageId: string;
  /** The provider's own event name, for logs and support. */
  providerType: string;
  checkoutId: string | null;
  topUpId: string | null;
  /** null for an event about something else than a payment (a subscription, say): nothing to do. */
  state: PaymentState | null;
  occurredAt: Date | null;
}

export type WebhookRefusal = 'missing_headers' | 'bad_signature' | 'stale_timestamp' | 'unreadable_body';

export type WebhookOutcome = { kind: 'verified'; event: PaymentEvent } | { kind: 'refused'; reason: WebhookRefusal };

export interface WebhookInput {
  /** The request's headers, names in any case. */
  headers: Record<string, string | string[] | undefined>;
  /** The body exactly as received: the signature covers its bytes, not a re-serialized JSON. */
  rawBody: string;
  now: Date;
}

/**
 * An online payment provider.
 *
 * Money is credited only from a verified webhook or a read (`readCheckout`, `readPayment`), never
 * from the browser's return to the success URL, and once per payment id: webhooks arrive more
 * than once and out of order, so a consumer keys on `state.paymentId`, not on the message.
 */
export interface PaymentProvider {
  /** A short name for logs and the console: "recurrente". */
  readonly name: string;
  /** Whether `refund` takes a part of a payment (otherwise it answers `unsupported` to one). */
  readonly partialRefunds?: boolean;
  createCheckout(request: CheckoutRequest): Promise<CreateCheckoutOutcome>;
  readCheckout(checkoutId: string): Promise<ReadCheckoutOutcome>;
  readPayment(paymentId: string): Promise<ReadPaymentOutcome>;
  /** Pure and synchronous: checks the signature and its time, then reads the event. */
  verifyWebhook(input: WebhookInput): WebhookOutcome;
  refund(request: RefundRequest): Promise<RefundOutcome>;
  chargeSavedMethod(request: ChargeRequest): Promise<ChargeOutcome>;
  /** Settles an indeterminate charge: what the provider holds under our idempotency key. */
  findCharge(idempotencyKey: string): Promise<FindChargeOutcome>;
}

const IDEMPOTENCY_KEY = /^[A-Za-z0-9][A-Za-z0-9_-]{7,99}$/;

/** An idempotency key or top-up id we send: letters, digits, `-`, `_`; 8 to 100 characters. */
export function isPaymentReference(text: string): boolean {
  return IDEMPOTENCY_KEY.test(text);
}

/** A positive whole number of centavos a payment can carry (Q 0.01 up to Q 10,000,000.00). */
export function isPayableCentavos(value: number): boolean {
  return Number.isSafeInteger(value) && value > 0 && value <= 1_000_000_000;
}

/** A card as the provider describes it: its network (visa, mastercard…) and its last four digits. */
export interface SavedCard {
  network: string;
  last4: string;
}
