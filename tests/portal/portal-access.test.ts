// The integrators' portal over HTTP against the built app (issue 33, points 1 to 3): an
// administrator invites an integration's owner from the console, the link is single-use and
// expires, the owner signs in (throttled in the portal's own counts, audited as the integrator),
// an owner enrols in two-factor sign-in and the next sign-in takes the app's code, a portal session
// never opens the console nor a console session the portal, an owner of one
// integration cannot act on another's people or invitations by id, and removing a member leaves
// the integration's API token working. Forms are posted as a browser posts them before its scripts
// run; the team's actions are called as React calls them, with any id one cares to send.
import http from 'node:http';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { db } from '@/db/client';
import { auditLog, portalInvitations, portalUsers } from '@/db/schema';
import { ACTION_MESSAGES } from '@/lib/flows/auth/action';
import { signInRefusalMessage } from '@/lib/flows/auth/sign-in-errors';
import { PORTAL_ACTION_MESSAGES } from '@/lib/surfaces/portal/action';
import { INVITATION_MESSAGES } from '@/lib/flows/portal-identity/invitations';
import { TEAM_MESSAGES } from '@/lib/flows/portal-identity/team';
import { createConsoleUser } from '@/lib/flows/auth/users';
import { TEAM_MANAGERS } from '@/lib/flows/portal-identity/roles';
import { TOTP_PERIOD_SECONDS, totpCodeAt } from '@/lib/flows/two-factor/totp';
import { createTestIntegration, ROUTES, startGateway, validRequestBody, type Gateway, type TestIntegration } from '../conformance/harness';
import { startApp } from '../support/app-server';
import { ConsoleClient, serverActionId } from '../support/console-client';
import { expectPortalRefusal, formFields, PortalClient, says } from '../support/portal-client';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';

const PASSWORD = 'cafetal de altura junto al lago';

let testDatabase: TestDatabase;
let gateway: Gateway;
let integrationA: TestIntegration;
let integrationB: TestIntegration;
let admin: { email: string; password: string };
let ownerA: PortalClient;
let ownerB: PortalClient;
let developerB: PortalClient;

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  integrationA = await createTestIntegration('portal-http-a', { balanceCentavos: 12_345, tariffCentavos: 150 });
  integrationB = await createTestIntegration('portal-http-b', { balanceCentavos: 5_000 });
  const created = await createConsoleUser({ kind: 'system', name: 'test' }, { email: 'admin-portal@example.com', name: 'Administración', role: 'admin', mustChangePassword: false });
  if (!created.ok) throw new Error(created.error.message);
  admin = { email: 'admin-portal@example.com', password: created.value.password };
  // The tests act as the one trusted proxy: each client signs in "from" its own address.
  gateway = await startGateway(testDatabase, { env: { TRUSTED_PROXY_HOPS: '1', RATE_LIMIT_SIGN_IN_PER_MINUTE: '200' } });
}, PROCESS_TEST_TIMEOUT_MS);

afterAll(async () => {
  await gateway?.stop();
  await testDatabase?.cleanup();
});

function htmlSays(answer: { text: string }, text: string): boolean {
  return answer.text.includes(text.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll("'", '&#x27;').replaceAll('<', '&lt;').replaceAll('>', '&gt;'));
}

let addresses = 0;
function portalClient(): PortalClient {
  return new PortalClient(gateway.app.baseUrl, { 'x-forwarded-for': `203.0.113.${++addresses}` });
}

async function consoleAdmin(): Promise<ConsoleClient> {
  const client = new ConsoleClient(gateway.app.baseUrl, { 'x-forwarded-for': `198.51.100.${++addresses}` });
  expect(await client.signIn(admin.email, admin.password)).toBeNull();
  return client;
}

/** The invitation link development prints for `email` (no SMTP server), the latest one. */
function linkFor(email: string): string {
  const links = [...gateway.app.logs().matchAll(/Invitación al portal para (\S+) \([^)]*\): (http\S+)/g)].filter((match) => match[1] === email);
  const link = links.at(-1)?.[2];
  if (!link) throw new Error(`no invitation link for ${email} in the app's output`);
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
}

