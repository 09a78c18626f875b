import { eq, sql } from 'drizzle-orm';
import { db } from '@/db/client';
import { consoleUsers, NO_PASSWORD, type ConsoleRole, type ConsoleUser } from '@/db/schema';
import { NO_ACCOUNT, writeAudit, type Actor, type Executor } from '@/lib/core/audit/audit';
import { logger } from '@/lib/platform/logging/logger';
import { consoleSessionStore } from './sessions';
import type { SsoRefusal } from './sign-in-errors';
import { consoleSsoSettings, type ConsoleSsoSettings } from './sso-settings';

// Who enters the console through the identity provider, and with which role (docs/sso.md). The
// ID token has been verified by then (openid-client: signature by the provider's published keys,
// issuer, audience, expiry with a bounded clock skew, nonce, state and PKCE); what is decided here
// is the operator's own rule: the tenant or domain, the role from the configured claim, and the
// user it is, created the first time and never matched to a local account by e-mail alone.

const log = logger('auth');

/** The claims of a verified ID token that the decision reads. */
export interface IdentityClaims {
  sub: string;
  email?: unknown;
  name?: unknown;
  tid?: unknown;
  hd?: unknown;
  sid?: unknown;
  [claim: string]: unknown;
}

export const IDENTITY_PROVIDER_ACTIONS = {
  refused: 'user.identity_provider_refused',
  created: 'user.identity_provider_created',
  linked: 'user.identity_provider_linked',
  roleChanged: 'user.identity_provider_role_changed',
  /** An administrator lets a local account be taken over by the provider at its next sign-in. */
  allowLink: 'user.allow_identity_provider_link',
  /** The provider ended the user's sessions (a back-channel logout token). */
  loggedOut: 'user.identity_provider_logout',
  /** The provider refused to renew a session (the account disabled or signed out there): it ended. */
  sessionRefused: 'user.identity_provider_session_refused',
} as const;

const PROVIDER: Actor = { kind: 'system', name: 'identity-provider' };

/** The console role the claim's values map to: administrator first, then support; none when neither matches. */
export function roleOfClaims(claims: IdentityClaims, settings: Pick<ConsoleSsoSettings, 'CONSOLE_OIDC_ROLE_CLAIM' | 'CONSOLE_OIDC_ADMIN_VALUES' | 'CONSOLE_OIDC_SUPPORT_VALUES'>): ConsoleRole | undefined {
  const claim = claims[settings.CONSOLE_OIDC_ROLE_CLAIM];
  const values = new Set((Array.isArray(claim) ? claim : [claim]).filter((value): value is string => typeof value === 'string'));
  if (settings.CONSOLE_OIDC_ADMIN_VALUES.some((value) => values.has(value))) return 'admin';
  if (settings.CONSOLE_OIDC_SUPPORT_VALUES.some((value) => values.has(value))) return 'support';
  return undefined;
}

/** The provider-specific guards: an Entra ID token of another tenant, a Google account outside the company's domain. */
export function guardRefusal(claims: IdentityClaims, settings: Pick<ConsoleSsoSettings, 'CONSOLE_OIDC_ENTRA_TENANT_ID' | 'CONSOLE_OIDC_GOOGLE_DOMAIN'>): SsoRefusal | undefined {
  const tenant = settings.CONSOLE_OIDC_ENTRA_TENANT_ID;
  if (tenant !== undefined && (typeof claims.tid !== 'string' || claims.tid.toLowerCase() !== tenant)) return 'sso_wrong_tenant';
  const domain = settings.CONSOLE_OIDC_GOOGLE_DOMAIN;
  if (domain !== undefined && (typeof claims.hd !== 'string' || claims.hd.toLowerCase() !== domain)) return 'sso_wrong_domain';
  if (typeof claims.email !== 'string' || !claims.email.includes('@')) return 'sso_no_email';
  return undefined;
}

export type Admission = { ok: true; user: ConsoleUser } | { ok: false; refusal: SsoRefusal };

/**
 * Decides a sign-in through the provider and records it: the user found by the provider's subject
 * (or, once, the local account an administrator released for it), created just in time when new,
 * their role set from the claim. A role changed by the directory ends the user's other sessions
 * (the version they carry no longer matches); a role gone refuses and ends them all. Every outcome
 * is audited.
 */
