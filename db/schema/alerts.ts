import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgEnum, pgTable, primaryKey, smallint, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns';
import { integrations } from './integrations';

// The first three are the administrators' alerts; account_under_attack goes to the console or
// portal user whose password is being guessed (lib/reactions/alerts/attack-notice.ts); the rest are only ever sent to
// integrators (lib/reactions/integrator-notifications), which are told about their balance too. test: an
// administrator's "Enviar aviso de prueba", to the alert channels or to an integration's webhook.
export const alertCondition = pgEnum('alert_condition', [
  'balance_low',
  'balance_exhausted',
  'breaker_open',
  'statement_issued',
  'token_expiring',
  'token_revoked',
  'source_unavailable',
  'source_recovered',
  'account_under_attack',
  'test',
  // Issue 34: the technical contact is told of every credential change, by the portal or the console.
  'token_created',
  'token_rotated',
  'allow_list_changed',
  // Issue 34, point 4: what only the service's administrators change is told too.
  'tariff_changed',
  'lookups_changed',
  // Issue 34, point 3: the billing contact is told when a reported deposit is credited or rejected.
  'top_up_approved',
  'top_up_rejected',
  // Issue 35, point 4: a bulk job that ended (completed, also with failures, or cancelled) is told to
  // the technical contact; one paused for lack of balance, to the billing contact.
  'bulk_job_finished',
  'bulk_job_paused',
  // Issue 35, point 5: a watch list's run found changes; told to the technical contact.
  'watch_list_changes',
  // The FEL certifier refused the service's credentials: invoices wait until they are fixed.
  'certifier_credentials_refused',
  // A top-up's FEL invoice was certified: the billing contact gets it (its PDF attached), once per invoice.
  'invoice_issued',
  // An online top-up (card or transfer) was credited, or a pending transfer expired uncredited.
  'online_top_up_credited',
  'online_top_up_expired',
  // An automatic top-up's charge and its retry failed: it paused until an owner acts.
  'auto_top_up_paused',
  // Issue 64: money that does not add up (a payment in another currency or amount than its
  // checkout's, a month whose books do not close): the administrators are told.
  'books_mismatch',
  // Issue 64, point 2: a credited top-up's invoice waits for the integration's NIT; its billing contact is told.
  'invoice_awaiting_receptor',
]);
export type AlertCondition = (typeof alertCondition.enumValues)[number];
export type AdministratorAlertCondition = 'balance_low' | 'balance_exhausted' | 'breaker_open' | 'certifier_credentials_refused' | 'books_mismatch' | 'test';
/**
 * The conditions that are no notice kind of an integrator's: every other one is, declared in its own
 * file (lib/reactions/integrator-notifications/kinds), and the registry there lists each exactly once.
 */
export type NonNoticeCondition = 'breaker_open' | 'certifier_credentials_refused' | 'books_mismatch' | 'account_under_attack' | 'test';
/**
 * Who a delivery is for: the console's administrators (the Alertas page), an integrator's contact
 * (its integration page), or one console or portal user about their own account.
 */
export const ALERT_AUDIENCES = ['administrators', 'integrator', 'console_user', 'portal_user'] as const;
export type AlertAudience = (typeof ALERT_AUDIENCES)[number];
/** Which of the integrator's recipients a notification goes to. */
export const NOTIFICATION_RECIPIENTS = ['technical', 'billing', 'webhook'] as const;
export type NotificationRecipient = (typeof NOTIFICATION_RECIPIENTS)[number];
export const alertChannel = pgEnum('alert_channel', ['webhook', 'email']);
export type AlertChannel = (typeof alertChannel.enumValues)[number];
// not_sent: due but never tried, because this service has no channel for it (an integrator
// contact's e-mail without ALERT_SMTP_HOST): listed so the integration's page tells the truth.
export const alertDeliveryStatus = pgEnum('alert_delivery_status', ['pending', 'sent', 'failed', 'not_sent']);
export type AlertDeliveryStatus = (typeof alertDeliveryStatus.enumValues)[number];

/**
 * One row per condition that ever alerted ("balance_low:12", "breaker_open:catalog"): when it last
 * did. An alert is sent only by the statement that moves last_sent_at forward past the repeat
 * interval (INSERT … ON CONFLICT … WHERE), so every instance together sends at most one alert per
 * condition per interval.
 */
