import { createRemoteJWKSet, customFetch } from 'jose';

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
