import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, pgEnum, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns';
import { integrations } from './integrations';
import { ledgerEntries } from './ledger-entries';
import { portalUsers } from './portal-users';

/**
 * Where an online top-up stands (docs/payments.md, "The money path"). `indeterminate`: the
 * checkout's creation got no readable answer (harmless: its URL reached nobody).
 */
export const onlinePaymentState = pgEnum('online_payment_state', ['created', 'checkout_open', 'pending_transfer', 'credited', 'declined', 'expired', 'indeterminate']);
export type OnlinePaymentState = (typeof onlinePaymentState.enumValues)[number];

// An online top-up (card or bank transfer through the payment provider): its id is ours, fixed
// before the first call to the provider and sent as the checkout's metadata, so every webhook and
// read names it. The credit happens once per provider payment: the unique index on (provider,
// provider_payment_id) and the credited row's ledger entry, both kept by PostgreSQL.
export const onlinePayments = pgTable(
  'online_payments',
  {
    id: text('id').primaryKey(),
    integrationId: integer('integration_id')
      .notNull()
      .references(() => integrations.id),
    // The portal user who started it: the credit's audit names them as its actor.
    startedBy: integer('started_by')
      .notNull()
      .references(() => portalUsers.id),
    // What is credited, and the fee shown before paying (informative: the credit is the amount).
    amountCentavos: bigint('amount_centavos', { mode: 'number' }).notNull(),
    feeCentavos: bigint('fee_centavos', { mode: 'number' }).notNull().default(0),
    provider: text('provider').notNull(),
    checkoutId: text('checkout_id'),
    checkoutUrl: text('checkout_url'),
    providerPaymentId: text('provider_payment_id'),
    state: onlinePaymentState('state').notNull().default('created'),
    // The provider's words on a decline or an expiry; never personal data.
    detail: text('detail'),
    ledgerEntryId: bigint('ledger_entry_id', { mode: 'number' }).references(() => ledgerEntries.id),
    // The card it was paid with, as its owner recognizes it (network, last four digits), when the
    // provider said: how the automatic top-up's page names a saved card. Never the number.
    cardNetwork: text('card_network'),
    cardLast4: text('card_last4'),
    // The checkout's expiry; a pending transfer is polled until a day after it started.
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    pendingSince: timestamp('pending_since', { withTimezone: true, mode: 'date' }),
    settledAt: timestamp('settled_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    // What makes the credit happen once: one row per provider payment, whatever delivers it.
    uniqueIndex('online_payments_provider_payment_unique').on(table.provider, table.providerPaymentId).where(sql`${table.providerPaymentId} is not null`),
    uniqueIndex('online_payments_provider_checkout_unique').on(table.provider, table.checkoutId).where(sql`${table.checkoutId} is not null`),
    uniqueIndex('online_payments_ledger_entry_unique').on(table.ledgerEntryId).where(sql`${table.ledgerEntryId} is not null`),
    // The poller's work: what is still open, oldest first.
    index('online_payments_open_idx').on(table.createdAt).where(sql`${table.state} in ('checkout_open', 'pending_transfer', 'indeterminate', 'declined')`),
    index('online_payments_integration_idx').on(table.integrationId, table.createdAt.desc()),
    check('online_payments_amount_positive', sql`${table.amountCentavos} > 0`),
    check('online_payments_fee_not_negative', sql`${table.feeCentavos} >= 0`),
    check('online_payments_credited_entry', sql`(${table.state} = 'credited') = (${table.ledgerEntryId} is not null)`),
  ],
);

// Every state an online payment passed through, and what told us (support reads them by the id).
export const onlinePaymentEvents = pgTable(
  'online_payment_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    onlinePaymentId: text('online_payment_id')
      .notNull()
      .references(() => onlinePayments.id),
    state: onlinePaymentState('state').notNull(),
    // What told us: start (our own call to the provider), webhook, or read (a server-side read).
    source: text('source').notNull(),
    // The provider's message id for a webhook (the same message twice shows twice).
    providerMessageId: text('provider_message_id'),
    detail: text('detail'),
    createdAt: createdAt(),
  },
  (table) => [index('online_payment_events_payment_idx').on(table.onlinePaymentId, table.id)],
);

