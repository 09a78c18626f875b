import { check, index, integer, pgTable, primaryKey, smallint, text, timestamp } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { integrations } from './integrations';

/**
 * One row per Idempotency-Key an integration sent to a catalog in the last 24 hours
 * (lib/core/idempotency). `key_hash` is the key's SHA-256, never the key itself (integrators choose its
 * text). `request_sealed` is the normalized request (catalog and fields), and `answer_sealed` the
 * stored answer's body, both encrypted with the personal-data key: they hold the NIT or CUI and the
 * taxpayer's data. `running` rows belong to the lookup named by `owner_request_id`; `done` rows are
 * replayed. Purged 24 hours after `created_at`.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    integrationId: integer('integration_id')
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    keyHash: text('key_hash').notNull(),
    requestSealed: text('request_sealed').notNull(),
    ownerRequestId: text('owner_request_id').notNull(),
    state: text('state', { enum: ['running', 'done'] }).notNull(),
    answerStatus: smallint('answer_status'),
    answerSealed: text('answer_sealed'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    claimedAt: timestamp('claimed_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.integrationId, table.keyHash] }),
    // The purge deletes the oldest first.
    index('idempotency_keys_created_idx').on(table.createdAt),
    check('idempotency_keys_state_check', sql`${table.state} in ('running', 'done')`),
    check('idempotency_keys_done_has_answer', sql`${table.state} = 'running' or (${table.answerStatus} is not null and ${table.answerSealed} is not null)`),
  ],
);
