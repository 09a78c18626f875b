import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import { decodeJwt, errors as joseErrors, jwtVerify } from 'jose';
import { db } from '@/db/client';
import { identityProviderSignIns, integrationIdentityProviders, integrations, portalSessions, portalUsers, NO_PASSWORD, type IntegrationIdentityProvider, type PortalRole } from '@/db/schema';
import { NO_ACCOUNT, writeAudit, type Executor, type IntegratorActor } from '@/lib/core/audit/audit';
import { open, seal } from '@/lib/core/sealing/envelope';
import { clientSecretBasic, providerMetadata, sameIssuer, verifyLogoutToken, type ProviderFetcher, type ProviderMetadata } from '@/lib/flows/auth/provider-metadata';
import { checkedDispatcher, outboundTargetProblem } from '@/lib/platform/security/outbound-targets';
import { outboundTargetPolicy } from '@/lib/platform/settings/outbound-targets';
import { fetch as undiciFetch } from 'undici';
import type { SessionOrigin } from '@/lib/flows/auth/sessions';
import type { SsoRefusal } from '@/lib/flows/auth/sign-in-errors';
import { logger } from '@/lib/platform/logging/logger';
import { fail, ok, type Result } from '@/lib/platform/result';
import { integratorActor } from './accounts';
import { endAllPortalSessions, startPortalSession } from './sessions';

// A portal sign-in through the integrator company's own OpenID Provider (docs/sso.md, "The
// portal"): the member types their e-mail, its domain names the integration whose provider it is,
// and the browser goes there with the authorization code flow (PKCE S256, state, nonce); back at
// /portal/sso/retorno the code is exchanged and the ID token verified (signature by the
// provider's published keys, issuer, audience, expiry with 10 s of skew, nonce), then the member is
// found by the provider's subject, created just in time with the role the claim gives, and a portal
// session starts. Each pending sign-in is a row keyed by its state, used once.

const log = logger('portal');
const SIGN_IN_TTL_SECONDS = 600;
const TIMEOUT_MS = 10_000;
const CLOCK_TOLERANCE_SECONDS = 10;
const PORTAL_ROLE_ORDER: readonly PortalRole[] = ['propietario', 'desarrollador', 'facturacion'];
export const PORTAL_SSO_CALLBACK_PATH = '/portal/sso/retorno';
export const PORTAL_SSO_LOGOUT_PATH = '/api/portal/sso/cierre-de-sesion';

export const PORTAL_IDENTITY_PROVIDER_ACTIONS = {
  refused: 'portal_user.identity_provider_refused',
  created: 'portal_user.identity_provider_created',
  linked: 'portal_user.identity_provider_linked',
  roleChanged: 'portal_user.identity_provider_role_changed',
  loggedOut: 'portal_user.identity_provider_logout',
  sessionRefused: 'portal_user.identity_provider_session_refused',
  /** An owner lets a password member be taken over by the company's provider at their next sign-in. */
  allowLink: 'portal_user.allow_identity_provider_link',
} as const;

const hash = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex');
const random = () => randomBytes(32).toString('base64url');

/** The provider an e-mail's domain names; undefined when its company has none. */
export async function providerForEmail(email: string): Promise<IntegrationIdentityProvider | undefined> {
  const domain = email.trim().toLowerCase().split('@')[1];
  if (!domain) return undefined;
  const [row] = await (await db())
    .select()
    .from(integrationIdentityProviders)
    .where(sql`lower(${integrationIdentityProviders.emailDomain}) = ${domain}`);
  return row;
}

export async function providerOfIntegration(integrationId: number): Promise<IntegrationIdentityProvider | undefined> {
  const [row] = await (await db()).select().from(integrationIdentityProviders).where(eq(integrationIdentityProviders.integrationId, integrationId));
  return row;
}

let integratorFetcher: { allowLocalTargets: boolean; fetcher: ProviderFetcher } | undefined;

/**
 * How an integrator's provider is reached: as any target an integrator chooses (its webhook's
 * policy), every URL checked and every connection's address checked after DNS, no redirects.
 */
