import { sql } from 'drizzle-orm';
import { index, integer, pgEnum, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns';
import { consoleUserOrigin } from './console-users';
import { integrations } from './integrations';

// What a person of an integrator organisation may do in the portal (lib/flows/portal-identity/roles.ts):
// propietario everything of its integration, desarrollador credentials and query records,
// facturacion balance, movements and statements.
export const portalRole = pgEnum('portal_role', ['propietario', 'desarrollador', 'facturacion']);
export type PortalRole = (typeof portalRole.enumValues)[number];

// The integrators' own people (the portal, /portal): never console users, each of exactly one
// integration. An e-mail address is one portal account: a person who works for two integrators
// has two accounts, under two addresses (docs/decisions.md). A removed member keeps their row
// (the audit names them) with removed_at set, and can no longer sign in; the address is free again.
export const portalUsers = pgTable(
  'portal_users',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    integrationId: integer('integration_id')
      .notNull()
      .references(() => integrations.id),
    email: text('email').notNull(),
    name: text('name').notNull(),
    role: portalRole('role').notNull(),
    // scrypt, self-describing (lib/platform/security/passwords.ts), chosen by the person when accepting the invitation.
    passwordHash: text('password_hash').notNull(),
    passwordChangedAt: timestamp('password_changed_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true, mode: 'date' }),
    // local: invited, signs in with a password; identity_provider: through the integration's own provider (docs/sso.md).
    origin: consoleUserOrigin('origin').notNull().default('local'),
    // The provider's `sub` for this member, fixed at their first sign-in through it.
    identityProviderSubject: text('identity_provider_subject'),
    removedAt: timestamp('removed_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    // Sign-in finds the account by e-mail regardless of case; removed members free their address.
    uniqueIndex('portal_users_email_lower_unique').on(sql`lower(${table.email})`).where(sql`${table.removedAt} is null`),
    // An integration's members ("Equipo", the console's "Usuarios del portal").
    index('portal_users_integration_idx').on(table.integrationId),
    uniqueIndex('portal_users_identity_provider_subject_unique').on(table.integrationId, table.identityProviderSubject).where(sql`${table.removedAt} is null`),
  ],
);

export type PortalUser = typeof portalUsers.$inferSelect;
