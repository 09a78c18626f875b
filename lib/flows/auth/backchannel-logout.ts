import { and, eq, inArray } from 'drizzle-orm';
import { db } from '@/db/client';
import { consoleSessions, consoleUsers } from '@/db/schema';
import { writeAudit } from '@/lib/core/audit/audit';
import { logger } from '@/lib/platform/logging/logger';
import { providerMetadata, verifyLogoutToken, type ProviderMetadata } from './provider-metadata';
import { IDENTITY_PROVIDER_ACTIONS } from './sso';
import { consoleSsoSettings } from './sso-settings';

// OpenID Connect Back-Channel Logout 1.0: the identity provider posts a signed logout token when
// a user signs out there or is disabled, and every console session of that user (or of the
// provider's session it names) ends. Sessions are rows, so every instance refuses them at their
// next request.

const log = logger('auth');

export type LogoutResult = { ok: true; ended: number } | { ok: false; reason: 'off' | 'invalid' | 'unavailable' };

/** The user and provider session a logout token names, once verified with the provider's keys; or why not. */
async function verifiedLogoutClaims(logoutToken: string): Promise<{ sub?: string; sid?: string } | 'invalid' | 'unavailable'> {
  const settings = consoleSsoSettings();
  const issuer = settings.CONSOLE_OIDC_ISSUER!;
  let keys: ProviderMetadata['keys'];
  try {
    keys = (await providerMetadata(issuer, settings.CONSOLE_OIDC_TIMEOUT_MS)).keys;
  } catch (error) {
    log.warn({ err: error }, 'the identity provider’s keys could not be read for a logout token');
    return 'unavailable';
  }
  const named = await verifyLogoutToken(logoutToken, keys, { issuer, clientId: settings.CONSOLE_OIDC_CLIENT_ID! });
  if (!named) log.warn('a logout token was refused');
  return named ?? 'invalid';
}

/** Ends the console sessions a logout token names; audited per user with how many ended. */
export async function receiveLogoutToken(logoutToken: string): Promise<LogoutResult> {
  if (consoleSsoSettings().CONSOLE_OIDC_ISSUER === undefined) return { ok: false, reason: 'off' };
  const claims = await verifiedLogoutClaims(logoutToken);
  if (typeof claims === 'string') return { ok: false, reason: claims };
  const { sub, sid } = claims;
  return (await db()).transaction(async (tx) => {
    const users = sub ? await tx.select({ id: consoleUsers.id }).from(consoleUsers).where(eq(consoleUsers.identityProviderSubject, sub)) : [];
    const bySubject = users.length > 0 ? inArray(consoleSessions.userId, users.map((user) => user.id)) : undefined;
    // With a sid, only that provider session's; with a sub alone, every session the user opened through the provider.
    const condition = sid
      ? and(eq(consoleSessions.identityProviderSid, sid), ...(bySubject ? [bySubject] : []))
      : bySubject
        ? and(bySubject, eq(consoleSessions.viaIdentityProvider, true))
        : undefined;
    if (!condition) return { ok: true, ended: 0 };
    const ended = await tx.delete(consoleSessions).where(condition).returning({ userId: consoleSessions.userId });
    for (const userId of new Set(ended.map((row) => row.userId))) {
      const count = ended.filter((row) => row.userId === userId).length;
      await writeAudit(tx, { kind: 'system', name: 'identity-provider' }, {
        action: IDENTITY_PROVIDER_ACTIONS.loggedOut,
        targetType: 'console_user',
        targetId: userId,
        before: { sessions: count },
        after: { sessions: 0 },
      });
    }
    return { ok: true, ended: ended.length };
  });
}
