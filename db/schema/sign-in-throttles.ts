import { index, integer, pgEnum, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

export const signInThrottleScope = pgEnum('sign_in_throttle_scope', ['account', 'ip', 'account_ip', 'password_change_ip', 'password_change_account', 'second_factor_ip', 'second_factor_account', 'known_device']);
export type SignInThrottleScope = (typeof signInThrottleScope.enumValues)[number];

// Failed console sign-ins counted per account (lowercased e-mail), per client IP, per account
// and IP together, and per known device (a browser that signed in to the account before), and wrong current passwords on "Cambiar contraseña" per client IP and per
// account (the user's id) and wrong second-factor codes likewise, under scopes of their own (lib/flows/auth/throttle.ts), in the database so
// every instance sees the same counts. One row per subject; a success clears the account's rows. Rows whose window and lock have passed
// are dead weight and are deleted.
export const signInThrottles = pgTable(
  'sign_in_throttles',
  {
    scope: signInThrottleScope('scope').notNull(),
    subject: text('subject').notNull(),
    // Attempts in the current window that did not succeed (an attempt counts from the moment it
    // starts, so parallel guesses cannot all slip in under the limit).
    failures: integer('failures').notNull(),
    windowStartedAt: timestamp('window_started_at', { withTimezone: true, mode: 'date' }).notNull(),
    lockedUntil: timestamp('locked_until', { withTimezone: true, mode: 'date' }),
    // The account's pace (scope 'account' only): no guess at its password starts before this, from
    // any address, and the one that starts writes its own id in last_attempt_id as it moves the
    // time on, so parallel guesses learn in one statement which of them got the slot.
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }),
    lastAttemptId: text('last_attempt_id'),
  },
  (table) => [
    primaryKey({ columns: [table.scope, table.subject] }),
    // The clean-up of expired rows looks for old windows.
    index('sign_in_throttles_window_idx').on(table.windowStartedAt),
  ],
);

export type SignInThrottle = typeof signInThrottles.$inferSelect;
