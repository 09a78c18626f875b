import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { consoleUsers } from './console-users';
import { portalUsers } from './portal-users';

/**
 * A NIT or CUI a console user or a portal user searched for, kept behind an opaque reference so the
 * identifier never travels in a URL (balancer logs, browser history, Referer): the search form posts
 * it, the list's address carries `busqueda=<reference>` (lib/core/personal-data/search-references.ts).
 * Sealed like the records' identifiers, readable only by the user who searched, and gone after an
 * hour (the retention job deletes expired rows). Exactly one of the two users owns each row: a
 * portal user's reference never opens for a console user with the same number, nor the reverse.
 */
export const identifierSearches = pgTable(
  'identifier_searches',
  {
    reference: text('reference').primaryKey(),
    userId: integer('user_id').references(() => consoleUsers.id, { onDelete: 'cascade' }),
    portalUserId: integer('portal_user_id').references(() => portalUsers.id, { onDelete: 'cascade' }),
    identifierSealed: text('identifier_sealed').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [
    index('identifier_searches_expires_idx').on(table.expiresAt),
    check('identifier_searches_one_owner', sql`num_nonnulls(${table.userId}, ${table.portalUserId}) = 1`),
  ],
);