/** Accepts the invitation `link` in a new browser; returns the signed-in client. */
async function accept(link: string, name: string): Promise<PortalClient> {
  const client = portalClient();
  const answer = await client.submit(link, 'codigo', { nombre: name, clave: PASSWORD, repetida: PASSWORD });
  expect(answer.status, answer.text.slice(0, 500)).toBe(303);
  expect(client.portalSessionCookie()).toBeDefined();
  return client;
}

/** Staff invites through the console's "Usuarios del portal"; returns the link printed. */
async function inviteFromConsole(console: ConsoleClient, integration: TestIntegration, email: string, rol: string): Promise<string> {
  const answer = await console.serverAction(`/admin/integraciones/${integration.id}/portal`, 'invitePortalUserAction', { integrationId: integration.id, email, rol });
  expect(says(answer, `Invitación creada para ${email}`), answer.text.slice(0, 800)).toBe(true);
  return linkFor(email);
}

async function portalUserId(email: string): Promise<number> {
  return gateway.withDatabase(async () => {
    const [row] = await (await db()).select({ id: portalUsers.id }).from(portalUsers).where(and(eq(portalUsers.email, email), sql`${portalUsers.removedAt} is null`));
    return row!.id;
  });
}

describe('invitations from the console', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('open a page that takes the code out of the address and posts it once; the owner lands on Inicio with its balance', async () => {
    const console = await consoleAdmin();
    const link = await inviteFromConsole(console, integrationA, 'duena-a@example.com', 'propietario');

    const browser = portalClient();
    const page = await browser.request(link);
    expect(page.status).toBe(200);
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('cache-control')).toContain('no-store');
    expect(page.text).toContain('Invitación al portal de integradores');
    expect(page.text).toContain('portal-http-a');
    const fields = formFields(page.text, 'codigo');
    expect(fields.codigo).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const accepted = await browser.post('/portal/invitacion', fields, { nombre: 'Dueña A', clave: PASSWORD, repetida: PASSWORD });
    expect(accepted.status).toBe(303);
    expect(accepted.location).toBe('/portal?bienvenida=1');
    const home = await browser.request('/portal');
    expect(home.status).toBe(200);
    expect(home.text).toContain('Q 123.45');
    expect(home.text).toContain('portal-http-a');
    expect(home.text).toContain('Propietario');
    ownerA = browser;

    // The same code posted again (a second tab, a replay) creates nothing and signs nobody in.
    const again = portalClient();
    const replay = await again.post('/portal/invitacion', fields, { nombre: 'Otra', clave: PASSWORD, repetida: PASSWORD });
    expect(replay.status).toBe(200);
    expect(htmlSays(replay, INVITATION_MESSAGES.linkUnusable)).toBe(true);
    expect(again.portalSessionCookie()).toBeUndefined();
    expect(htmlSays(await again.request(link), INVITATION_MESSAGES.linkUnusable)).toBe(true);

    // Who invited whom is in the audit, under the integration.
    const invited = await gateway.withDatabase(async () =>
      (await db()).select().from(auditLog).where(and(eq(auditLog.action, 'portal.invite'), eq(auditLog.targetId, String(integrationA.id)))),
    );
    expect(invited).toEqual([expect.objectContaining({ actor: expect.stringMatching(/^user:\d+ admin-portal@example.com$/), after: expect.objectContaining({ email: 'duena-a@example.com', role: 'propietario' }) })]);
  });

  it('expire after 72 hours: the page and a post of its code say so', async () => {
    const console = await consoleAdmin();
    const link = await inviteFromConsole(console, integrationA, 'tarde-a@example.com', 'facturacion');
    const browser = portalClient();
    const fields = formFields((await browser.request(link)).text, 'codigo');
    await gateway.withDatabase(async () => (await db()).update(portalInvitations).set({ expiresAt: sql`now() - interval '1 second'` }).where(eq(portalInvitations.email, 'tarde-a@example.com')));
    expect(htmlSays(await browser.request(link), INVITATION_MESSAGES.linkExpired)).toBe(true);
    const late = await browser.post('/portal/invitacion', fields, { nombre: 'Tarde', clave: PASSWORD, repetida: PASSWORD });
    expect(htmlSays(late, INVITATION_MESSAGES.linkExpired)).toBe(true);
    expect(browser.portalSessionCookie()).toBeUndefined();
  });

  it('a support user sees the list but may not invite', async () => {
    const created = await gateway.withDatabase(() =>
      createConsoleUser({ kind: 'system', name: 'test' }, { email: 'soporte-portal@example.com', name: 'Soporte', role: 'support', mustChangePassword: false }),
    );
    if (!created.ok) throw new Error(created.error.message);
    const support = new ConsoleClient(gateway.app.baseUrl, { 'x-forwarded-for': '198.51.100.200' });
    expect(await support.signIn('soporte-portal@example.com', created.value.password)).toBeNull();
    // The integration's Portal section (issue 32's sections).
    const page = await support.request(`/admin/integraciones/${integrationA.id}/portal`);
    expect(page.text).toContain('Usuarios del portal');
    // Addresses carry a <wbr> after "@" and dots (components/email-address.tsx).
    expect(page.text.replaceAll('<wbr/>', '')).toContain('duena-a@example.com');
    expect(page.text).not.toContain('Enviar invitación');
    const refused = await support.serverAction(`/admin/integraciones/${integrationA.id}/portal`, 'invitePortalUserAction', { integrationId: integrationA.id, email: 'colado@example.com', rol: 'propietario' });
    expect(says(refused, ACTION_MESSAGES.forbidden)).toBe(true);
  });
});

