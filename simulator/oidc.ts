// An OpenID Provider as the operators' identity providers speak it (Microsoft Entra ID, Google
// Workspace, Keycloak, Okta): OpenID Connect Core 1.0's authorization code flow with PKCE (S256
// only), its discovery document and JWKS, ID tokens signed RS256, refresh tokens, userinfo, and
// Back-Channel Logout 1.0's logout tokens. Its directory (users, their groups, a Workspace domain
// `hd` or an Entra tenant `tid`) and its faults are set by the tests; its keys rotate on demand,
// the previous one staying published. Served under /oidc by simulator/server.ts (docs/sso.md).
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import { DEVELOPMENT_OIDC_CLIENT } from '../lib/flows/auth/sso-settings';
import { readBody } from './body';

export interface OidcSimUser {
  /** The subject: stable, never reused. */
  sub: string;
  email: string;
  name: string;
  /** Carried in the ID token under the provider's groups claim (OidcSimOptions.groupsClaim). */
  groups: string[];
  /** Google Workspace: the hosted domain of the account; absent for a consumer account. */
  hd?: string;
  /** Entra ID: the tenant the account belongs to (defaults to the provider's own). */
  tid?: string;
  /** A disabled account cannot sign in and its refresh tokens stop working (left the company). */
  disabled?: boolean;
}

export interface OidcSimClient {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
  /** Where logout tokens are posted (Back-Channel Logout 1.0), if the client registered one. */
  backchannelLogoutUri?: string;
}

/**
 * Faults, each until cleared: the provider down (discovery or token endpoint), or an ID token a
 * relying party must refuse (another issuer, audience, an expired or badly signed token, a key id
 * not in the JWKS, a nonce that is not the one sent, no groups claim at all).
 */
export const OIDC_SIM_FAULTS = [
  'discovery_down',
  'token_endpoint_down',
  'wrong_issuer',
  'wrong_audience',
  'expired_id_token',
  'bad_signature',
  'unknown_kid',
  'nonce_mismatch',
  'no_groups_claim',
] as const;
export type OidcSimFault = (typeof OIDC_SIM_FAULTS)[number];

export interface OidcSimOptions {
  clients?: OidcSimClient[];
  users?: OidcSimUser[];
  /** The claim the groups go in: `groups` (Entra ID, Okta, Keycloak's mapper), or another name. */
  groupsClaim?: string;
  /** The provider's own tenant (`tid` of its users unless a user says otherwise). */
  tenantId?: string;
  idTokenLifetimeSeconds?: number;
  now?: () => Date;
  log?: (line: string) => void;
}

export interface OidcSimSession {
  sid: string;
  sub: string;
  clientId: string;
  startedAt: Date;
}

export interface OidcSimLogout {
  sub: string;
  sid: string | null;
  status: number | null;
  error?: string;
}

export interface OidcSimControl {
  /** The issuer, `<simulator>/oidc`, once the simulator listens. */
  issuer(): string;
  users(): OidcSimUser[];
  /** Adds a user, or changes one (a group removed, disabled) by its `sub`. */
  upsertUser(user: OidcSimUser): void;
  clients(): OidcSimClient[];
  upsertClient(client: OidcSimClient): void;
  setFaults(faults: OidcSimFault[]): void;
  /** Signs with a new key from now on; the previous one stays in the JWKS. Answers the new key id. */
  rotateKeys(): Promise<string>;
  /** The sign-ins the provider remembers (one per authorization code redeemed). */
  sessions(): OidcSimSession[];
  /** Posts a logout token for each of the user's sessions to its client's back-channel URI. */
  backchannelLogout(sub: string): Promise<OidcSimLogout[]>;
  advanceClock(milliseconds: number): void;
}

export interface OidcSimulator extends OidcSimControl {
  /** Fixes the issuer once the server's address is known. */
  listening(baseUrl: string): void;
  serve(request: IncomingMessage, response: ServerResponse, path: string): Promise<void>;
}

/** The development client: what `npm run dev` and the tests configure the gateway with. */
export const OIDC_SIM_DEV_CLIENT = {
  clientId: DEVELOPMENT_OIDC_CLIENT.CONSOLE_OIDC_CLIENT_ID,
  clientSecret: DEVELOPMENT_OIDC_CLIENT.CONSOLE_OIDC_CLIENT_SECRET,
} as const;

export const OIDC_SIM_DEV_TENANT = '6f1c0b8e-2a44-4d1e-9c57-3b0b5c6f7a10';