export function integratorProviderFetcher(): ProviderFetcher {
  const policy = outboundTargetPolicy();
  let current = integratorFetcher;
  if (current?.allowLocalTargets !== policy.allowLocalTargets) {
    const dispatcher = checkedDispatcher(policy);
    current = integratorFetcher = {
      allowLocalTargets: policy.allowLocalTargets,
      fetcher: {
        name: policy.allowLocalTargets ? 'integrator-local' : 'integrator',
        check: (url) => outboundTargetProblem(url, policy),
        fetch: async (url, init) => {
          const refused = outboundTargetProblem(url, policy);
          if (refused) throw new Error(`refused target: ${refused}`);
          return (await undiciFetch(url, { ...(init as object), redirect: 'error', dispatcher })) as unknown as Response;
        },
      },
    };
  }
  return current.fetcher;
}

/** The provider's endpoints and keys, reached as an integrator's outbound target. */
export function portalProviderMetadata(provider: Pick<IntegrationIdentityProvider, 'issuer'>): Promise<ProviderMetadata> {
  return providerMetadata(provider.issuer, TIMEOUT_MS, integratorProviderFetcher());
}

export type SsoStart = { ok: true; authorizationUrl: string; binding: string } | { ok: false; refusal: 'no_provider' | 'sso_unavailable' };

/**
 * Starts a sign-in through the provider of the e-mail's company: the pending sign-in is recorded
 * (its state, nonce and PKCE verifier) and the browser is sent to the provider; `binding` goes in
 * a cookie of this browser only, checked at the return.
 */
export async function beginPortalSso(email: string, baseUrl: string): Promise<SsoStart> {
  const provider = await providerForEmail(email);
  if (!provider) return { ok: false, refusal: 'no_provider' };
  let metadata: ProviderMetadata;
  try {
    metadata = await portalProviderMetadata(provider);
  } catch (error) {
    log.warn({ err: error, integrationId: provider.integrationId }, 'an integration’s identity provider could not be discovered');
    return { ok: false, refusal: 'sso_unavailable' };
  }
  const [state, nonce, verifier, binding] = [random(), random(), random(), random()];
  const redirectUri = `${baseUrl.replace(/\/+$/, '')}${PORTAL_SSO_CALLBACK_PATH}`;
  const database = await db();
  await database.delete(identityProviderSignIns).where(lt(identityProviderSignIns.expiresAt, sql`now()`));
  await database.insert(identityProviderSignIns).values({
    stateHash: hash(state),
    bindingHash: hash(binding),
    integrationId: provider.integrationId,
    nonce,
    codeVerifierSealed: seal(verifier, 'identity_provider_sign_in'),
    redirectUri,
    expiresAt: sql`now() + ${SIGN_IN_TTL_SECONDS}::integer * interval '1 second'`,
  });
  const url = new URL(metadata.authorizationEndpoint);
  for (const [name, value] of Object.entries({
    response_type: 'code',
    client_id: provider.clientId,
    redirect_uri: redirectUri,
    scope: 'openid email profile',
    state,
    nonce,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    login_hint: email.trim().toLowerCase(),
  })) {
    url.searchParams.set(name, value);
  }
  return { ok: true, authorizationUrl: url.toString(), binding };
}

export type SsoFinish = { ok: true; sessionId: string } | { ok: false; refusal: SsoRefusal };

/** The claim's values as the portal role they map to, owner first; undefined when none does. */
export function portalRoleOfClaims(claims: Record<string, unknown>, provider: Pick<IntegrationIdentityProvider, 'roleClaim' | 'roleValues'>): PortalRole | undefined {
  const claim = claims[provider.roleClaim];
  const values = new Set((Array.isArray(claim) ? claim : [claim]).filter((value): value is string => typeof value === 'string'));
  return PORTAL_ROLE_ORDER.find((role) => (provider.roleValues[role] ?? []).some((value) => values.has(value)));
}