describe('signing in to the portal', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('opens Inicio with the right password, refuses wrong ones in the portal’s own counts, and audits both as the integrator', async () => {
    const owner = portalClient();
    const signedIn = await owner.portalSignIn('duena-a@example.com', PASSWORD);
    expect(signedIn.status).toBe(303);
    expect(signedIn.location).toBe('/portal');
    expect([...owner.cookies.keys()]).toEqual(expect.arrayContaining(['portal-sesion', 'portal-dispositivo']));
    expect((await owner.request('/portal')).status).toBe(200);

    // Strangers guessing from many addresses: wrong passwords are refused, and past five failures
    // the account takes one guess at a time, each turn twice as far away (lib/flows/auth/throttle.ts):
    // within a few guesses one arrives before its turn and is refused without a check.
    const answers: string[] = [];
    while (answers.length < 12 && !answers.at(-1)?.includes('Esta cuenta está recibiendo muchos intentos fallidos')) {
      const stranger = portalClient();
      answers.push((await stranger.portalSignIn('duena-a@example.com', `adivinanza número ${answers.length}`)).text);
      expect(stranger.portalSessionCookie()).toBeUndefined();
    }
    const refused = answers.filter((text) => htmlSays({ text }, signInRefusalMessage({ kind: 'invalid_credentials' })));
    expect(refused.length).toBeGreaterThanOrEqual(6);
    expect(answers.at(-1)).toContain('Esta cuenta está recibiendo muchos intentos fallidos');

    // The owner's browser signed in before (its known-device cookie): a later visit, its session
    // gone, is not kept out.
    owner.cookies.delete('portal-sesion');
    const ownerAgain = await owner.portalSignIn('duena-a@example.com', PASSWORD);
    expect(ownerAgain.status).toBe(303);

    const ownerId = await portalUserId('duena-a@example.com');
    const rows = await gateway.withDatabase(async () => (await db()).select().from(auditLog).where(and(eq(auditLog.targetType, 'portal_user'), eq(auditLog.targetId, String(ownerId)))));
    expect(rows.filter((row) => row.action === 'portal_user.sign_in_failed' && row.actor === 'anonymous')).toHaveLength(refused.length);
    const signIns = rows.filter((row) => row.action === 'portal_user.sign_in');
    expect(signIns.length).toBeGreaterThanOrEqual(3);
    expect(signIns.every((row) => row.actor === `integrator:${ownerId} ${integrationA.id} duena-a@example.com (portal-http-a)`)).toBe(true);

    // The console page shows who it was.
    const audit = await (await consoleAdmin()).request('/admin/auditoria?quien=integrator');
    expect(audit.text).toContain('Integrador: duena-a@example.com (portal-http-a)');
  });
});

