import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';
import { consoleUsers } from './console-users';

// One row per signed-in console session. The session cookie (a signed, encrypted next-auth JWT)
// names its row; signing out deletes the row, so a copied cookie stops working at once instead of
// living out its 8 hours. Only the SHA-256 of the session id is stored.
export const consoleSessions = pgTable(
  'console_sessions',
  {
    idHash: text('id_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => consoleUsers.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [
    // Each sign-in deletes the sessions that expired.
    index('console_sessions_expires_idx').on(table.expiresAt),
  ],
);

export type ConsoleSession = typeof consoleSessions.$inferSelect;