/**
 * The browser is back from the provider with `params` (code, state, iss, or an error) and the
 * binding cookie: the pending sign-in is taken (once), the code exchanged, the ID token verified,
 * and the member admitted. Every refusal is audited with its reason.
 */
export async function finishPortalSso(params: URLSearchParams, binding: string | undefined, origin: SessionOrigin): Promise<SsoFinish> {
  const state = params.get('state');
  if (!state) return refuse(undefined, undefined, 'sso_invalid_token');
  const [pending] = await (await db())
    .delete(identityProviderSignIns)
    .where(and(eq(identityProviderSignIns.stateHash, hash(state)), sql`${identityProviderSignIns.expiresAt} > now()`))
    .returning();
  // Unknown, used or expired, or started in another browser: nothing is opened.
  if (!pending || !binding || !timingSafeEqual(Buffer.from(hash(binding)), Buffer.from(pending.bindingHash))) return refuse(undefined, pending?.integrationId, 'sso_invalid_token');
  const provider = await providerOfIntegration(pending.integrationId);
  if (!provider) return refuse(undefined, pending.integrationId, 'sso_unavailable');
  const error = params.get('error');
  if (error) return refuse(undefined, provider.integrationId, error === 'access_denied' ? 'sso_cancelled' : 'sso_unavailable');
  // RFC 9207: an answer naming another issuer is another provider's (a mix-up).
  const iss = params.get('iss');
  if (iss !== null && !sameIssuer(iss, provider.issuer)) return refuse(undefined, provider.integrationId, 'sso_invalid_token');
  const code = params.get('code');
  if (!code) return refuse(undefined, provider.integrationId, 'sso_invalid_token');

  const exchanged = await exchangeCode(provider, pending, code);
  if (!exchanged.ok) return refuse(undefined, provider.integrationId, exchanged.refusal);
  return admitMember(provider, exchanged.claims, exchanged.refreshToken, origin);
}

type Exchange = { ok: true; claims: Record<string, unknown> & { sub: string }; refreshToken: string | null } | { ok: false; refusal: SsoRefusal };