describe('portal and console sessions', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('a portal session opens no console page or action, and a console session no portal page or action', async () => {
    for (const path of ['/admin', '/admin/integraciones', `/admin/integraciones/${integrationA.id}`]) {
      const answer = await ownerA.request(path);
      expect(answer.status, path).toBe(307);
      expect(answer.headers.get('location'), path).toMatch(/^\/admin\/login/);
    }
    const consoleAction = await ownerA.serverAction(`/admin/integraciones/${integrationA.id}/portal`, 'invitePortalUserAction', { integrationId: integrationA.id, email: 'x@example.com', rol: 'propietario' });
    expect(says(consoleAction, ACTION_MESSAGES.signedOut)).toBe(true);

    const console = await consoleAdmin();
    for (const path of ['/portal', '/portal/equipo', '/portal/cuenta']) {
      const answer = await console.request(path);
      expect(answer.status, path).toBe(307);
      // Sign-in remembers the portal page asked for (Inicio is where it goes anyway).
      expect(answer.headers.get('location'), path).toBe(path === '/portal' ? '/portal/ingresar' : `/portal/ingresar?volver=${encodeURIComponent(path)}`);
    }
    const portalAction = await console.serverAction('/portal/equipo', 'invitePortalMemberAction', { email: 'y@example.com', rol: 'desarrollador' });
    expect(says(portalAction, ACTION_MESSAGES.signedOut)).toBe(true);
  });
});

describe('isolation between integrations', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('an owner of A acting on B’s people and invitations by id is answered as for ids that do not exist, and B is unchanged', async () => {
    const console = await consoleAdmin();
    ownerB = await accept(await inviteFromConsole(console, integrationB, 'duena-b@example.com', 'propietario'), 'Dueña B');
    const invitedByB = await ownerB.serverAction('/portal/equipo', 'invitePortalMemberAction', { email: 'dev-b@example.com', rol: 'desarrollador' });
    expect(says(invitedByB, 'Invitación creada para dev-b@example.com')).toBe(true);
    developerB = await accept(linkFor('dev-b@example.com'), 'Dev B');
    expect(says(await ownerB.serverAction('/portal/equipo', 'invitePortalMemberAction', { email: 'pendiente-b@example.com', rol: 'facturacion' }), 'Invitación creada')).toBe(true);
    const developerBId = await portalUserId('dev-b@example.com');
    const pendingB = await gateway.withDatabase(async () => {
      const [row] = await (await db()).select({ id: portalInvitations.id }).from(portalInvitations).where(and(eq(portalInvitations.email, 'pendiente-b@example.com'), sql`${portalInvitations.revokedAt} is null`));
      return row!.id;
    });

    for (const memberId of [developerBId, 2_000_000_000]) {
      expect(says(await ownerA.serverAction('/portal/equipo', 'removePortalMemberAction', { miembro: memberId }), TEAM_MESSAGES.memberNotFound), `remove ${memberId}`).toBe(true);
      expect(says(await ownerA.serverAction('/portal/equipo', 'setPortalMemberRoleAction', { miembro: memberId, rol: 'propietario' }), TEAM_MESSAGES.memberNotFound), `role ${memberId}`).toBe(true);
    }
    for (const invitationId of [pendingB, 2_000_000_000]) {
      expect(says(await ownerA.serverAction('/portal/equipo', 'cancelPortalInvitationAction', { invitacion: invitationId }), TEAM_MESSAGES.invitationNotFound)).toBe(true);
      expect(says(await ownerA.serverAction('/portal/equipo', 'resendPortalInvitationAction', { invitacion: invitationId }), TEAM_MESSAGES.invitationNotFound)).toBe(true);
    }

    // B's developer is still in, with the same role; B's invitation still pending; A's team page shows nobody of B.
    const developerHome = await developerB.request('/portal');
    expect(developerHome.status).toBe(200);
    expect(developerHome.text).toContain('Desarrollador');
    const teamB = await ownerB.request('/portal/equipo');
    expect(teamB.text).toContain('pendiente-b@example.com');
    const teamA = await ownerA.request('/portal/equipo');
    expect(teamA.status).toBe(200);
    expect(teamA.text.replaceAll('<wbr/>', '')).not.toContain('dev-b@example.com');
    expect(teamA.text.replaceAll('<wbr/>', '')).not.toContain('pendiente-b@example.com');
  });

  it('a developer may not manage the team: the page is refused and so is every action', async () => {
    expectPortalRefusal(await developerB.request('/portal/equipo'), TEAM_MANAGERS);
    const ownerBId = await portalUserId('duena-b@example.com');
    expect(says(await developerB.serverAction('/portal/equipo', 'removePortalMemberAction', { miembro: ownerBId }), PORTAL_ACTION_MESSAGES.forbidden)).toBe(true);
    expect(says(await developerB.serverAction('/portal/equipo', 'invitePortalMemberAction', { email: 'colado@example.com', rol: 'propietario' }), PORTAL_ACTION_MESSAGES.forbidden)).toBe(true);
  });
});

