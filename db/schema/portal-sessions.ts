import { boolean, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';
import { portalUsers } from './portal-users';

// One row per signed-in portal session (kept by lib/flows/auth/sessions.ts's sessionStore('portal'),
// read with its user by lib/flows/portal-identity/sessions.ts). The browser holds only a random id in an opaque
// cookie; the row keeps its SHA-256, so a copy of this table opens no session.
// Signing out, ending a session from "Sesiones activas", a password change or reset, and removing
// the member delete rows: that browser is signed out at its next request, on every instance.
// Separate from console_sessions: a portal session never opens the console, nor the reverse.
export const portalSessions = pgTable(
  'portal_sessions',
  {
    idHash: text('id_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => portalUsers.id, { onDelete: 'cascade' }),
    publicId: uuid('public_id').notNull().defaultRandom().unique(),
    /** The browser's User-Agent at sign-in, cut to 300 characters. */
    userAgent: text('user_agent').notNull().default(''),
    /** The client's address at sign-in, then at each last-seen update. */
    clientIp: text('client_ip').notNull().default(''),
    createdAt: createdAt(),
    /** Updated at most once a minute per session. */
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    /** When this session's user typed a second-factor code (or enrolled); null while one is owed. */
    secondFactorAt: timestamp('second_factor_at', { withTimezone: true, mode: 'date' }),
    /** Opened through the operator's identity provider (docs/sso.md): no password, no second factor of ours. */
    viaIdentityProvider: boolean('via_identity_provider').notNull().default(false),
    /** The provider's session id (`sid`), which a back-channel logout token may name instead of the user. */
    identityProviderSid: text('identity_provider_sid'),
    /** The provider's refresh token, sealed (lib/core/sealing): the session is re-checked with it (lib/flows/auth/sso-renewal.ts). */
    identityProviderRefreshToken: text('identity_provider_refresh_token'),
    /** When the provider last confirmed the session (its sign-in, then each renewal). */
    identityProviderCheckedAt: timestamp('identity_provider_checked_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [
    // Each sign-in deletes the sessions that expired.
    index('portal_sessions_expires_idx').on(table.expiresAt),
    // "Sesiones activas", and ending all of a user's sessions.
    index('portal_sessions_user_idx').on(table.userId),
  ],
);

export type PortalSession = typeof portalSessions.$inferSelect;
