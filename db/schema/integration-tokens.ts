import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';
import { integrations } from './integrations';

/**
 * An integration's tokens (lib/core/credentials): several may be valid at once, so an integrator can
 * rotate without downtime. A token is never stored, only its SHA-256 (tokens are 256-bit random,
 * so a fast hash is enough) and its first characters, shown so people can tell tokens apart.
 */
export const integrationTokens = pgTable(
  'integration_tokens',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    integrationId: integer('integration_id')
      .notNull()
      .references(() => integrations.id),
    label: text('label').notNull(),
    tokenHash: text('token_hash').notNull(),
    tokenPrefix: text('token_prefix').notNull(),
    createdAt: createdAt(),
    // Written in batches from each instance's memory (lib/core/credentials/last-use.ts), at most a minute behind.
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }),
    // Past this instant the token is refused; null: no expiry. Set by rotation (the overlap window) or at creation.
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
    // The token that replaced this one by rotation, for the console's "old token stops working at".
    replacedById: integer('replaced_by_id'),
  },
  (table) => [
    uniqueIndex('integration_tokens_hash_unique').on(table.tokenHash),
    index('integration_tokens_integration_idx').on(table.integrationId, table.id),
    check('integration_tokens_label_not_empty', sql`length(${table.label}) > 0`),
  ],
);

export type IntegrationToken = typeof integrationTokens.$inferSelect;

/**
 * The addresses an integration's right credentials came from and were refused for being outside
 * its allow-list: the latest instant and how many, so support can answer "why do we get 401 from
 * our new server?". Counted in each instance's memory and added here in batches, like refusals.
 */
export const integrationRefusedAddresses = pgTable(
  'integration_refused_addresses',
  {
    integrationId: integer('integration_id')
      .notNull()
      .references(() => integrations.id),
    address: text('address').notNull(),
    lastRefusedAt: timestamp('last_refused_at', { withTimezone: true, mode: 'date' }).notNull(),
    refusals: bigint('refusals', { mode: 'number' }).notNull(),
  },
  (table) => [primaryKey({ name: 'integration_refused_addresses_pkey', columns: [table.integrationId, table.address] })],
);
