import { boolean, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';
import { consoleUsers } from './console-users';

// One row per signed-in console session. The session cookie (a signed, encrypted next-auth JWT)
// names its row; signing out deletes the row, so a copied cookie stops working at once instead of
// living out its 8 hours. Only the SHA-256 of the session id is stored. "Sesiones activas" lists
// a user's rows by their public id (never the hash), with the device and address they were last
// used from; a row lives at most 8 hours, so the addresses go with it.
export const consoleSessions = pgTable(
  'console_sessions',
  {
    idHash: text('id_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => consoleUsers.id, { onDelete: 'cascade' }),
    publicId: uuid('public_id').notNull().defaultRandom().unique(),
    /** The browser's User-Agent at sign-in, cut to 300 characters. */
    userAgent: text('user_agent').notNull().default(''),
    /** The client's address (as the throttle sees it) at sign-in, then at each last-seen update. */
    clientIp: text('client_ip').notNull().default(''),
    createdAt: createdAt(),
    /** Updated at most once a minute per session (lib/flows/auth/sessions.ts). */
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    /**
     * When this session's user typed a TOTP or recovery code (lib/flows/two-factor). While the user has
     * two-factor sign-in and this is null, the session reaches only the page that asks for a code.
     */
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
    index('console_sessions_expires_idx').on(table.expiresAt),
    // "Sesiones activas" and "end all of a user's sessions" look sessions up by user.
    index('console_sessions_user_idx').on(table.userId),
  ],
);

export type ConsoleSession = typeof consoleSessions.$inferSelect;
