import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgEnum, pgTable, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns';
import { integrations } from './integrations';
import { onlinePayments } from './online-payments';
import { portalUsers } from './portal-users';

/**
 * An integration's automatic top-up (docs/payments.md, "Automatic top-up"): `active` charges the
 * saved card when the balance falls under the threshold; `paused` after a charge and its retry
 * failed, until an owner acts in the portal; `off` by an owner.
 */
export const autoTopUpState = pgEnum('auto_top_up_state', ['active', 'paused', 'off']);
export type AutoTopUpState = (typeof autoTopUpState.enumValues)[number];

// One row per integration that ever opted in: the owner's choices and where it stands.
export const autoTopUps = pgTable(
  'auto_top_ups',
  {
    integrationId: integer('integration_id')
      .primaryKey()
      .references(() => integrations.id),
    state: autoTopUpState('state').notNull(),
    // The provider's saved card, read from a paid checkout of this integration.
    paymentMethodId: text('payment_method_id').notNull(),
    // That card as its owner recognizes it (network, last four digits), when the provider said.
    cardNetwork: text('card_network'),
    cardLast4: text('card_last4'),
    // Our online top-up whose card it is (what the portal names it by).
    sourcePaymentId: text('source_payment_id')
      .notNull()
      .references(() => onlinePayments.id),
    thresholdCentavos: bigint('threshold_centavos', { mode: 'number' }).notNull(),
    amountCentavos: bigint('amount_centavos', { mode: 'number' }).notNull(),
    dailyMax: smallint('daily_max').notNull(),
    // Why it paused (the last failure, without personal data); null while active or off.
    pausedReason: text('paused_reason'),
    pausedAt: timestamp('paused_at', { withTimezone: true, mode: 'date' }),
    // The owner who last set it: the charges' audit names them as actor.
    configuredBy: integer('configured_by')
      .notNull()
      .references(() => portalUsers.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    check('auto_top_ups_amounts_positive', sql`${table.thresholdCentavos} > 0 and ${table.amountCentavos} > 0`),
    check('auto_top_ups_daily_max_range', sql`${table.dailyMax} between 1 and 20`),
  ],
);

export type AutoTopUp = typeof autoTopUps.$inferSelect;

/**
 * One attempt at an automatic charge. `in_flight` from before the provider is called until its
 * answer (or a read by the idempotency key) settles it; `credited`; `failed` (declined, refused,
 * or found never made).
 */
export const autoTopUpChargeState = pgEnum('auto_top_up_charge_state', ['in_flight', 'credited', 'failed']);
export type AutoTopUpChargeState = (typeof autoTopUpChargeState.enumValues)[number];

// The attempts, each written (with its idempotency key) before the provider is called. The unique
// index on the integration's in-flight attempt is what keeps two instances, or a retry and a late
// answer, from charging twice at once.
export const autoTopUpCharges = pgTable(
  'auto_top_up_charges',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    integrationId: integer('integration_id')
      .notNull()
      .references(() => integrations.id),
    // The online top-up it credits through, as any online payment.
    onlinePaymentId: text('online_payment_id')
      .notNull()
      .references(() => onlinePayments.id),
    idempotencyKey: text('idempotency_key').notNull(),
    // 1: the charge the threshold triggered; 2: its one retry.
    attempt: smallint('attempt').notNull(),
    state: autoTopUpChargeState('state').notNull().default('in_flight'),
    // The provider's outcome or the read that settled it; never personal data.
    detail: text('detail'),
    settledAt: timestamp('settled_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('auto_top_up_charges_in_flight_unique').on(table.integrationId).where(sql`${table.state} = 'in_flight'`),
    uniqueIndex('auto_top_up_charges_key_unique').on(table.idempotencyKey),
    uniqueIndex('auto_top_up_charges_payment_unique').on(table.onlinePaymentId),
    index('auto_top_up_charges_integration_idx').on(table.integrationId, table.createdAt.desc()),
    check('auto_top_up_charges_attempt_range', sql`${table.attempt} in (1, 2)`),
  ],
);

export type AutoTopUpCharge = typeof autoTopUpCharges.$inferSelect;
