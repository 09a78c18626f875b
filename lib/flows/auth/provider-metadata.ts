import { createRemoteJWKSet, customFetch, jwtVerify } from 'jose';

// What is read of an identity provider outside next-auth's own exchange (the portal's sign-in,
// renewing a session with its refresh token, checking a logout token): its endpoints and signing
// keys, found through the discovery document once per process and issuer. jose fetches the keys
// again when a token names a key id it has not seen (a rotation).

/**
 * How requests reach a provider: the console's (the operator's own provider) with the platform's
 * fetch; an integrator's through the outbound-target policy (lib/platform/security/outbound-targets.ts),
 * every URL checked before and every connection's address after DNS (lib/flows/portal-identity/sso.ts).
 */
export interface ProviderFetcher {
  /** Remembered apart: a discovery made with one fetcher is never reused by another. */
  name: string;
  /** Why a URL the discovery document names is refused, or undefined. */
  check(url: string): string | undefined;
  fetch(url: string, init: RequestInit): Promise<Response>;
}

export const OPERATOR_PROVIDER_FETCHER: ProviderFetcher = { name: 'operator', check: () => undefined, fetch: (url, init) => fetch(url, init) };

export interface ProviderMetadata {
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  keys: ReturnType<typeof createRemoteJWKSet>;
}

/** The clock skew an ID token's times may have, as next-auth's openid-client allows at sign-in. */
const CLOCK_TOLERANCE_SECONDS = 10;

const cache = new Map<string, Promise<ProviderMetadata>>();
/** Issuers remembered: a few dozen integrators' providers at most; the oldest is forgotten past this. */
const MAX_ISSUERS = 200;

export const sameIssuer = (a: string, b: string) => a.replace(/\/+$/, '') === b.replace(/\/+$/, '');