/** A small directory for development: an administrator, a support agent, one with no console group. */
export const OIDC_SIM_DEV_USERS: readonly OidcSimUser[] = [
  { sub: 'usr-ana-lopez', email: 'ana.lopez@operador.example', name: 'Ana López', groups: ['consola-administradores'], hd: 'operador.example' },
  { sub: 'usr-bruno-diaz', email: 'bruno.diaz@operador.example', name: 'Bruno Díaz', groups: ['consola-soporte'], hd: 'operador.example' },
  { sub: 'usr-carla-mendez', email: 'carla.mendez@operador.example', name: 'Carla Méndez', groups: ['contabilidad'], hd: 'operador.example' },
];

const CODE_LIFETIME_MS = 60_000;
const ACCESS_TOKEN_LIFETIME_S = 600;
const BACKCHANNEL_LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';
const MAX_BODY_BYTES = 16 * 1024;

interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

interface PendingCode {
  clientId: string;
  redirectUri: string;
  sub: string;
  nonce: string | null;
  codeChallenge: string;
  scope: string;
  expiresAt: number;
}

interface Grant {
  clientId: string;
  sub: string;
  sid: string;
  scope: string;
}

type Answer =
  | { status: number; json: unknown; headers?: Record<string, string> }
  | { status: number; html: string; headers?: Record<string, string> }
  | { status: number; redirect: string };

