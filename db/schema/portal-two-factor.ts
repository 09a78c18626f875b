import { bigint, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';
import { portalUsers } from './portal-users';

// Two-factor sign-in of portal users: the same columns as the console's (console_two_factor,
// console_recovery_codes), so lib/flows/two-factor serves both (its realm names the tables). The secret
// is sealed bound to "portal_user:<id>", so a console user's box does not open on a portal row.
export const portalTwoFactor = pgTable('portal_two_factor', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => portalUsers.id, { onDelete: 'cascade' }),
  secretCiphertext: text('secret_ciphertext').notNull(),
  confirmedAt: timestamp('confirmed_at', { withTimezone: true, mode: 'date' }),
  lastUsedStep: bigint('last_used_step', { mode: 'number' }),
  createdAt: createdAt(),
});

export const portalRecoveryCodes = pgTable(
  'portal_recovery_codes',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => portalUsers.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (table) => [
    // A second-factor check reads the user's codes; "Mi cuenta" counts the unused ones.
    index('portal_recovery_codes_user_idx').on(table.userId),
  ],
);
