// Sign-in returns to the portal page asked for, as the console's does (lib/flows/auth/return-path.ts):
// a deep link or an e-mail's link opened signed out goes to /portal/ingresar?volver=…, the form
// carries it, and the sign-in lands there, through the second factor's page too. Only a portal
// page of this site is ever taken back: another site, the console or an encoded trick lands on
// Inicio. Over HTTP against the built app, forms posted as a browser posts them before its scripts run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOTP_PERIOD_SECONDS, totpCodeAt } from '@/lib/flows/two-factor/totp';
import { createTestIntegration, startGateway, type Gateway, type TestIntegration } from '../conformance/harness';
import { addPortalMember, PORTAL_PASSWORD, portalSignedIn, signedOutPortalClient } from '../support/people';
import { formFields, type PortalClient } from '../support/portal-client';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';

let testDatabase: TestDatabase;
let gateway: Gateway;
let integration: TestIntegration;
const people = { billing: 'facturas-volver@example.com', owner: 'duena-volver@example.com' };
let ownerSecret: string;

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  integration = await createTestIntegration('portal-volver', { balanceCentavos: 5_000 });
  await addPortalMember(integration, people.billing, 'facturacion');
  await addPortalMember(integration, people.owner, 'propietario');
  gateway = await startGateway(testDatabase, { env: { TRUSTED_PROXY_HOPS: '1', RATE_LIMIT_SIGN_IN_PER_MINUTE: '200' } });
  // The owner signs in with a second factor: enrolled over HTTP as "Mi cuenta" does it.
  const owner = await portalSignedIn(gateway.app.baseUrl, people.owner);
  const started = await owner.serverAction('/portal/cuenta', 'startPortalEnrolmentAction', {});
  ownerSecret = /"secret":"([A-Z2-7]{32})"/.exec(started.text)?.[1] ?? '';
  expect(ownerSecret).not.toBe('');
  const confirmed = await owner.serverAction('/portal/cuenta', 'confirmPortalEnrolmentAction', { codigo: totpCodeAt(ownerSecret, Date.now()) });
  expect(confirmed.text).toContain('recoveryCodes');
}, PROCESS_TEST_TIMEOUT_MS);

afterAll(async () => {
  await gateway?.stop();
  await testDatabase?.cleanup();
});

async function redirectsTo(client: PortalClient, path: string): Promise<string | null> {
  const answer = await client.request(path);
  return answer.status === 307 || answer.status === 303 ? answer.headers.get('location') : `HTTP ${answer.status}`;
}

/** Opens the sign-in page at `signInPage` and posts its form (its hidden fields, `volver` among them) with `email`. */
async function signInFrom(client: PortalClient, signInPage: string, email: string, extra: Record<string, string> = {}): Promise<string | null> {
  const answer = await client.submit(signInPage, 'password', { email, password: PORTAL_PASSWORD, ...extra });
  expect(answer.status, answer.text.slice(0, 300)).toBe(303);
  return answer.location;
}

const withoutOrigin = (location: string | null) => (location ? new URL(location, 'http://x.invalid').pathname + new URL(location, 'http://x.invalid').search : location);

describe('portal sign-in returns to the page asked for', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('a deep link (an e-mail’s link) opened signed out: sign-in opens it, its query kept', async () => {
    for (const page of ['/portal/movimientos?pagina=2', '/portal/recargas', '/portal/estados']) {
      const client = signedOutPortalClient(gateway.app.baseUrl);
      const signIn = await redirectsTo(client, page);
      expect(signIn, page).toBe(`/portal/ingresar?volver=${encodeURIComponent(page)}`);
      const landed = await signInFrom(client, signIn!, people.billing);
      expect(withoutOrigin(landed), page).toBe(page);
      expect((await client.request(page)).status, page).toBe(200);
    }
    // Inicio itself, and the sign-in page without a page to return to, land on Inicio.
    const plain = signedOutPortalClient(gateway.app.baseUrl);
    expect(await redirectsTo(plain, '/portal')).toBe('/portal/ingresar');
    expect(withoutOrigin(await signInFrom(plain, '/portal/ingresar', people.billing))).toBe('/portal');
  });

  it('through the second factor: the code’s page remembers the page and opens it once the code is right', async () => {
    const page = '/portal/consultas?lookup=rtu';
    const client = signedOutPortalClient(gateway.app.baseUrl);
    const signIn = await redirectsTo(client, page);
    const step = await signInFrom(client, signIn!, people.owner);
    expect(withoutOrigin(step)).toBe(`/portal/verificacion?volver=${encodeURIComponent(page)}`);
    // Half signed in, any portal page asked for is remembered on the way to the code's page.
    expect(await redirectsTo(client, '/portal/credenciales')).toBe(`/portal/verificacion?volver=${encodeURIComponent('/portal/credenciales')}`);
    const codePage = await client.request(withoutOrigin(step)!);
    expect(codePage.status).toBe(200);
    // The form goes to returnTo once the code is right (a client-side replace, as the console's).
    expect(codePage.text).toMatch(/\\"returnTo\\":\\"\/portal\/consultas\?lookup=rtu\\"|"returnTo":"\/portal\/consultas\?lookup=rtu"/);
    const verified = await client.serverAction('/portal/verificacion', 'verifyPortalSecondFactorAction', { codigo: totpCodeAt(ownerSecret, Date.now() + TOTP_PERIOD_SECONDS * 1000) });
    expect(verified.text).toContain('Código correcto.');
    expect((await client.request(page)).status).toBe(200);
    // Signed in, the sign-in page with a page to return to opens it.
    expect(await redirectsTo(client, `/portal/ingresar?volver=${encodeURIComponent('/portal/equipo')}`)).toBe('/portal/equipo');
  });

  it('takes back only a portal page of this site: another site, the console and encoded tricks land on Inicio', async () => {
    const hostile = [
      '//evil.example',
      '//evil.example/portal',
      'https://evil.example/portal/movimientos',
      '/\\evil.example/portal',
      '/portal\\@evil.example',
      '/portal/..//evil.example',
      '/admin/usuarios',
      '/admin',
      '/portal/../admin/usuarios',
      '/portal/%2e%2e/admin/usuarios',
      '/portal/%2e%2e%2fadmin',
      '%2F%2Fevil.example',
      '/%2F%2Fevil.example',
      '/portalevil',
      'javascript:alert(1)',
      '/portal/ingresar?volver=/admin',
      '/portal/verificacion',
      ' /portal/movimientos',
    ];
    for (const value of hostile) {
      const client = signedOutPortalClient(gateway.app.baseUrl);
      const page = await client.request(`/portal/ingresar?volver=${encodeURIComponent(value)}`);
      expect(page.status, value).toBe(200);
      expect(formFields(page.text, 'password').volver, value).toBeUndefined();
      // Posted by hand, as an attacker's page would: the action checks it again.
      const landed = await client.post('/portal/ingresar', formFields(page.text, 'password'), { email: people.billing, password: PORTAL_PASSWORD, volver: value });
      expect(landed.status, value).toBe(303);
      expect(withoutOrigin(landed.location), value).toBe('/portal');
    }
    // A client's own x-console-path never decides where sign-in sends it.
    const forged = signedOutPortalClient(gateway.app.baseUrl);
    expect((await forged.request('/portal/movimientos', { headers: { 'x-console-path': '//evil.example' } })).headers.get('location')).toBe(`/portal/ingresar?volver=${encodeURIComponent('/portal/movimientos')}`);
  });
});