async function discover(issuer: string, timeoutMs: number, fetcher: ProviderFetcher): Promise<ProviderMetadata> {
  const discoveryUrl = `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
  const refused = fetcher.check(discoveryUrl);
  if (refused) throw new Error(`the issuer is refused: ${refused}`);
  const response = await fetcher.fetch(discoveryUrl, { signal: AbortSignal.timeout(timeoutMs), redirect: 'error' });
  if (!response.ok) throw new Error(`the discovery document answered ${response.status}`);
  const document = (await response.json()) as Record<string, unknown>;
  const { jwks_uri: jwksUri, token_endpoint: tokenEndpoint, authorization_endpoint: authorizationEndpoint } = document;
  if (typeof jwksUri !== 'string' || typeof tokenEndpoint !== 'string' || typeof authorizationEndpoint !== 'string') {
    throw new Error('the discovery document lacks an endpoint');
  }
  // OpenID Connect Discovery 1.0, 4.3: the issuer it names is the one asked for, or it is not this provider's.
  if (typeof document.issuer !== 'string' || !sameIssuer(document.issuer, issuer)) throw new Error('the discovery document names another issuer');
  for (const url of [jwksUri, tokenEndpoint, authorizationEndpoint]) {
    const problem = fetcher.check(url);
    if (problem) throw new Error(`an endpoint of the discovery document is refused: ${problem}`);
  }
  const keys = createRemoteJWKSet(new URL(jwksUri), {
    timeoutDuration: timeoutMs,
    [customFetch]: (url: string, options: RequestInit) => fetcher.fetch(url, { ...options, redirect: 'error' }),
  });
  return { issuer, authorizationEndpoint, tokenEndpoint, keys };
}

/** The provider's endpoints and keys; a failed discovery is asked again next time. */
export function providerMetadata(issuer: string, timeoutMs: number, fetcher: ProviderFetcher = OPERATOR_PROVIDER_FETCHER): Promise<ProviderMetadata> {
  const key = `${fetcher.name} ${issuer}`;
  let metadata = cache.get(key);
  if (!metadata) {
    if (cache.size >= MAX_ISSUERS) cache.delete(cache.keys().next().value!);
    metadata = discover(issuer, timeoutMs, fetcher);
    cache.set(key, metadata);
    metadata.catch(() => {
      if (cache.get(key) === metadata) cache.delete(key);
    });
  }
  return metadata;
}

/** client_secret_basic: the id and secret form-encoded first (RFC 6749, 2.3.1). */
export function clientSecretBasic(clientId: string, clientSecret: string): string {
  return `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString('base64')}`;
}

/** A session's renewal at its provider: still vouched for (with the new ID token's claims, if any), refused, or no answer. */
export type ProviderRenewal = { kind: 'renewed'; claims: Record<string, unknown> | null; refreshToken: string | null } | { kind: 'refused' } | { kind: 'unavailable' };

export interface RenewalClient {
  issuer: string;
  clientId: string;
  /** The Authorization header the token endpoint takes (clientSecretBasic). */
  authorization: string;
  timeoutMs: number;
  fetcher?: ProviderFetcher;
}

/**
 * One refresh-token grant at the provider's token endpoint (the console's sessions and the
 * portal's): invalid_grant, or a new ID token that does not verify or names another subject, is a
 * refusal; no answer or an error of the provider's own is "unavailable", which changes nothing.
 */
export async function renewAtProvider(client: RenewalClient, refreshToken: string, subject: string | null): Promise<ProviderRenewal> {
  const fetcher = client.fetcher ?? OPERATOR_PROVIDER_FETCHER;
  let response: Response;
  let metadata: ProviderMetadata;
  try {
    metadata = await providerMetadata(client.issuer, client.timeoutMs, fetcher);
    response = await fetcher.fetch(metadata.tokenEndpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', authorization: client.authorization },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken }),
      signal: AbortSignal.timeout(client.timeoutMs),
    });
  } catch {
    return { kind: 'unavailable' };
  }
  const body = (await response.json().catch(() => ({}))) as { error?: unknown; id_token?: unknown; refresh_token?: unknown };
  // invalid_grant: the provider no longer knows the grant (the account disabled, its session ended there).
  if (response.status === 400 || response.status === 401) return body.error === 'invalid_grant' || response.status === 401 ? { kind: 'refused' } : { kind: 'unavailable' };
  if (!response.ok) return { kind: 'unavailable' };
  const renewed = typeof body.refresh_token === 'string' ? body.refresh_token : null;
  if (typeof body.id_token !== 'string') return { kind: 'renewed', claims: null, refreshToken: renewed };
  try {
    const { payload } = await jwtVerify(body.id_token, metadata.keys, { issuer: client.issuer, audience: client.clientId, clockTolerance: CLOCK_TOLERANCE_SECONDS });
    // The same person, or the renewal proves nothing.
    if (typeof payload.sub !== 'string' || (subject !== null && payload.sub !== subject)) return { kind: 'refused' };
    return { kind: 'renewed', claims: payload, refreshToken: renewed };
  } catch {
    return { kind: 'refused' };
  }
}

const BACKCHANNEL_LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';
/** A logout token older than this is refused: a captured one replayed later ends nothing new. */
const MAX_LOGOUT_TOKEN_AGE_SECONDS = 300;

/**
 * A logout token checked as Back-Channel Logout 1.0's section 2.6 says (the console's and the
 * portal's): signed by the provider's keys, for our client, recent, with the logout event, naming
 * a user or a provider session, and never an ID token (no nonce). The user and session it names, or
 * null when it does not verify.
 */
export async function verifyLogoutToken(logoutToken: string, keys: ProviderMetadata['keys'], client: { issuer: string; clientId: string }): Promise<{ sub?: string; sid?: string } | null> {
  let claims: Record<string, unknown>;
  try {
    ({ payload: claims } = await jwtVerify(logoutToken, keys, {
      issuer: client.issuer,
      audience: client.clientId,
      maxTokenAge: MAX_LOGOUT_TOKEN_AGE_SECONDS,
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      requiredClaims: ['iat', 'jti'],
    }));
  } catch {
    return null;
  }
  const events = claims.events as Record<string, unknown> | undefined;
  const sub = typeof claims.sub === 'string' ? claims.sub : undefined;
  const sid = typeof claims.sid === 'string' ? claims.sid : undefined;
  if (typeof events?.[BACKCHANNEL_LOGOUT_EVENT] !== 'object' || events[BACKCHANNEL_LOGOUT_EVENT] === null || 'nonce' in claims || (!sub && !sid)) return null;
  return { sub, sid };
}
