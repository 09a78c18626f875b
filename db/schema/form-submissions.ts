import { index, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * One row per console form sending (and CLI command given `--envio`) that changed something
 * (lib/core/submissions): who sent it (the audit's actor text) and the form's key. Inserted in the same
 * transaction as the change's audit entry, so the change and its key commit together and a second
 * sending of the same key, on any instance, finds the row and does nothing. `message` is the first
 * sending's answer for the form (never a secret: a token is shown only to the sending that made it).
 * Purged after a day by the retention job.
 */
export const formSubmissions = pgTable(
  'form_submissions',
  {
    actor: text('actor').notNull(),
    key: text('key').notNull(),
    message: text('message'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.actor, table.key] }), index('form_submissions_created_idx').on(table.createdAt)],
);