async function exchangeCode(provider: IntegrationIdentityProvider, pending: typeof identityProviderSignIns.$inferSelect, code: string): Promise<Exchange> {
  let metadata: ProviderMetadata;
  let response: Response;
  try {
    metadata = await portalProviderMetadata(provider);
    response = await fetch(metadata.tokenEndpoint, {
      method: 'POST',
      redirect: 'error',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', authorization: basicAuth(provider) },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: pending.redirectUri, code_verifier: open(pending.codeVerifierSealed, 'identity_provider_sign_in') }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    log.warn({ err: error, integrationId: provider.integrationId }, 'an integration’s identity provider did not answer the code exchange');
    return { ok: false, refusal: 'sso_unavailable' };
  }
  const body = (await response.json().catch(() => ({}))) as { id_token?: unknown; refresh_token?: unknown };
  if (!response.ok) return { ok: false, refusal: response.status >= 500 ? 'sso_unavailable' : 'sso_invalid_token' };
  if (typeof body.id_token !== 'string') return { ok: false, refusal: 'sso_invalid_token' };
  try {
    const { payload } = await jwtVerify(body.id_token, metadata.keys, { issuer: provider.issuer, audience: provider.clientId, clockTolerance: CLOCK_TOLERANCE_SECONDS, requiredClaims: ['sub', 'exp', 'iat'] });
    if (payload.nonce !== pending.nonce) return { ok: false, refusal: 'sso_invalid_token' };
    return { ok: true, claims: payload as Record<string, unknown> & { sub: string }, refreshToken: typeof body.refresh_token === 'string' ? body.refresh_token : null };
  } catch (error) {
    log.warn({ err: error, integrationId: provider.integrationId }, 'an ID token of an integration’s identity provider was refused');
    return { ok: false, refusal: error instanceof joseErrors.JWTExpired ? 'sso_expired_token' : 'sso_invalid_token' };
  }
}

/** The Authorization header an integrator's provider takes from us (its secret opened for the call). */
export function basicAuth(provider: Pick<IntegrationIdentityProvider, 'clientId' | 'clientSecretSealed'>): string {
  return clientSecretBasic(provider.clientId, open(provider.clientSecretSealed, 'identity_provider_client_secret'));
}

/**
 * The member the verified claims are: found by the provider's subject in this integration, or
 * (once) a member an owner passed to the provider, or created just in time; the role from the
 * claim, a changed one ending the member's other sessions, none refusing and ending them all.
 */
async function admitMember(provider: IntegrationIdentityProvider, claims: Record<string, unknown> & { sub: string }, refreshToken: string | null, origin: SessionOrigin): Promise<SsoFinish> {
  const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
  if (!email.includes('@')) return refuse(undefined, provider.integrationId, 'sso_no_email');
  // The provider speaks for its company's domain only: another address is not one of its people here.
  if (email.split('@')[1] !== provider.emailDomain.toLowerCase()) return refuse(undefined, provider.integrationId, 'sso_wrong_domain');
  const name = typeof claims.name === 'string' && claims.name.trim() !== '' ? claims.name.trim().slice(0, 120) : email;
  const role = portalRoleOfClaims(claims, provider);
  const sid = typeof claims.sid === 'string' ? claims.sid : null;
  return (await db()).transaction(async (tx): Promise<SsoFinish> => {
    const [integration] = await tx.select({ nombre: integrations.nombre }).from(integrations).where(eq(integrations.id, provider.integrationId));
    const active = and(eq(portalUsers.integrationId, provider.integrationId), isNull(portalUsers.removedAt));
    let [member] = await tx.select().from(portalUsers).where(and(active, eq(portalUsers.identityProviderSubject, claims.sub))).for('update');
    if (!member) {
      const [byEmail] = await tx.select().from(portalUsers).where(and(sql`lower(${portalUsers.email}) = ${email}`, isNull(portalUsers.removedAt))).for('update');
      // A password member, or anyone of another integration, is never taken by the e-mail alone.
      if (byEmail && (byEmail.integrationId !== provider.integrationId || byEmail.origin !== 'identity_provider' || byEmail.identityProviderSubject !== null)) {
        return refuseIn(tx, byEmail.integrationId === provider.integrationId ? byEmail.id : undefined, provider.integrationId, 'sso_not_linked');
      }
      if (!role) return refuseIn(tx, byEmail?.id, provider.integrationId, 'sso_no_role');
      if (byEmail) {
        [member] = await tx.update(portalUsers).set({ identityProviderSubject: claims.sub, updatedAt: sql`now()` }).where(eq(portalUsers.id, byEmail.id)).returning();
        await writeAudit(tx, integratorActor({ ...member!, integrationName: integration!.nombre }), { action: PORTAL_IDENTITY_PROVIDER_ACTIONS.linked, targetType: 'portal_user', targetId: member!.id, before: null, after: { email } });
      } else {
        [member] = await tx
          .insert(portalUsers)
          .values({ integrationId: provider.integrationId, email, name, role, passwordHash: NO_PASSWORD, origin: 'identity_provider', identityProviderSubject: claims.sub })
          .returning();
        await writeAudit(tx, integratorActor({ ...member!, integrationName: integration!.nombre }), { action: PORTAL_IDENTITY_PROVIDER_ACTIONS.created, targetType: 'portal_user', targetId: member!.id, before: null, after: { email, name, role } });
      }
    }
    const current = member!;
    const actor = integratorActor({ ...current, integrationName: integration!.nombre });
    if (!role) {
      const ended = await endAllPortalSessions(tx, current.id);
      return refuseIn(tx, current.id, provider.integrationId, 'sso_no_role', ended);
    }
    if (role !== current.role) {
      await endAllPortalSessions(tx, current.id);
      await tx.update(portalUsers).set({ role, updatedAt: sql`now()` }).where(eq(portalUsers.id, current.id));
      await writeAudit(tx, actor, { action: PORTAL_IDENTITY_PROVIDER_ACTIONS.roleChanged, targetType: 'portal_user', targetId: current.id, before: { role: current.role }, after: { role } });
    }
    if (name !== current.name) await tx.update(portalUsers).set({ name }).where(eq(portalUsers.id, current.id));
    const sessionId = await startPortalSession(tx, actor, origin, { sid, refreshToken });
    return { ok: true, sessionId };
  });
}

async function refuseIn(executor: Executor, memberId: number | undefined, integrationId: number | undefined, refusal: SsoRefusal, sessionsEnded = 0): Promise<SsoFinish> {
  await auditPortalRefusal(executor, memberId, integrationId, refusal, sessionsEnded);
  return { ok: false, refusal };
}

async function refuse(memberId: number | undefined, integrationId: number | undefined, refusal: SsoRefusal): Promise<SsoFinish> {
  try {
    await (await db()).transaction((tx) => auditPortalRefusal(tx, memberId, integrationId, refusal, 0));
  } catch (error) {
    log.error({ err: error, refusal }, 'could not audit a refused portal sign-in through an identity provider');
  }
  return { ok: false, refusal };
}

/** A refused sign-in through an integration's provider: the member when known, the integration and the reason. */
async function auditPortalRefusal(executor: Executor, memberId: number | undefined, integrationId: number | undefined, refusal: SsoRefusal, sessionsEnded: number): Promise<void> {
  await writeAudit(executor, { kind: 'anonymous' }, {
    action: PORTAL_IDENTITY_PROVIDER_ACTIONS.refused,
    targetType: 'portal_user',
    targetId: memberId ?? NO_ACCOUNT,
    before: null,
    after: { identityProviderRefusal: refusal, ...(integrationId === undefined ? {} : { integrationId }), ...(sessionsEnded > 0 ? { sessionsEnded } : {}) },
  });
}

/**
 * OpenID Connect Back-Channel Logout 1.0 for the portal: the token names its issuer and our client
 * id at that provider, which name the integration; verified with that provider's keys, it ends
 * the member's sessions opened through it (or the provider session `sid` names).
 */
export async function receivePortalLogoutToken(logoutToken: string): Promise<{ ok: true; ended: number } | { ok: false; reason: 'invalid' | 'unavailable' }> {
  let unverified: { iss?: unknown; aud?: unknown };
  try {
    unverified = decodeJwt(logoutToken);
  } catch {
    return { ok: false, reason: 'invalid' };
  }
  const audience = Array.isArray(unverified.aud) ? unverified.aud : [unverified.aud];
  if (typeof unverified.iss !== 'string') return { ok: false, reason: 'invalid' };
  const candidates = await (await db()).select().from(integrationIdentityProviders).where(sql`rtrim(${integrationIdentityProviders.issuer}, '/') = rtrim(${unverified.iss}, '/')`);
  const provider = candidates.find((candidate) => audience.includes(candidate.clientId));
  if (!provider) return { ok: false, reason: 'invalid' };
  let metadata: ProviderMetadata;
  try {
    metadata = await portalProviderMetadata(provider);
  } catch {
    return { ok: false, reason: 'unavailable' };
  }
  const named = await verifyLogoutToken(logoutToken, metadata.keys, provider);
  if (!named) {
    log.warn({ integrationId: provider.integrationId }, 'a portal logout token was refused');
    return { ok: false, reason: 'invalid' };
  }
  const { sub, sid } = named;
  return (await db()).transaction(async (tx) => {
    const members = await tx
      .select({ id: portalUsers.id, email: portalUsers.email, integrationId: portalUsers.integrationId })
      .from(portalUsers)
      .where(and(eq(portalUsers.integrationId, provider.integrationId), sub ? eq(portalUsers.identityProviderSubject, sub) : sql`true`));
    if (members.length === 0) return { ok: true, ended: 0 };
    const memberIds = members.map((member) => member.id);
    const ended = await tx
      .delete(portalSessions)
      .where(and(inArray(portalSessions.userId, memberIds), eq(portalSessions.viaIdentityProvider, true), sid ? eq(portalSessions.identityProviderSid, sid) : sql`true`))
      .returning({ userId: portalSessions.userId });
    const [integration] = await tx.select({ nombre: integrations.nombre }).from(integrations).where(eq(integrations.id, provider.integrationId));
    for (const member of members) {
      const count = ended.filter((row) => row.userId === member.id).length;
      if (count === 0) continue;
      await writeAudit(tx, { kind: 'system', name: 'identity-provider' }, { action: PORTAL_IDENTITY_PROVIDER_ACTIONS.loggedOut, targetType: 'portal_user', targetId: member.id, before: { sessions: count }, after: { sessions: 0, integration: integration?.nombre ?? null } });
    }
    return { ok: true, ended: ended.length };
  });
}

export type PassToProviderError = 'not_found' | 'not_owner' | 'no_provider' | 'self' | 'already' | 'other_domain' | 'break_glass';

export const PASS_TO_PROVIDER_MESSAGES: Record<PassToProviderError, string> = {
  not_found: 'Esa persona ya no es parte del equipo.',
  not_owner: 'Solo un propietario puede hacerlo.',
  no_provider: 'Primero conecte el proveedor de identidad de la empresa.',
  self: 'No puede pasar su propia cuenta: pídaselo a otro propietario.',
  already: 'Esa persona ya entra con la cuenta de la empresa.',
  other_domain: 'Su correo no es del dominio de la empresa: no puede entrar con su proveedor.',
  break_glass: 'Es una cuenta de emergencia: conserva su contraseña para cuando el proveedor no responda.',
};

/**
 * An owner's explicit choice that a member with a password becomes the company provider's person
 * with the same e-mail at their next sign-in through it (never done by the e-mail alone): the
 * password stops working and the member's sessions end now. Audited.
 */
export async function passMemberToProvider(
  owner: { id: number; integrationId: number; actor: IntegratorActor },
  memberId: number,
): Promise<Result<{ email: string }, PassToProviderError>> {
  const refused = (error: PassToProviderError) => fail(error, PASS_TO_PROVIDER_MESSAGES[error]);
  if (memberId === owner.id) return refused('self');
  return (await db()).transaction(async (tx): Promise<Result<{ email: string }, PassToProviderError>> => {
    const [stillOwner] = await tx
      .select({ id: portalUsers.id })
      .from(portalUsers)
      .where(and(eq(portalUsers.id, owner.id), eq(portalUsers.integrationId, owner.integrationId), eq(portalUsers.role, 'propietario'), isNull(portalUsers.removedAt)))
      .for('update');
    if (!stillOwner) return refused('not_owner');
    const [member] = await tx
      .select()
      .from(portalUsers)
      .where(and(eq(portalUsers.id, memberId), eq(portalUsers.integrationId, owner.integrationId), isNull(portalUsers.removedAt)))
      .for('update');
    if (!member) return refused('not_found');
    const [provider] = await tx.select().from(integrationIdentityProviders).where(eq(integrationIdentityProviders.integrationId, owner.integrationId));
    if (!provider) return refused('no_provider');
    if (member.origin === 'identity_provider') return refused('already');
    const email = member.email.toLowerCase();
    if (email.split('@')[1] !== provider.emailDomain.toLowerCase()) return refused('other_domain');
    if (provider.breakGlassEmails.map((address) => address.toLowerCase()).includes(email)) return refused('break_glass');
    await tx.update(portalUsers).set({ origin: 'identity_provider', passwordHash: NO_PASSWORD, passwordChangedAt: sql`now()`, updatedAt: sql`now()` }).where(eq(portalUsers.id, member.id));
    const ended = await endAllPortalSessions(tx, member.id);
    await writeAudit(tx, owner.actor, {
      action: PORTAL_IDENTITY_PROVIDER_ACTIONS.allowLink,
      targetType: 'portal_user',
      targetId: member.id,
      before: { origin: 'local', sessions: ended },
      after: { origin: 'identity_provider', sessions: 0 },
    });
    return ok({ email: member.email });
  });
}