function base64url(buffer: Buffer): string {
  return buffer.toString('base64url');
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

async function newSigningKey(): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = `sim-${randomBytes(6).toString('hex')}`;
  return { kid, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' } };
}

export function createOidcSimulator(options: OidcSimOptions = {}): OidcSimulator {
  const log = options.log ?? (() => {});
  const baseNow = options.now ?? (() => new Date());
  let offsetMs = 0;
  const now = () => new Date(baseNow().getTime() + offsetMs);
  const groupsClaim = options.groupsClaim ?? 'groups';
  const tenantId = options.tenantId ?? OIDC_SIM_DEV_TENANT;
  const idTokenLifetime = options.idTokenLifetimeSeconds ?? 300;
  let issuer = 'http://127.0.0.1/oidc';
  const users = new Map((options.users ?? OIDC_SIM_DEV_USERS).map((user) => [user.sub, { ...user }]));
  const clients = new Map((options.clients ?? []).map((client) => [client.clientId, { ...client }]));
  let faults = new Set<OidcSimFault>();
  // Keys are made on first use: generating RSA keys takes a moment, and most runs never sign in.
  let keys: SigningKey[] | undefined;
  const codes = new Map<string, PendingCode>();
  const refreshTokens = new Map<string, Grant>();
  const accessTokens = new Map<string, Grant & { expiresAt: number }>();
  const sessions: OidcSimSession[] = [];

  async function signingKeys(): Promise<SigningKey[]> {
    keys ??= [await newSigningKey()];
    return keys;
  }

  const secondsNow = () => Math.floor(now().getTime() / 1000);

  async function idToken(grant: Grant, nonce: string | null): Promise<string> {
    const user = users.get(grant.sub)!;
    const [current] = await signingKeys();
    const issuedAt = secondsNow();
    const claims: Record<string, unknown> = {
      email: user.email,
      email_verified: true,
      name: user.name,
      sid: grant.sid,
      auth_time: issuedAt,
      tid: user.tid ?? tenantId,
      ...(user.hd === undefined ? {} : { hd: user.hd }),
      ...(faults.has('no_groups_claim') ? {} : { [groupsClaim]: [...user.groups] }),
      ...(nonce === null ? {} : { nonce: faults.has('nonce_mismatch') ? `${nonce}-otro` : nonce }),
    };
    const expiresAt = faults.has('expired_id_token') ? issuedAt - 600 : issuedAt + idTokenLifetime;
    const kid = faults.has('unknown_kid') ? 'sim-desconocida' : current!.kid;
    const signingKey = faults.has('bad_signature') ? (await newSigningKey()).privateKey : current!.privateKey;
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' })
      .setIssuer(faults.has('wrong_issuer') ? `${issuer}-otro` : issuer)
      .setSubject(user.sub)
      .setAudience(faults.has('wrong_audience') ? 'otro-cliente' : grant.clientId)
      .setIssuedAt(faults.has('expired_id_token') ? issuedAt - 900 : issuedAt)
      .setExpirationTime(expiresAt)
      .sign(signingKey);
  }

  async function tokens(grant: Grant, nonce: string | null): Promise<Answer> {
    const accessToken = base64url(randomBytes(24));
    accessTokens.set(accessToken, { ...grant, expiresAt: now().getTime() + ACCESS_TOKEN_LIFETIME_S * 1000 });
    const refreshToken = base64url(randomBytes(24));
    refreshTokens.set(refreshToken, grant);
    return {
      status: 200,
      headers: { 'cache-control': 'no-store' },
      json: {
        access_token: accessToken,
        token_type: 'Bearer',
        expires_in: ACCESS_TOKEN_LIFETIME_S,
        refresh_token: refreshToken,
        id_token: await idToken(grant, nonce),
        scope: grant.scope,
      },
    };
  }

  function discovery(): Answer {
    if (faults.has('discovery_down')) return { status: 503, html: '<h1>Service Unavailable</h1>' };
    return {
      status: 200,
      json: {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        userinfo_endpoint: `${issuer}/userinfo`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        scopes_supported: ['openid', 'email', 'profile', 'offline_access'],
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
        code_challenge_methods_supported: ['S256'],
        claims_supported: ['sub', 'iss', 'aud', 'exp', 'iat', 'nonce', 'email', 'email_verified', 'name', 'sid', 'tid', 'hd', groupsClaim],
        backchannel_logout_supported: true,
        backchannel_logout_session_supported: true,
        authorization_response_iss_parameter_supported: true,
      },
    };
  }

  /** An error sent back to the client's redirect URI (RFC 6749 §4.1.2.1), with the issuer (RFC 9207). */
  function redirectError(redirectUri: string, state: string | null, error: string, description: string): Answer {
    const target = new URL(redirectUri);
    target.searchParams.set('error', error);
    target.searchParams.set('error_description', description);
    if (state !== null) target.searchParams.set('state', state);
    target.searchParams.set('iss', issuer);
    return { status: 302, redirect: target.toString() };
  }

  /**
   * The authorization request: a client and redirect URI that do not match are answered here and
   * never redirected (RFC 6749 §4.1.2.1); the rest go back to the client as errors.
   */
  function authorizationRequest(params: URLSearchParams): { ok: true; client: OidcSimClient; redirectUri: string } | { ok: false; answer: Answer } {
    const client = clients.get(params.get('client_id') ?? '');
    const redirectUri = params.get('redirect_uri') ?? '';
    if (!client || !client.redirectUris.includes(redirectUri)) {
      return { ok: false, answer: { status: 400, html: '<h1>Solicitud no válida</h1><p>El cliente o su dirección de retorno no están registrados.</p>' } };
    }
    const state = params.get('state');
    if (params.get('response_type') !== 'code') return { ok: false, answer: redirectError(redirectUri, state, 'unsupported_response_type', 'only code') };
    if (!(params.get('scope') ?? '').split(' ').includes('openid')) return { ok: false, answer: redirectError(redirectUri, state, 'invalid_scope', 'openid is required') };
    if (!params.get('code_challenge') || params.get('code_challenge_method') !== 'S256') {
      return { ok: false, answer: redirectError(redirectUri, state, 'invalid_request', 'PKCE with S256 is required') };
    }
    return { ok: true, client, redirectUri };
  }

  function signInPage(params: URLSearchParams): Answer {
    const checked = authorizationRequest(params);
    if (!checked.ok) return checked.answer;
    const hidden = `<input type="hidden" name="request" value="${escapeHtml(params.toString())}">`;
    const choices = [...users.values()]
      .filter((user) => !user.disabled)
      .map(
        (user) =>
          `<form method="post" action="${escapeHtml(`${issuer}/authorize`)}">${hidden}<input type="hidden" name="sub" value="${escapeHtml(user.sub)}"><button type="submit">Entrar como ${escapeHtml(user.name)} (${escapeHtml(user.email)})</button></form>`,
      )
      .join('\n');
    const cancel = `<form method="post" action="${escapeHtml(`${issuer}/authorize`)}">${hidden}<input type="hidden" name="cancel" value="1"><button type="submit">Cancelar</button></form>`;
    return {
      status: 200,
      html: `<!doctype html><html lang="es"><head><meta charset="utf-8"><title>Proveedor de identidad simulado</title></head><body><h1>Proveedor de identidad simulado</h1><p>Elija con qué cuenta entrar a ${escapeHtml(checked.client.clientId)}.</p>${choices}\n${cancel}</body></html>`,
    };
  }

  function decide(form: URLSearchParams): Answer {
    const params = new URLSearchParams(form.get('request') ?? '');
    const checked = authorizationRequest(params);
    if (!checked.ok) return checked.answer;
    const state = params.get('state');
    if (form.get('cancel')) return redirectError(checked.redirectUri, state, 'access_denied', 'the user cancelled');
    const user = users.get(form.get('sub') ?? '');
    if (!user || user.disabled) return redirectError(checked.redirectUri, state, 'access_denied', 'no such account');
    const code = base64url(randomBytes(24));
    codes.set(code, {
      clientId: checked.client.clientId,
      redirectUri: checked.redirectUri,
      sub: user.sub,
      nonce: params.get('nonce'),
      codeChallenge: params.get('code_challenge')!,
      scope: params.get('scope') ?? 'openid',
      expiresAt: now().getTime() + CODE_LIFETIME_MS,
    });
    const target = new URL(checked.redirectUri);
    target.searchParams.set('code', code);
    if (state !== null) target.searchParams.set('state', state);
    target.searchParams.set('iss', issuer);
    log(`oidc authorize ${user.sub} -> ${checked.client.clientId}`);
    return { status: 302, redirect: target.toString() };
  }

  function authenticatedClient(request: IncomingMessage, form: URLSearchParams): OidcSimClient | null {
    let clientId = form.get('client_id');
    let secret = form.get('client_secret');
    const header = request.headers.authorization;
    if (header?.startsWith('Basic ')) {
      const decoded = Buffer.from(header.slice('Basic '.length), 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      clientId = decodeURIComponent(decoded.slice(0, colon));
      secret = decodeURIComponent(decoded.slice(colon + 1));
    }
    const client = clients.get(clientId ?? '');
    return client && secret !== null && sameText(secret, client.clientSecret) ? client : null;
  }

  const oauthError = (status: number, error: string, description: string): Answer => ({ status, json: { error, error_description: description }, headers: { 'cache-control': 'no-store' } });

  async function token(request: IncomingMessage, form: URLSearchParams): Promise<Answer> {
    if (faults.has('token_endpoint_down')) return { status: 503, html: '<h1>Service Unavailable</h1>' };
    const client = authenticatedClient(request, form);
    if (!client) return oauthError(401, 'invalid_client', 'client authentication failed');
    const grantType = form.get('grant_type');
    if (grantType === 'authorization_code') {
      const code = form.get('code') ?? '';
      const pending = codes.get(code);
      // A code is redeemed once: a second try finds nothing.
      codes.delete(code);
      if (!pending || pending.clientId !== client.clientId || pending.expiresAt < now().getTime()) return oauthError(400, 'invalid_grant', 'unknown, used or expired code');
      if (form.get('redirect_uri') !== pending.redirectUri) return oauthError(400, 'invalid_grant', 'redirect_uri does not match');
      const verifier = form.get('code_verifier') ?? '';
      if (!sameText(base64url(createHash('sha256').update(verifier).digest()), pending.codeChallenge)) return oauthError(400, 'invalid_grant', 'PKCE verification failed');
      const user = users.get(pending.sub);
      if (!user || user.disabled) return oauthError(400, 'invalid_grant', 'the account is disabled');
      const grant: Grant = { clientId: client.clientId, sub: user.sub, sid: `sid-${randomBytes(8).toString('hex')}`, scope: pending.scope };
      sessions.push({ sid: grant.sid, sub: grant.sub, clientId: grant.clientId, startedAt: now() });
      return tokens(grant, pending.nonce);
    }
    if (grantType === 'refresh_token') {
      const grant = refreshTokens.get(form.get('refresh_token') ?? '');
      if (!grant || grant.clientId !== client.clientId) return oauthError(400, 'invalid_grant', 'unknown refresh token');
      const user = users.get(grant.sub);
      if (!user || user.disabled || !sessions.some((session) => session.sid === grant.sid)) {
        refreshTokens.delete(form.get('refresh_token') ?? '');
        return oauthError(400, 'invalid_grant', 'the account is disabled or its session ended');
      }
      return tokens(grant, null);
    }
    return oauthError(400, 'unsupported_grant_type', 'authorization_code or refresh_token');
  }

  function userinfo(request: IncomingMessage): Answer {
    const header = request.headers.authorization ?? '';
    const grant = header.startsWith('Bearer ') ? accessTokens.get(header.slice('Bearer '.length)) : undefined;
    if (!grant || grant.expiresAt < now().getTime()) return { status: 401, json: { error: 'invalid_token' }, headers: { 'www-authenticate': 'Bearer error="invalid_token"' } };
    const user = users.get(grant.sub);
    if (!user || user.disabled) return { status: 401, json: { error: 'invalid_token' }, headers: { 'www-authenticate': 'Bearer error="invalid_token"' } };
    return { status: 200, json: { sub: user.sub, email: user.email, email_verified: true, name: user.name, [groupsClaim]: [...user.groups], ...(user.hd ? { hd: user.hd } : {}) } };
  }

  async function logoutToken(session: OidcSimSession): Promise<string> {
    const [current] = await signingKeys();
    return new SignJWT({ sid: session.sid, events: { [BACKCHANNEL_LOGOUT_EVENT]: {} } })
      .setProtectedHeader({ alg: 'RS256', kid: current!.kid, typ: 'logout+jwt' })
      .setIssuer(issuer)
      .setSubject(session.sub)
      .setAudience(session.clientId)
      .setIssuedAt(secondsNow())
      .setExpirationTime(secondsNow() + 120)
      .setJti(base64url(randomBytes(16)))
      .sign(current!.privateKey);
  }

  async function answerFor(request: IncomingMessage, path: string): Promise<Answer> {
    const url = new URL(path, 'http://simulator');
    const route = url.pathname;
    if (request.method === 'GET' && route === '/.well-known/openid-configuration') return discovery();
    if (request.method === 'GET' && route === '/jwks') return { status: 200, json: { keys: (await signingKeys()).map((key) => key.publicJwk) } };
    if (request.method === 'GET' && route === '/authorize') return signInPage(url.searchParams);
    if (request.method === 'GET' && route === '/userinfo') return userinfo(request);
    if (request.method === 'POST' && (route === '/authorize' || route === '/token')) {
      const text = await readBody(request, MAX_BODY_BYTES);
      if (text === null) return oauthError(413, 'invalid_request', 'body too large');
      const form = new URLSearchParams(text);
      return route === '/authorize' ? decide(form) : token(request, form);
    }
    return { status: 404, json: { error: 'not_found' } };
  }

  return {
    listening(baseUrl) {
      issuer = `${baseUrl}/oidc`;
    },
    async serve(request, response, path) {
      const answer = await answerFor(request, path);
      const headers: Record<string, string> = { ...('headers' in answer ? answer.headers : {}) };
      let body = '';
      if ('redirect' in answer) headers.location = answer.redirect;
      else if ('html' in answer) {
        headers['content-type'] = 'text/html; charset=utf-8';
        body = answer.html;
      } else {
        headers['content-type'] = 'application/json; charset=utf-8';
        body = JSON.stringify(answer.json);
      }
      headers['content-length'] = String(Buffer.byteLength(body));
      response.writeHead(answer.status, headers);
      response.end(body);
      log(`oidc ${request.method} ${new URL(path, 'http://simulator').pathname} -> ${answer.status}`);
    },
    issuer: () => issuer,
    users: () => [...users.values()].map((user) => ({ ...user, groups: [...user.groups] })),
    upsertUser(user) {
      users.set(user.sub, { ...user, groups: [...user.groups] });
    },
    clients: () => [...clients.values()].map((client) => ({ ...client })),
    upsertClient(client) {
      clients.set(client.clientId, { ...client, redirectUris: [...client.redirectUris] });
    },
    setFaults(next) {
      faults = new Set(next);
    },
    async rotateKeys() {
      const fresh = await newSigningKey();
      // The previous key stays published: tokens it signed keep verifying until they expire.
      keys = [fresh, ...(await signingKeys()).slice(0, 1)];
      return fresh.kid;
    },
    sessions: () => sessions.map((session) => ({ ...session })),
    async backchannelLogout(sub) {
      const ended: OidcSimLogout[] = [];
      for (const session of sessions.filter((candidate) => candidate.sub === sub)) {
        sessions.splice(sessions.indexOf(session), 1);
        const uri = clients.get(session.clientId)?.backchannelLogoutUri;
        if (uri === undefined) {
          ended.push({ sub, sid: session.sid, status: null, error: 'the client registered no back-channel logout URI' });
          continue;
        }
        try {
          const answer = await fetch(uri, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({ logout_token: await logoutToken(session) }).toString(),
            signal: AbortSignal.timeout(10_000),
          });
          await answer.arrayBuffer();
          ended.push({ sub, sid: session.sid, status: answer.status });
        } catch (error) {
          ended.push({ sub, sid: session.sid, status: null, error: (error as Error).message });
        }
        log(`oidc backchannel logout ${sub} ${session.sid} -> ${ended.at(-1)!.status ?? ended.at(-1)!.error}`);
      }
      return ended;
    },
    advanceClock(milliseconds) {
      offsetMs += milliseconds;
    },
  };
}
