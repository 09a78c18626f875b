import { and, eq, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import { db } from '@/db/client';
import { integrationIdentityProviders, integrations, portalSessions, portalUsers } from '@/db/schema';
import { writeAudit } from '@/lib/core/audit/audit';
import { open, seal } from '@/lib/core/sealing/envelope';
import { renewAtProvider } from '@/lib/flows/auth/provider-metadata';
import { sessionRecheckSeconds } from '@/lib/flows/auth/session-settings';
import { logger } from '@/lib/platform/logging/logger';
import { integratorActor } from './accounts';
import { endAllPortalSessions } from './sessions';
import { basicAuth, integratorProviderFetcher, PORTAL_IDENTITY_PROVIDER_ACTIONS, portalRoleOfClaims } from './sso';

// The portal's sessions opened through an integrator's provider, re-checked there every
// SESSION_RECHECK_SECONDS with their refresh tokens, as the console's are (lib/flows/auth/sso-renewal.ts):
// a person the company disabled, or signed out there, loses the portal within that time, and a
// role their groups no longer give ends their sessions. A provider that does not answer changes
// nothing; the session still ends at SESSION_MAX_HOURS.

const log = logger('portal');
const TIMEOUT_MS = 10_000;
const BATCH = 500;

export interface PortalRecheckRun {
  checked: number;
  renewed: number;
  ended: number;
  unavailable: number;
}

/** Re-checks every portal session opened through an integrator's provider that is due. */
export async function recheckPortalProviderSessions(): Promise<PortalRecheckRun> {
  const run: PortalRecheckRun = { checked: 0, renewed: 0, ended: 0, unavailable: 0 };
  const database = await db();
  const due = await database
    .select({
      idHash: portalSessions.idHash,
      refreshToken: portalSessions.identityProviderRefreshToken,
      member: { id: portalUsers.id, email: portalUsers.email, role: portalUsers.role, integrationId: portalUsers.integrationId, subject: portalUsers.identityProviderSubject },
      integrationName: integrations.nombre,
      provider: integrationIdentityProviders,
    })
    .from(portalSessions)
    .innerJoin(portalUsers, eq(portalUsers.id, portalSessions.userId))
    .innerJoin(integrations, eq(integrations.id, portalUsers.integrationId))
    .innerJoin(integrationIdentityProviders, eq(integrationIdentityProviders.integrationId, portalUsers.integrationId))
    .where(
      and(
        eq(portalSessions.viaIdentityProvider, true),
        isNotNull(portalSessions.identityProviderRefreshToken),
        sql`${portalSessions.expiresAt} > now()`,
        or(isNull(portalSessions.identityProviderCheckedAt), lt(portalSessions.identityProviderCheckedAt, sql`now() - make_interval(secs => ${sessionRecheckSeconds()})`)),
      ),
    )
    .limit(BATCH);
  for (const session of due) {
    run.checked++;
    let refreshToken: string;
    try {
      refreshToken = open(session.refreshToken!, 'identity_provider_refresh_token');
    } catch (error) {
      log.warn({ err: error, userId: session.member.id }, 'a portal session’s refresh token cannot be opened');
      await database.update(portalSessions).set({ identityProviderRefreshToken: null }).where(eq(portalSessions.idHash, session.idHash));
      continue;
    }
    const renewal = await renewAtProvider(
      { issuer: session.provider.issuer, clientId: session.provider.clientId, authorization: basicAuth(session.provider), timeoutMs: TIMEOUT_MS, fetcher: integratorProviderFetcher() },
      refreshToken,
      session.member.subject,
    );
    if (renewal.kind === 'unavailable') {
      run.unavailable++;
      continue;
    }
    const actor = integratorActor({ ...session.member, integrationName: session.integrationName });
    const role = renewal.kind === 'renewed' ? (renewal.claims ? portalRoleOfClaims(renewal.claims, session.provider) : session.member.role) : undefined;
    if (renewal.kind === 'refused' || !role || role !== session.member.role) {
      // No longer vouched for, or no longer (or otherwise) in the company's portal groups: its sessions end; a changed role is written.
      run.ended++;
      await database.transaction(async (tx) => {
        const ended = await endAllPortalSessions(tx, session.member.id);
        if (renewal.kind === 'renewed' && role) {
          await tx.update(portalUsers).set({ role, updatedAt: sql`now()` }).where(eq(portalUsers.id, session.member.id));
          await writeAudit(tx, actor, { action: PORTAL_IDENTITY_PROVIDER_ACTIONS.roleChanged, targetType: 'portal_user', targetId: session.member.id, before: { role: session.member.role }, after: { role } });
        } else {
          await writeAudit(tx, { kind: 'system', name: 'identity-provider' }, {
            action: renewal.kind === 'refused' ? PORTAL_IDENTITY_PROVIDER_ACTIONS.sessionRefused : PORTAL_IDENTITY_PROVIDER_ACTIONS.refused,
            targetType: 'portal_user',
            targetId: session.member.id,
            before: { sessions: ended },
            after: renewal.kind === 'refused' ? { sessions: 0 } : { sessions: 0, identityProviderRefusal: 'sso_no_role' },
          });
        }
      });
      continue;
    }
    run.renewed++;
    await database
      .update(portalSessions)
      .set({ identityProviderCheckedAt: sql`now()`, ...(renewal.refreshToken !== null ? { identityProviderRefreshToken: seal(renewal.refreshToken, 'identity_provider_refresh_token') } : {}) })
      .where(eq(portalSessions.idHash, session.idHash));
  }
  return run;
}
