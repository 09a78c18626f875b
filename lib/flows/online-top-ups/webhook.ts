import type { PaymentProvider, WebhookRefusal } from '@/lib/providers/payments/provider';
import { logger } from '@/lib/platform/logging/logger';
import { settleOnlinePayment, type SettleOutcome } from './payments';

// A payment provider's webhook, received: verified by the provider's scheme, then settled inline.
// Inline, not queued: settling is one short transaction with no call to the provider (the event
// says the state), so it answers in milliseconds; a failure answers 500 and the provider sends it
// again, and the poller reads whatever a lost webhook left open.

const log = logger('online-top-ups');

export type WebhookReceipt =
  | { kind: 'refused'; reason: WebhookRefusal }
  /** Verified, about nothing we settle (another event type, or a top-up this service never started). */
  | { kind: 'ignored'; messageId: string }
  | { kind: 'settled'; messageId: string; outcome: SettleOutcome };

export async function receivePaymentWebhook(provider: PaymentProvider, input: { headers: Record<string, string | string[] | undefined>; rawBody: string; now?: Date }): Promise<WebhookReceipt> {
  const verified = provider.verifyWebhook({ headers: input.headers, rawBody: input.rawBody, now: input.now ?? new Date() });
  if (verified.kind === 'refused') {
    // The reason only: the body (which names the customer) and the headers stay out of the log.
    log.warn({ provider: provider.name, reason: verified.reason }, 'payment webhook refused');
    return verified;
  }
  const { event } = verified;
  if (event.state === null || (event.topUpId === null && event.checkoutId === null)) return { kind: 'ignored', messageId: event.messageId };
  const outcome = await settleOnlinePayment(provider, { topUpId: event.topUpId, checkoutId: event.checkoutId, state: event.state, source: 'webhook', messageId: event.messageId });
  log.info({ provider: provider.name, messageId: event.messageId, type: event.providerType, topUpId: event.topUpId, outcome: outcome.kind }, 'payment webhook settled');
  if (outcome.kind === 'unknown') return { kind: 'ignored', messageId: event.messageId };
  return { kind: 'settled', messageId: event.messageId, outcome };
}