describe('removing a member', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('ends their sessions and leaves the integration’s API token working', async () => {
    const lookup = () => gateway.call(ROUTES.renap, { as: integrationB, json: validRequestBody(ROUTES.renap, gateway.sample) });
    expect((await lookup()).status).toBe(200);

    const developerBId = await portalUserId('dev-b@example.com');
    const removed = await ownerB.serverAction('/portal/equipo', 'removePortalMemberAction', { miembro: developerBId });
    expect(says(removed, 'ya no es parte del equipo')).toBe(true);
    const signedOut = await developerB.request('/portal');
    expect(signedOut.status).toBe(307);
    expect(signedOut.headers.get('location')).toBe('/portal/ingresar?motivo=sesion');
    expect((await portalClient().portalSignIn('dev-b@example.com', PASSWORD)).status).toBe(200);

    expect((await lookup()).status).toBe(200);
    expect((await gateway.call(ROUTES.renap, { as: { ...integrationB, token: `${integrationB.token}x` }, json: validRequestBody(ROUTES.renap, gateway.sample) })).status).toBe(403);
  });
});

describe('signing out over https', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('clears the __Host- session cookie with Secure and Path=/, as a browser needs to drop it', async () => {
    await accept(await inviteFromConsole(await consoleAdmin(), integrationA, 'sale-https@example.com', 'facturacion'), 'Sale');
    // The same database behind a public URL on https: the portal's cookies are Secure and __Host-.
    const secureApp = await startApp({ env: { NEXTAUTH_URL: 'https://portal.example.test', TRUSTED_PROXY_HOPS: '1', RATE_LIMIT_SIGN_IN_PER_MINUTE: '200' } });
    try {
      const browser = new PortalClient(secureApp.baseUrl, { 'x-forwarded-for': `203.0.113.${++addresses}` });
      expect((await browser.portalSignIn('sale-https@example.com', PASSWORD)).status).toBe(303);
      expect([...browser.cookies.keys()]).toContain('__Host-portal-sesion');

      const signedOut = await browser.request('/portal', {
        method: 'POST',
        // What a browser sends behind the TLS proxy: the public URL's origin, https (an http origin is another site's).
        headers: { 'next-action': serverActionId('portalSignOutAction', 'app/portal/'), accept: 'text/x-component', 'content-type': 'text/plain;charset=UTF-8', origin: 'https://portal.example.test' },
        body: '[]',
      });
      const cleared = signedOut.headers.getSetCookie().find((cookie) => cookie.startsWith('__Host-portal-sesion='));
      expect(cleared).toMatch(/^__Host-portal-sesion=;/);
      const attributes = cleared!.split(';').map((part) => part.trim().toLowerCase());
      expect(attributes).toContain('secure');
      expect(attributes).toContain('path=/');
      expect(attributes.some((part) => part === 'max-age=0' || part.startsWith('expires=thu, 01 jan 1970'))).toBe(true);
      expect(browser.portalSessionCookie()).toBeUndefined();
    } finally {
      await secureApp.stop();
    }
  });
});