export const alertConditions = pgTable('alert_conditions', {
  key: text('key').primaryKey(),
  lastSentAt: timestamp('last_sent_at', { withTimezone: true, mode: 'date' }).notNull(),
});

/**
 * Each alert to each channel (an outbox): written with the alert, sent off the request path by any
 * instance, retried with exponential backoff up to ALERT_MAX_ATTEMPTS, shown on the console's
 * "Alertas" page.
 */
export const alertDeliveries = pgTable(
  'alert_deliveries',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    // The alert's id, the same on every channel and every retry (receivers deduplicate on it).
    alertId: text('alert_id').notNull(),
    condition: alertCondition('condition').notNull(),
    integrationId: integer('integration_id').references(() => integrations.id),
    source: text('source'),
    channel: alertChannel('channel').notNull(),
    audience: text('audience').$type<AlertAudience>().notNull().default('administrators'),
    // An integrator notification's recipient (its technical or billing contact, or its webhook); null for administrators.
    recipient: text('recipient').$type<NotificationRecipient>(),
    // The webhook's URL or the e-mail's recipients, as they were when the alert was raised.
    target: text('target').notNull(),
    // The alert as JSON, exactly the bytes the webhook signs and sends.
    payload: text('payload').notNull(),
    status: alertDeliveryStatus('status').notNull().default('pending'),
    attempts: smallint('attempts').notNull().default(0),
    // When a pending delivery is next tried; while an instance tries it, the end of its lease.
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    lastResponseStatus: smallint('last_response_status'),
    lastError: text('last_error'),
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    // The "Alertas" page lists newest first, keyset on (created_at, id) (a backward scan).
    index('alert_deliveries_created_idx').on(table.createdAt, table.id),
    // The delivery worker's "what is due": only pending rows, which are few.
    index('alert_deliveries_due_idx').on(table.nextAttemptAt).where(sql`${table.status} = 'pending'`),
    // An integration's page lists its own notifications, newest first.
    index('alert_deliveries_integrator_idx').on(table.integrationId, table.createdAt, table.id).where(sql`${table.audience} = 'integrator'`),
    check('alert_deliveries_audience_check', sql`${table.audience} in ('administrators', 'integrator', 'console_user', 'portal_user')`),
    check(
      'alert_deliveries_recipient_check',
      sql`(${table.audience} = 'administrators' and ${table.recipient} is null) or (${table.audience} = 'integrator' and ${table.recipient} in ('technical', 'billing', 'webhook') and ${table.integrationId} is not null) or (${table.audience} in ('console_user', 'portal_user') and ${table.recipient} is null and ${table.integrationId} is null)`,
    ),
  ],
);

/** Every attempt at a delivery: when, what the receiver answered or why it failed. */
export const alertDeliveryAttempts = pgTable(
  'alert_delivery_attempts',
  {
    deliveryId: bigint('delivery_id', { mode: 'number' })
      .notNull()
      .references(() => alertDeliveries.id, { onDelete: 'cascade' }),
    attempt: smallint('attempt').notNull(),
    responseStatus: smallint('response_status'),
    error: text('error'),
    durationMs: integer('duration_ms').notNull(),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.deliveryId, table.attempt] })],
);

export type AlertDelivery = typeof alertDeliveries.$inferSelect;
export type NewAlertDelivery = typeof alertDeliveries.$inferInsert;
export type AlertDeliveryAttempt = typeof alertDeliveryAttempts.$inferSelect;
export type NewAlertDeliveryAttempt = typeof alertDeliveryAttempts.$inferInsert;

/**
 * A kind of notification one of an integrator's recipients does not want (lib/reactions/integrator-notifications):
 * everything is sent unless turned off here, per recipient and kind, from the integration's page.
 */
export const integrationNotificationOptOuts = pgTable(
  'integration_notification_opt_outs',
  {
    integrationId: integer('integration_id')
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    recipient: text('recipient').$type<NotificationRecipient>().notNull(),
    kind: alertCondition('kind').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.integrationId, table.recipient, table.kind] }),
    check('integration_notification_opt_outs_recipient_check', sql`${table.recipient} in ('technical', 'billing', 'webhook')`),
  ],
);
export type IntegrationNotificationOptOut = typeof integrationNotificationOptOuts.$inferSelect;
