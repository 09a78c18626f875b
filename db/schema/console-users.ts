import { sql } from 'drizzle-orm';
import { boolean, integer, pgEnum, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns';

export const consoleRole = pgEnum('console_role', ['admin', 'support']);
export type ConsoleRole = (typeof consoleRole.enumValues)[number];

export const consoleUsers = pgTable(
  'console_users',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    // scrypt, self-describing: scrypt$N$r$p$salt$hash (base64url).
    passwordHash: text('password_hash').notNull(),
    role: consoleRole('role').notNull(),
    active: boolean('active').notNull().default(true),
    passwordChangedAt: timestamp('password_changed_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    // Set when someone else chose or learnt the password (an initial one, a reset): until the
    // user picks their own, a session reaches only the page that changes it.
    mustChangePassword: boolean('must_change_password').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    // Sign-in looks users up by e-mail regardless of case.
    uniqueIndex('console_users_email_lower_unique').on(sql`lower(${table.email})`),
  ],
);

export type ConsoleUser = typeof consoleUsers.$inferSelect;
export type NewConsoleUser = typeof consoleUsers.$inferInsert;