/** Posts a form with a Host header of our choosing (fetch always sends the address it connects to). */
async function postWithHost(path: string, host: string, fields: Record<string, string>): Promise<number> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const encoded = new Response(form);
  const body = Buffer.from(await encoded.arrayBuffer());
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port: gateway.app.port,
        path,
        method: 'POST',
        // The Origin matches the forged Host, as an attacker's own client would send it.
        headers: { host, origin: `http://${host}`, 'content-type': encoded.headers.get('content-type')!, 'content-length': body.length, 'x-forwarded-for': `203.0.113.${++addresses}` },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode!));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

describe('links in the portal’s e-mails', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('a reset asked for with a forged Host header links to the app’s own address, never to that host', async () => {
    const fields = formFields((await portalClient().request('/portal/restablecer')).text, 'email');
    expect(await postWithHost('/portal/restablecer', 'evil.example', { ...fields, email: 'duena-a@example.com' })).toBe(200);
    // Development without SMTP prints the link on the app's terminal once the answer has left.
    const link = await vi.waitFor(() => {
      const printed = /Restablecer la contraseña del portal de duena-a@example\.com: (\S+)/.exec(gateway.app.logs())?.[1];
      if (!printed) throw new Error('no reset link printed yet');
      return printed;
    });
    expect(link).not.toContain('evil.example');
    // The app's own address: it listens on 127.0.0.1 (HOST) at its port.
    expect(new URL(link).origin).toBe(gateway.app.baseUrl);
  });
});

describe('two-factor sign-in in the portal', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('an owner enrols with the app’s code; the next sign-in asks for a code, refuses a wrong one and opens Inicio with the right one', async () => {
    const integration = await gateway.withDatabase(() => createTestIntegration('portal-http-2fa', { balanceCentavos: 1_000 }));
    const owner = await accept(await inviteFromConsole(await consoleAdmin(), integration, 'duena-2fa@example.com', 'propietario'), 'Dueña con código');
    const started = await owner.serverAction('/portal/cuenta', 'startPortalEnrolmentAction', {});
    const secret = /"secret":"([A-Z2-7]{32})"/.exec(started.text)?.[1] ?? '';
    expect(secret).not.toBe('');
    const confirmed = await owner.serverAction('/portal/cuenta', 'confirmPortalEnrolmentAction', { codigo: totpCodeAt(secret, Date.now()) });
    expect(confirmed.text).toContain('recoveryCodes');

    const again = portalClient();
    const signedIn = await again.portalSignIn('duena-2fa@example.com', PASSWORD);
    expect(signedIn.status).toBe(303);
    expect(new URL(signedIn.location!, gateway.app.baseUrl).pathname).toBe('/portal/verificacion');
    expect((await again.request('/portal')).headers.get('location')).toMatch(/^\/portal\/verificacion/);
    const code = totpCodeAt(secret, Date.now() + TOTP_PERIOD_SECONDS * 1000);
    const wrong = await again.serverAction('/portal/verificacion', 'verifyPortalSecondFactorAction', { codigo: code === '000000' ? '111111' : '000000' });
    expect(wrong.text).not.toContain('Código correcto.');
    expect((await again.request('/portal')).status).not.toBe(200);
    const right = await again.serverAction('/portal/verificacion', 'verifyPortalSecondFactorAction', { codigo: code });
    expect(right.text).toContain('Código correcto.');
    expect((await again.request('/portal')).status).toBe(200);
  });
});
