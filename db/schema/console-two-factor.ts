import { bigint, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';
import { consoleUsers } from './console-users';

// Two-factor sign-in of console users (lib/flows/two-factor). One row per user who started enrolment:
// the TOTP secret encrypted with AES-256-GCM (never in clear text, never logged), confirmed once
// the user typed a code it produced. A row without confirmedAt is an enrolment in progress and
// asks nothing at sign-in.
export const consoleTwoFactor = pgTable('console_two_factor', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => consoleUsers.id, { onDelete: 'cascade' }),
  /** v1.<iv>.<tag>.<ciphertext> (base64url), bound to the user id (lib/flows/two-factor/secret-box.ts). */
  secretCiphertext: text('secret_ciphertext').notNull(),
  confirmedAt: timestamp('confirmed_at', { withTimezone: true, mode: 'date' }),
  /** The 30-second step of the last code accepted: a code of that step or an earlier one is a replay. */
  lastUsedStep: bigint('last_used_step', { mode: 'number' }),
  createdAt: createdAt(),
});

export type ConsoleTwoFactor = typeof consoleTwoFactor.$inferSelect;

// Ten single-use recovery codes per enrolled user, stored as SHA-256 (the codes are random, 50
// bits each, and throttled like passwords), shown once. Regenerating deletes the old ones.
export const consoleRecoveryCodes = pgTable(
  'console_recovery_codes',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => consoleUsers.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (table) => [
    // A second-factor check reads the user's codes; "Cuenta" counts the unused ones.
    index('console_recovery_codes_user_idx').on(table.userId),
  ],
);

export type ConsoleRecoveryCode = typeof consoleRecoveryCodes.$inferSelect;
