// The identity provider simulator speaks OpenID Connect as a relying party meets it: checked here
// with jose's own verification (issuer, audience, expiry, signature against the published JWKS),
// PKCE's S256 check, codes redeemed once, refresh tokens that follow the directory, key rotation
// with the previous key still published, the faults a relying party must refuse, and
// Back-Channel Logout 1.0's logout tokens.
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify, type JWTPayload } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from './server';
import { OIDC_SIM_DEV_CLIENT, OIDC_SIM_DEV_TENANT, OIDC_SIM_DEV_USERS } from './oidc';

const REDIRECT_URI = 'http://consola.example/api/auth/callback/oidc';
const ANA = OIDC_SIM_DEV_USERS[0]!;

let simulator: RunningSimulator;
let logoutReceiver: http.Server;
let logoutUri: string;
const logoutBodies: string[] = [];

interface Flow {
  verifier: string;
  nonce: string;
  state: string;
}

function newFlow(): Flow {
  return { verifier: randomBytes(32).toString('base64url'), nonce: randomBytes(8).toString('hex'), state: randomBytes(8).toString('hex') };
}

function authorizeUrl(flow: Flow, overrides: Record<string, string | null> = {}): string {
  const params: Record<string, string | null> = {
    response_type: 'code',
    client_id: OIDC_SIM_DEV_CLIENT.clientId,
    redirect_uri: REDIRECT_URI,
    scope: 'openid email profile',
    state: flow.state,
    nonce: flow.nonce,
    code_challenge: createHash('sha256').update(flow.verifier).digest('base64url'),
    code_challenge_method: 'S256',
    ...overrides,
  };
  const url = new URL(`${simulator.oidc.issuer()}/authorize`);
  for (const [name, value] of Object.entries(params)) if (value !== null) url.searchParams.set(name, value);
  return url.toString();
}

/** The sign-in page's choice of account, as a browser posts it: the redirect it answers. */
async function chooseAccount(flow: Flow, sub: string): Promise<URL> {
  const request = new URL(authorizeUrl(flow)).searchParams.toString();
  const answer = await fetch(`${simulator.oidc.issuer()}/authorize`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ request, sub }).toString(),
    redirect: 'manual',
  });
  expect(answer.status).toBe(302);
  return new URL(answer.headers.get('location')!);
}

async function token(form: Record<string, string>, secret: string = OIDC_SIM_DEV_CLIENT.clientSecret): Promise<{ status: number; body: Record<string, unknown> }> {
  const answer = await fetch(`${simulator.oidc.issuer()}/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${OIDC_SIM_DEV_CLIENT.clientId}:${secret}`).toString('base64')}`,
    },
    body: new URLSearchParams(form).toString(),
  });
  return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
}

async function signIn(sub: string = ANA.sub): Promise<{ flow: Flow; tokens: Record<string, unknown> }> {
  const flow = newFlow();
  const back = await chooseAccount(flow, sub);
  const answer = await token({ grant_type: 'authorization_code', code: back.searchParams.get('code')!, redirect_uri: REDIRECT_URI, code_verifier: flow.verifier });
  expect(answer.status).toBe(200);
  return { flow, tokens: answer.body };
}

async function verify(idToken: unknown): Promise<JWTPayload> {
  const keys = createRemoteJWKSet(new URL(`${simulator.oidc.issuer()}/jwks`));
  const { payload } = await jwtVerify(String(idToken), keys, { issuer: simulator.oidc.issuer(), audience: OIDC_SIM_DEV_CLIENT.clientId, algorithms: ['RS256'] });
  return payload;
}

beforeAll(async () => {
  logoutReceiver = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      logoutBodies.push(body);
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => logoutReceiver.listen(0, '127.0.0.1', resolve));
  logoutUri = `http://127.0.0.1:${(logoutReceiver.address() as AddressInfo).port}/api/auth/backchannel`;
  simulator = await startSimulator({
    port: 0,
    oidc: { clients: [{ ...OIDC_SIM_DEV_CLIENT, redirectUris: [REDIRECT_URI], backchannelLogoutUri: logoutUri }] },
  });
});