export type OnlinePayment = typeof onlinePayments.$inferSelect;
export type OnlinePaymentEvent = typeof onlinePaymentEvents.$inferSelect;

export const onlinePaymentRefundState = pgEnum('online_payment_refund_state', ['requested', 'done', 'failed', 'indeterminate']);
export type OnlinePaymentRefundState = (typeof onlinePaymentRefundState.enumValues)[number];

// An administrator's refund of a credited online payment, the whole of it or a part (several parts
// add up to at most the credited amount: checked under the payment's row lock). The row, and the
// ledger entry that takes the amount back from the balance, are written in one transaction before
// the provider is called: one open refund per payment (the partial unique index) keeps a double
// click or another instance from refunding twice, and a refund that failed gives the amount back
// once (`returned_entry_id`).
export const onlinePaymentRefunds = pgTable(
  'online_payment_refunds',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    onlinePaymentId: text('online_payment_id')
      .notNull()
      .references(() => onlinePayments.id),
    integrationId: integer('integration_id')
      .notNull()
      .references(() => integrations.id),
    // What left the balance: the credited amount, or a part of it.
    amountCentavos: bigint('amount_centavos', { mode: 'number' }).notNull(),
    // True: the provider was asked for the whole payment (amount and fee, nothing refunded before);
    // false: for exactly amount_centavos. What a read of the payment's refunded amount is checked against.
    whole: boolean('whole').notNull().default(true),
    state: onlinePaymentRefundState('state').notNull().default('requested'),
    reason: text('reason').notNull(),
    // The administrator who asked for it (describeActor).
    requestedBy: text('requested_by').notNull(),
    providerRefundId: text('provider_refund_id'),
    // The provider's outcome or the read that settled it; never personal data.
    detail: text('detail'),
    ledgerEntryId: bigint('ledger_entry_id', { mode: 'number' })
      .notNull()
      .references(() => ledgerEntries.id),
    returnedEntryId: bigint('returned_entry_id', { mode: 'number' }).references(() => ledgerEntries.id),
    // The credit note of the payment's invoice, requested once the provider refunded.
    invoiceReversalId: integer('invoice_reversal_id'),
    settledAt: timestamp('settled_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    index('online_payment_refunds_payment_idx').on(table.onlinePaymentId, table.id),
    // One refund under way per payment: a read of the payment's refunded amount then says which it was.
    uniqueIndex('online_payment_refunds_one_open').on(table.onlinePaymentId).where(sql`${table.state} in ('requested', 'indeterminate')`),
    uniqueIndex('online_payment_refunds_ledger_entry_unique').on(table.ledgerEntryId),
    uniqueIndex('online_payment_refunds_returned_entry_unique').on(table.returnedEntryId).where(sql`${table.returnedEntryId} is not null`),
    check('online_payment_refunds_amount_positive', sql`${table.amountCentavos} > 0`),
  ],
);

export type OnlinePaymentRefund = typeof onlinePaymentRefunds.$inferSelect;

// Every call this service made to the payment provider and what it answered (its outcome's kind,
// never a body, an id or an amount): how the console, the Panel and /estado tell whether the
// provider answers, like invoice_attempts does for the certifier (lib/flows/online-top-ups/provider-health.ts).
export const paymentProviderCalls = pgTable(
  'payment_provider_calls',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    provider: text('provider').notNull(),
    // create_checkout, read_checkout, read_payment, refund, charge, find_charge.
    call: text('call').notNull(),
    // The outcome's kind (created, found, not_found, refunded, charged, refused, retry_later,
    // credentials_refused, indeterminate, unavailable, unsupported).
    outcome: text('outcome').notNull(),
    durationMs: integer('duration_ms').notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('payment_provider_calls_created_idx').on(table.createdAt)],
);

export type PaymentProviderCall = typeof paymentProviderCalls.$inferSelect;
