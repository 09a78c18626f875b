import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';
import { integrations } from './integrations';
import { portalRole, portalUsers } from './portal-users';

// The single-use links the portal sends by e-mail (lib/flows/portal-identity/links.ts): only the SHA-256 of the
// link's code is kept, so a copy of the table opens nothing. A link works once (its use is a
// conditional update) and until it expires.

// An invitation to join an integration's portal, with the role the inviter chose; valid 72 hours.
// A new invitation to the same address in the same integration revokes the pending one.
export const portalInvitations = pgTable(
  'portal_invitations',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    integrationId: integer('integration_id')
      .notNull()
      .references(() => integrations.id),
    email: text('email').notNull(),
    role: portalRole('role').notNull(),
    codeHash: text('code_hash').notNull().unique(),
    /** Who invited, as the audit names them (lib/core/audit describeActor). */
    invitedBy: text('invited_by').notNull(),
    /**
     * The owner who sent it, when an owner did (staff invitations have none): their pending
     * invitations are revoked when they are removed or stop being an owner (lib/flows/portal-identity/team.ts).
     */
    invitedByUserId: integer('invited_by_user_id').references(() => portalUsers.id),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true, mode: 'date' }),
    acceptedUserId: integer('accepted_user_id').references(() => portalUsers.id),
    /** Replaced by a newer invitation, cancelled, or never delivered. */
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
    /**
     * Set with revokedAt when a person cancelled it (an owner, an administrator): its link's page
     * says it was cancelled, rather than replaced or used.
     */
    cancelledAt: timestamp('cancelled_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (table) => [
    // An integration's pending invitations ("Equipo", the console's "Usuarios del portal").
    index('portal_invitations_pending_idx').on(table.integrationId, table.createdAt).where(sql`${table.acceptedAt} is null and ${table.revokedAt} is null`),
  ],
);

export type PortalInvitation = typeof portalInvitations.$inferSelect;

// A password reset asked for on "¿Olvidaste tu contraseña?"; valid one hour.
export const portalPasswordResets = pgTable(
  'portal_password_resets',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => portalUsers.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (table) => [
    // The request checks the account's latest link (at most one e-mail every few minutes).
    index('portal_password_resets_user_idx').on(table.userId, table.createdAt),
  ],
);