beforeEach(() => {
  simulator.oidc.setFaults([]);
  for (const user of OIDC_SIM_DEV_USERS) simulator.oidc.upsertUser(user);
});

afterAll(async () => {
  await simulator?.close();
  await new Promise((resolve) => logoutReceiver?.close(resolve));
});

describe('the identity provider simulator', () => {
  it('publishes its discovery document under its issuer: code flow, PKCE S256 only, back-channel logout', async () => {
    const document = (await (await fetch(`${simulator.oidc.issuer()}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    expect(document).toMatchObject({
      issuer: `${simulator.url}/oidc`,
      authorization_endpoint: `${simulator.url}/oidc/authorize`,
      token_endpoint: `${simulator.url}/oidc/token`,
      jwks_uri: `${simulator.url}/oidc/jwks`,
      response_types_supported: ['code'],
      code_challenge_methods_supported: ['S256'],
      id_token_signing_alg_values_supported: ['RS256'],
      backchannel_logout_supported: true,
    });
  });

  it('offers the directory’s enabled accounts on its sign-in page', async () => {
    simulator.oidc.upsertUser({ ...OIDC_SIM_DEV_USERS[2]!, disabled: true });
    const page = await (await fetch(authorizeUrl(newFlow()))).text();
    expect(page).toContain(`Entrar como ${ANA.name} (${ANA.email})`);
    expect(page).not.toContain(OIDC_SIM_DEV_USERS[2]!.email);
  });

  it('redeems a code once, with the verifier of its challenge, for an ID token the JWKS verifies', async () => {
    const flow = newFlow();
    const back = await chooseAccount(flow, ANA.sub);
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT_URI);
    expect(back.searchParams.get('state')).toBe(flow.state);
    expect(back.searchParams.get('iss')).toBe(simulator.oidc.issuer());
    const code = back.searchParams.get('code')!;

    expect(await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: newFlow().verifier })).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    // The failed try used the code up, as a real provider does with a code it doubts.
    const again = newFlow();
    const second = (await chooseAccount(again, ANA.sub)).searchParams.get('code')!;
    const answer = await token({ grant_type: 'authorization_code', code: second, redirect_uri: REDIRECT_URI, code_verifier: again.verifier });
    expect(answer.status).toBe(200);
    const claims = await verify(answer.body.id_token);
    expect(claims).toMatchObject({ sub: ANA.sub, email: ANA.email, name: ANA.name, groups: ANA.groups, nonce: again.nonce, hd: ANA.hd, tid: OIDC_SIM_DEV_TENANT });
    expect(claims.sid).toEqual(expect.any(String));
    expect(await token({ grant_type: 'authorization_code', code: second, redirect_uri: REDIRECT_URI, code_verifier: again.verifier })).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('refuses a wrong client secret, a changed redirect URI and an unregistered one', async () => {
    const flow = newFlow();
    const code = (await chooseAccount(flow, ANA.sub)).searchParams.get('code')!;
    expect(await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: flow.verifier }, 'otro-secreto')).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    expect(await token({ grant_type: 'authorization_code', code, redirect_uri: 'http://otro.example/cb', code_verifier: flow.verifier })).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    const unregistered = await fetch(authorizeUrl(newFlow(), { redirect_uri: 'http://atacante.example/cb' }), { redirect: 'manual' });
    expect(unregistered.status).toBe(400);
    expect(unregistered.headers.get('location')).toBeNull();
  });

  it('sends a request without PKCE back to the client as invalid_request', async () => {
    const flow = newFlow();
    const answer = await fetch(authorizeUrl(flow, { code_challenge: null, code_challenge_method: null }), { redirect: 'manual' });
    expect(answer.status).toBe(302);
    const back = new URL(answer.headers.get('location')!);
    expect(back.searchParams.get('error')).toBe('invalid_request');
    expect(back.searchParams.get('state')).toBe(flow.state);
  });

  it('renews with a refresh token from the directory as it is now, and refuses a disabled account', async () => {
    const { tokens } = await signIn();
    simulator.oidc.upsertUser({ ...ANA, groups: ['consola-soporte'] });
    const renewed = await token({ grant_type: 'refresh_token', refresh_token: String(tokens.refresh_token) });
    expect(renewed.status).toBe(200);
    expect((await verify(renewed.body.id_token)).groups).toEqual(['consola-soporte']);
    simulator.oidc.upsertUser({ ...ANA, disabled: true });
    expect(await token({ grant_type: 'refresh_token', refresh_token: String(renewed.body.refresh_token) })).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('keeps the previous key published after a rotation: older tokens still verify', async () => {
    const before = (await signIn()).tokens.id_token;
    const kid = await simulator.oidc.rotateKeys();
    const after = (await signIn()).tokens.id_token;
    expect(decodeProtectedHeader(String(after)).kid).toBe(kid);
    expect(decodeProtectedHeader(String(before)).kid).not.toBe(kid);
    await expect(verify(before)).resolves.toMatchObject({ sub: ANA.sub });
    await expect(verify(after)).resolves.toMatchObject({ sub: ANA.sub });
  });

  it.each([
    ['wrong_issuer', /iss/],
    ['wrong_audience', /aud/],
    ['expired_id_token', /exp/],
    ['bad_signature', /signature/],
    ['unknown_kid', /matching key|no applicable key/i],
  ] as const)('injects %s: an ID token a relying party refuses', async (fault, reason) => {
    simulator.oidc.setFaults([fault]);
    const { tokens } = await signIn();
    await expect(verify(tokens.id_token)).rejects.toThrow(reason);
  });

  it('injects nonce_mismatch and no_groups_claim: a token that verifies but says what the client did not ask', async () => {
    simulator.oidc.setFaults(['nonce_mismatch', 'no_groups_claim']);
    const { flow, tokens } = await signIn();
    const claims = await verify(tokens.id_token);
    expect(claims.nonce).not.toBe(flow.nonce);
    expect(claims).not.toHaveProperty('groups');
  });

  it('goes down on injection: discovery and the token endpoint answer 503', async () => {
    simulator.oidc.setFaults(['discovery_down', 'token_endpoint_down']);
    expect((await fetch(`${simulator.oidc.issuer()}/.well-known/openid-configuration`)).status).toBe(503);
    const tokenEndpoint = await fetch(`${simulator.oidc.issuer()}/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=refresh_token&refresh_token=x' });
    expect(tokenEndpoint.status).toBe(503);
  });

  it('posts a signed logout token for each of a user’s sessions, and ends them', async () => {
    logoutBodies.length = 0;
    const { tokens } = await signIn(ANA.sub);
    const { sid } = await verify(tokens.id_token);
    const sent = await simulator.oidc.backchannelLogout(ANA.sub);
    expect(sent).toContainEqual({ sub: ANA.sub, sid, status: 200 });
    const logoutToken = logoutBodies.map((body) => new URLSearchParams(body).get('logout_token')).find((candidate) => candidate !== null)!;
    expect(decodeProtectedHeader(logoutToken).typ).toBe('logout+jwt');
    const claims = await verify(logoutToken);
    expect(claims).toMatchObject({ sub: ANA.sub, events: { 'http://schemas.openid.net/event/backchannel-logout': {} } });
    expect(claims).not.toHaveProperty('nonce');
    expect(simulator.oidc.sessions().filter((session) => session.sub === ANA.sub)).toEqual([]);
    expect(await token({ grant_type: 'refresh_token', refresh_token: String(tokens.refresh_token) })).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });
});
