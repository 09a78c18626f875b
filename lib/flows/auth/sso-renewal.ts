import { and, eq, isNotNull, lt, or, isNull, sql } from 'drizzle-orm';
import { db } from '@/db/client';
import { consoleSessions, consoleUsers } from '@/db/schema';
import { writeAudit, type Actor } from '@/lib/core/audit/audit';
import { open, seal } from '@/lib/core/sealing/envelope';
import { logger } from '@/lib/platform/logging/logger';
import { clientSecretBasic, renewAtProvider } from './provider-metadata';
import { sessionRecheckSeconds } from './session-settings';
import { consoleSessionStore } from './sessions';
import { auditRefusal, IDENTITY_PROVIDER_ACTIONS, roleOfClaims, type IdentityClaims } from './sso';
import { consoleSsoSettings } from './sso-settings';

// A console session opened through the identity provider is re-checked with it every
// SESSION_RECHECK_SECONDS, with the refresh token it was given at sign-in: a user disabled or
// signed out at the provider loses the console within that time even when no logout token comes,
// and a role the directory changed applies then, not at the next sign-in (docs/sso.md). One
// instance at a time does it (a periodic job, lib/root/startup.ts). A provider that does not
// answer changes nothing: the session still ends at SESSION_MAX_HOURS.

const log = logger('auth');
const PROVIDER: Actor = { kind: 'system', name: 'identity-provider' };
/** Sessions re-checked per run: a console has tens of people, a run covers them all. */
const BATCH = 200;

export interface RecheckRun {
  checked: number;
  renewed: number;
  ended: number;
  unavailable: number;
}

/** Re-checks every session opened through the provider that is due; what it found. */
export async function recheckProviderSessions(): Promise<RecheckRun> {
  const run: RecheckRun = { checked: 0, renewed: 0, ended: 0, unavailable: 0 };
  const settings = consoleSsoSettings();
  if (settings.CONSOLE_OIDC_ISSUER === undefined) return run;
  const database = await db();
  const due = await database
    .select({
      idHash: consoleSessions.idHash,
      userId: consoleSessions.userId,
      refreshToken: consoleSessions.identityProviderRefreshToken,
      subject: consoleUsers.identityProviderSubject,
      role: consoleUsers.role,
    })
    .from(consoleSessions)
    .innerJoin(consoleUsers, eq(consoleUsers.id, consoleSessions.userId))
    .where(
      and(
        eq(consoleSessions.viaIdentityProvider, true),
        isNotNull(consoleSessions.identityProviderRefreshToken),
        sql`${consoleSessions.expiresAt} > now()`,
        or(isNull(consoleSessions.identityProviderCheckedAt), lt(consoleSessions.identityProviderCheckedAt, sql`now() - make_interval(secs => ${sessionRecheckSeconds()})`)),
      ),
    )
    .limit(BATCH);
  for (const session of due) {
    run.checked++;
    let refreshToken: string;
    try {
      refreshToken = open(session.refreshToken!, 'identity_provider_refresh_token');
    } catch (error) {
      // Sealed under a key no longer configured: nothing to renew with; the session ends at its age.
      log.warn({ err: error, userId: session.userId }, 'a session’s refresh token cannot be opened');
      await database.update(consoleSessions).set({ identityProviderRefreshToken: null }).where(eq(consoleSessions.idHash, session.idHash));
      continue;
    }
    const renewal = await renewAtProvider(
      {
        issuer: settings.CONSOLE_OIDC_ISSUER,
        clientId: settings.CONSOLE_OIDC_CLIENT_ID!,
        authorization: clientSecretBasic(settings.CONSOLE_OIDC_CLIENT_ID!, settings.CONSOLE_OIDC_CLIENT_SECRET!),
        timeoutMs: settings.CONSOLE_OIDC_TIMEOUT_MS,
      },
      refreshToken,
      session.subject,
    );
    if (renewal.kind === 'unavailable') {
      run.unavailable++;
      continue;
    }
    if (renewal.kind === 'refused') {
      run.ended++;
      await endSession(session.idHash, session.userId);
      continue;
    }
    const role = renewal.claims ? roleOfClaims(renewal.claims as IdentityClaims, settings) : session.role;
    if (!role) {
      // Out of every console group: every session of the user ends now, as at a refused sign-in.
      run.ended++;
      const ended = await database.transaction((tx) => consoleSessionStore.endAllSessionsIn(tx, session.userId));
      await auditRefusal(session.userId, 'sso_no_role', ended);
      continue;
    }
    if (role !== session.role) {
      // The directory changed the role: written now, and the user's sessions end (their version no longer matches).
      run.ended++;
      await database.transaction(async (tx) => {
        await tx.update(consoleUsers).set({ role, passwordChangedAt: new Date(), updatedAt: sql`now()` }).where(eq(consoleUsers.id, session.userId));
        await writeAudit(tx, PROVIDER, { action: IDENTITY_PROVIDER_ACTIONS.roleChanged, targetType: 'console_user', targetId: session.userId, before: { role: session.role }, after: { role } });
      });
      continue;
    }
    run.renewed++;
    await database
      .update(consoleSessions)
      .set({
        identityProviderCheckedAt: sql`now()`,
        ...(renewal.refreshToken !== null ? { identityProviderRefreshToken: seal(renewal.refreshToken, 'identity_provider_refresh_token') } : {}),
      })
      .where(eq(consoleSessions.idHash, session.idHash));
  }
  return run;
}

/** The provider no longer vouches for this session: it ends, audited. */
async function endSession(idHash: string, userId: number): Promise<void> {
  await (await db()).transaction(async (tx) => {
    const ended = await tx.delete(consoleSessions).where(eq(consoleSessions.idHash, idHash)).returning({ userId: consoleSessions.userId });
    if (ended.length === 0) return;
    await writeAudit(tx, PROVIDER, { action: IDENTITY_PROVIDER_ACTIONS.sessionRefused, targetType: 'console_user', targetId: userId, before: { sessions: 1 }, after: { sessions: 0 } });
  });
}
