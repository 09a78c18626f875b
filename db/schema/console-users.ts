import { sql } from 'drizzle-orm';
import { boolean, integer, pgEnum, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns';

export const consoleRole = pgEnum('console_role', ['admin', 'support']);
export type ConsoleRole = (typeof consoleRole.enumValues)[number];

/** local: created by an administrator, signs in with a password; identity_provider: through the operator's OpenID provider (docs/sso.md). */
export const consoleUserOrigin = pgEnum('console_user_origin', ['local', 'identity_provider']);
export type ConsoleUserOrigin = (typeof consoleUserOrigin.enumValues)[number];

/** What password_hash holds for a user who has no password (signs in through the identity provider only). */
export const NO_PASSWORD = 'none$identity-provider';

export const consoleUsers = pgTable(
  'console_users',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    // scrypt, self-describing: scrypt$N$r$p$salt$hash (base64url); NO_PASSWORD for a user of the identity provider.
    passwordHash: text('password_hash').notNull(),
    role: consoleRole('role').notNull(),
    active: boolean('active').notNull().default(true),
    passwordChangedAt: timestamp('password_changed_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    // Set when someone else chose or learnt the password (an initial one, a reset): until the
    // user picks their own, a session reaches only the page that changes it.
    mustChangePassword: boolean('must_change_password').notNull().default(false),
    origin: consoleUserOrigin('origin').notNull().default('local'),
    // The identity provider's `sub` for this user, fixed at their first sign-in through it: a
    // changed e-mail at the provider still finds the same user.
    identityProviderSubject: text('identity_provider_subject'),
    lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('console_users_identity_provider_subject_unique').on(table.identityProviderSubject),
    // Sign-in looks users up by e-mail regardless of case.
    uniqueIndex('console_users_email_lower_unique').on(sql`lower(${table.email})`),
  ],
);

export type ConsoleUser = typeof consoleUsers.$inferSelect;
export type NewConsoleUser = typeof consoleUsers.$inferInsert;