export async function admitThroughProvider(claims: IdentityClaims): Promise<Admission> {
  const settings = consoleSsoSettings();
  const guard = guardRefusal(claims, settings);
  if (guard) {
    await auditRefusal(undefined, guard);
    return { ok: false, refusal: guard };
  }
  const email = String(claims.email).trim().toLowerCase();
  const name = typeof claims.name === 'string' && claims.name.trim() !== '' ? claims.name.trim().slice(0, 120) : email;
  const role = roleOfClaims(claims, settings);
  const database = await db();
  return database.transaction(async (tx): Promise<Admission> => {
    const [bySubject] = await tx.select().from(consoleUsers).where(eq(consoleUsers.identityProviderSubject, claims.sub)).for('update');
    let user = bySubject;
    if (!user) {
      const [byEmail] = await tx.select().from(consoleUsers).where(sql`lower(${consoleUsers.email}) = ${email}`).for('update');
      if (byEmail && (byEmail.origin !== 'identity_provider' || byEmail.identityProviderSubject !== null)) {
        return refuse(tx, byEmail.id, 'sso_not_linked');
      }
      if (!role) return refuse(tx, byEmail?.id, 'sso_no_role');
      if (byEmail) {
        [user] = await tx.update(consoleUsers).set({ identityProviderSubject: claims.sub, updatedAt: sql`now()` }).where(eq(consoleUsers.id, byEmail.id)).returning();
        await writeAudit(tx, PROVIDER, { action: IDENTITY_PROVIDER_ACTIONS.linked, targetType: 'console_user', targetId: byEmail.id, before: null, after: { email } });
      } else {
        [user] = await tx
          .insert(consoleUsers)
          .values({ email, name, role, passwordHash: NO_PASSWORD, origin: 'identity_provider', identityProviderSubject: claims.sub, mustChangePassword: false })
          .returning();
        await writeAudit(tx, PROVIDER, { action: IDENTITY_PROVIDER_ACTIONS.created, targetType: 'console_user', targetId: user!.id, before: null, after: { email, name, role } });
      }
    }
    const current = user!;
    if (!role) {
      // Removed from the console's groups: no entry, and the sessions it had end now.
      const ended = await consoleSessionStore.endAllSessionsIn(tx, current.id);
      return refuse(tx, current.id, 'sso_no_role', ended);
    }
    if (!current.active) return refuse(tx, current.id, 'sso_deactivated');
    const roleChanged = role !== current.role;
    const [updated] = await tx
      .update(consoleUsers)
      .set({ role, name, lastSignInAt: sql`now()`, updatedAt: sql`now()`, ...(roleChanged ? { passwordChangedAt: new Date() } : {}) })
      .where(eq(consoleUsers.id, current.id))
      .returning();
    if (roleChanged) {
      await writeAudit(tx, PROVIDER, { action: IDENTITY_PROVIDER_ACTIONS.roleChanged, targetType: 'console_user', targetId: current.id, before: { role: current.role }, after: { role } });
    }
    return { ok: true, user: updated! };
  });
}

async function refuse(executor: Executor, userId: number | undefined, refusal: SsoRefusal, sessionsEnded = 0): Promise<Admission> {
  await auditRefusal(userId, refusal, sessionsEnded, executor);
  return { ok: false, refusal };
}

/**
 * A refused sign-in through the provider, with its reason; `executor` when it belongs to the
 * decision's transaction. The token's own failures (expired, another issuer or audience, a bad
 * signature) are refused before any user is known.
 */
export async function auditRefusal(userId: number | undefined, refusal: SsoRefusal, sessionsEnded = 0, executor?: Executor): Promise<void> {
  const write = (into: Executor) =>
    writeAudit(into, { kind: 'anonymous' }, {
      action: IDENTITY_PROVIDER_ACTIONS.refused,
      targetType: 'console_user',
      targetId: userId ?? NO_ACCOUNT,
      before: null,
      after: { identityProviderRefusal: refusal, ...(sessionsEnded > 0 ? { sessionsEnded } : {}) },
    });
  try {
    if (executor) await write(executor);
    else await (await db()).transaction(write);
  } catch (error) {
    log.error({ err: error, refusal }, 'could not audit a refused identity provider sign-in');
  }
}

/**
 * What a failure inside the provider's exchange was (openid-client's messages), for the audit
 * and the sign-in page: an expired token, one that is not ours or not genuine, or no answer.
 */
export function refusalOfProviderError(error: unknown): SsoRefusal {
  const message = error instanceof Error ? `${error.message} ${(error as { cause?: unknown }).cause instanceof Error ? ((error as { cause: Error }).cause.message ?? '') : ''}` : String(error);
  if (/expired|exp\b|iat\b|nbf\b|is in the future/i.test(message)) return 'sso_expired_token';
  if (/unexpected iss|iss mismatch|aud mismatch|aud is missing|azp|nonce mismatch|state mismatch|signature|no valid key|JWKS|kid|alg|checks\.|id_token/i.test(message)) return 'sso_invalid_token';
  if (/access_denied/i.test(message)) return 'sso_cancelled';
  return 'sso_unavailable';
}
