// Inicio and the console's Portal section over HTTP against the built app (issue 33, points 4 and
// 7). Inicio of A shows A's balance, spending and use, after real lookups through the simulator,
// and none of B's distinctive figures (another tariff, other lookups); billing reads the money and
// not the use, a developer the use and not the money. An administrator removes a portal user (the
// user's session stops working at once) and sends an expired invitation again (the old link dies,
// a new one works), audited in Spanish; support reads the section and can do neither. Every role
// reads the balance (developers see the 402s), those who top up get the link to Recargas; a
// balance under the low-balance threshold or short of a lookup says so on Inicio; an owner whose
// integration lacks a contact's address is asked to write it in Notificaciones.
import { topUpGuidance } from '@/lib/presentation/top-up-guidance';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { db } from '@/db/client';
import { auditLog, integrations, portalInvitations } from '@/db/schema';
import { ACTION_MESSAGES } from '@/lib/flows/auth/action';
import { INVITATION_MESSAGES, listOpenInvitations } from '@/lib/flows/portal-identity/invitations';
import { findPortalAccountByEmail } from '@/lib/flows/portal-identity/accounts';
import { PORTAL_ROLE_DESCRIPTIONS } from '@/lib/flows/portal-identity/roles';
import { createTestIntegration, ROUTES, startGateway, validRequestBody, type Gateway, type TestIntegration } from '../conformance/harness';
import { addPortalMember, consoleSignedIn, invitePortalMember, newConsoleUser, portalSignedIn, signedOutPortalClient } from '../support/people';
import { says, type PortalClient } from '../support/portal-client';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';

let testDatabase: TestDatabase;
let gateway: Gateway;
let integrationA: TestIntegration;
let integrationB: TestIntegration;
let admin: { email: string; password: string; id: number };
let support: { email: string; password: string };
const people = {
  ownerA: 'inicio-duena-a@example.com',
  billingA: 'inicio-conta-a@example.com',
  developerA: 'inicio-dev-a@example.com',
  ownerB: 'inicio-duena-b@example.com',
  invitedA: 'inicio-invitada-a@example.com',
  ownerC: 'inicio-duena-c@example.com',
  developerC: 'inicio-dev-c@example.com',
  billingC: 'inicio-conta-c@example.com',
  developerD: 'inicio-dev-d@example.com',
  billingD: 'inicio-conta-d@example.com',
} as const;
let integrationC: TestIntegration;
let integrationD: TestIntegration;

let invitedCode: string;
const SUPPORT_EMAIL = 'soporte@pasarela-inicio.example';

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  integrationA = await createTestIntegration('portal-inicio-a', { balanceCentavos: 12_345, tariffCentavos: 150 });
  // B without omisos: only the service's administrators enable a lookup, and Inicio says which are.
  integrationB = await createTestIntegration('portal-inicio-b', { balanceCentavos: 54_321, tariffCentavos: 777, flags: { isOmisosEnabled: false } });
  await addPortalMember(integrationA, people.ownerA, 'propietario');
  await addPortalMember(integrationA, people.billingA, 'facturacion');
  await addPortalMember(integrationA, people.developerA, 'desarrollador');
  await addPortalMember(integrationB, people.ownerB, 'propietario');
  // C under the service's default low-balance threshold (Q 100.00) yet paying its lookups; D short of one.
  integrationC = await createTestIntegration('portal-inicio-c', { balanceCentavos: 5_000, tariffCentavos: 150 });
  integrationD = await createTestIntegration('portal-inicio-d', { balanceCentavos: 100, tariffCentavos: 150 });
  await addPortalMember(integrationC, people.ownerC, 'propietario');
  await addPortalMember(integrationC, people.developerC, 'desarrollador');
  await addPortalMember(integrationC, people.billingC, 'facturacion');
  await addPortalMember(integrationD, people.developerD, 'desarrollador');
  await addPortalMember(integrationD, people.billingD, 'facturacion');
  // B has both contacts' addresses, C only the technical one, A none.
  await (await db()).update(integrations).set({ technicalContactEmail: 'tec-b@example.com', billingContactEmail: 'pagos-b@example.com' }).where(eq(integrations.id, integrationB.id));
  await (await db()).update(integrations).set({ technicalContactEmail: 'tec-c@example.com' }).where(eq(integrations.id, integrationC.id));
  const invited = await invitePortalMember(integrationA, people.invitedA, 'desarrollador');
  invitedCode = invited.code;
  // Expired unanswered: the console lists it so an administrator can send it again.
  await (await db()).update(portalInvitations).set({ expiresAt: new Date(Date.now() - 3_600_000) }).where(eq(portalInvitations.id, invited.id));
  admin = await newConsoleUser('admin-inicio@example.com', 'admin', { name: 'Administración' });
  support = await newConsoleUser('soporte-inicio@example.com', 'support', { name: 'Soporte' });
  gateway = await startGateway(testDatabase, { env: { TRUSTED_PROXY_HOPS: '1', RATE_LIMIT_SIGN_IN_PER_MINUTE: '200', SUPPORT_CONTACT_EMAIL: SUPPORT_EMAIL } });

  // Real lookups through the simulator: A three CUI/NIT (Q 1.50 each) and one RENAP; B five full
  // RTU records at its own tariff (Q 7.77) and two RTU by NIT.
  const calls: Array<[TestIntegration, (typeof ROUTES)[keyof typeof ROUTES], number]> = [
    [integrationA, ROUTES.cuiNit, 3],
    [integrationA, ROUTES.renap, 1],
    [integrationB, ROUTES.catalogRtu, 5],
    [integrationB, ROUTES.rtuNits, 2],
  ];
  for (const [integration, route, count] of calls) {
    for (let index = 0; index < count; index++) expect((await gateway.call(route, { as: integration, json: validRequestBody(route, gateway.sample) })).status).toBe(200);
  }
}, PROCESS_TEST_TIMEOUT_MS);

afterAll(async () => {
  await gateway?.stop();
  await testDatabase?.cleanup();
});

/** The text of the element with this test id (its first text node). */
function testIdText(html: string, testId: string): string | undefined {
  return new RegExp(`data-testid="${testId}"[^>]*>([^<]*)<`).exec(html)?.[1];
}

/** The inner HTML of the paragraph with this test id, without React's text separators; undefined when absent. */
function notice(html: string, testId: string): string | undefined {
  return new RegExp(`<p[^>]*data-testid="${testId}"[^>]*>([\\s\\S]*?)</p>`).exec(html)?.[1]?.replaceAll('<!-- -->', '');
}

/** Inicio once the rollup job has added the lookups above (every couple of seconds in the app). */
async function homeWithUse(client: PortalClient, queries: string): Promise<string> {
  return vi.waitFor(
    async () => {
      const page = await client.request('/portal');
      expect(page.status).toBe(200);
      expect(testIdText(page.text, 'portal-usage-queries')).toBe(queries);
      return page.text;
    },
    { timeout: 30_000, interval: 250 },
  );
}

describe('Inicio', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('shows an owner of A its balance, this month’s spending, its use per lookup and its limits, and none of B’s figures', async () => {
    const ownerB = await portalSignedIn(gateway.app.baseUrl, people.ownerB);
    const pageB = await homeWithUse(ownerB, '7');
    // B's distinctive figures render on B's Inicio: 543.21 − 5 × 7.77.
    expect(testIdText(pageB, 'portal-balance')).toBe('Q 504.36');
    expect(testIdText(pageB, 'portal-spent-current')).toBe('Q 38.85');

    const ownerA = await portalSignedIn(gateway.app.baseUrl, people.ownerA);
    const page = await homeWithUse(ownerA, '4');
    expect(testIdText(page, 'portal-balance')).toBe('Q 118.95');
    expect(testIdText(page, 'portal-spent-current')).toBe('Q 4.50');
    expect(testIdText(page, 'portal-usage-charged')).toBe('Q 4.50');
    expect(page).toContain('Consultas por tipo');
    // Per lookup: A's CUI/NIT and RENAP, none of B's RTU.
    const table = /data-testid="portal-usage-by-lookup"[\s\S]*?<\/table>/.exec(page)![0];
    const totals = Object.fromEntries([...table.matchAll(/<td data-label="Consulta">([^<]+)<\/td><td class="num" data-label="Total">([^<]+)</g)].map((match) => [match[1], match[2]]));
    expect(totals).toMatchObject({ 'Catálogo CUI/NIT': '3', 'RENAP por CUI': '1', 'Catálogo RTU': '0', 'RTU por NIT': '0' });
    // Today's use against each per-minute limit: the catalogs' shared one counts A's three.
    expect(page).toMatch(/data-route="catalogs"[\s\S]*?data-testid="portal-limit-today"[^>]*>3</);
    expect(page).toMatch(/data-route="renap"[\s\S]*?data-testid="portal-limit-today"[^>]*>1</);
    for (const figure of ['Q 543.21', 'Q 504.36', 'Q 38.85', 'Q 7.77', 'portal-inicio-b']) expect(page, figure).not.toContain(figure);
    // The sources' state, with the public page's link.
    expect(page).toContain('Estado de las fuentes');
    expect(page).toContain('href="/estado"');
    // An id of B in the address names nothing: the integration is the session's.
    const withB = await ownerA.request(`/portal?integracion=${integrationB.id}&id=${integrationB.id}`);
    expect(testIdText(withB.text, 'portal-balance')).toBe('Q 118.95');
    expect(withB.text).not.toContain('Q 504.36');
  });

  it('gives billing the money and not the use, and a developer the use and the balance, read-only, without the spending', async () => {
    const billing = await (await portalSignedIn(gateway.app.baseUrl, people.billingA)).request('/portal');
    expect(testIdText(billing.text, 'portal-balance')).toBe('Q 118.95');
    expect(testIdText(billing.text, 'portal-spent-current')).toBe('Q 4.50');
    for (const hidden of ['data-testid="portal-usage"', 'Uso en los últimos 30 días', 'Límites por minuto', 'Consultas por tipo']) expect(billing.text, hidden).not.toContain(hidden);

    const developer = await (await portalSignedIn(gateway.app.baseUrl, people.developerA)).request('/portal');
    expect(testIdText(developer.text, 'portal-usage-queries')).toBe('4');
    expect(developer.text).toContain('Límites por minuto');
    // The balance the 402s depend on, and how many catalog lookups it pays (11,895 / 150).
    expect(testIdText(developer.text, 'portal-balance')).toBe('Q 118.95');
    expect(testIdText(developer.text, 'portal-lookups-left')).toBe('79');
    expect(developer.text).toContain('lo recarga un propietario o facturación, en Recargas');
    for (const hidden of ['Q 4.50', 'Gastado en', 'Monto cobrado', 'Cobrado', 'data-testid="portal-tariff"', 'data-testid="portal-top-up-link"', 'href="/portal/recargas"']) {
      expect(developer.text, hidden).not.toContain(hidden);
    }
  });

  it('greets a newcomer by name without assuming gender, in usted, and names every section the role opens', async () => {
    const page = (await (await portalSignedIn(gateway.app.baseUrl, people.developerC)).request('/portal?bienvenida=1')).text.replaceAll('<!-- -->', '');
    expect(page).not.toMatch(/Bienvenid[oa]|\btu cuenta\b|Tu rol/);
    expect(page).toMatch(/<p class="notice success" role="status">Hola, [^<:]+: su cuenta del portal está lista\.<\/p>/);
    expect(page).toContain(`Su rol: Desarrollador (${PORTAL_ROLE_DESCRIPTIONS.desarrollador}).`);
  });

  it('leads those who top up from the balance to Recargas, and no longer says the service\'s team does it', async () => {
    for (const email of [people.ownerB, people.billingA]) {
      const page = (await (await portalSignedIn(gateway.app.baseUrl, email)).request('/portal')).text;
      expect(page, email).toMatch(/<a (?=[^>]*href="\/portal\/recargas")[^>]*data-testid="portal-top-up-link"[^>]*>Recargar el saldo<\/a>/);
      // Online payments are off here: only the deposit (issue 64, point 10; tests/portal/portal-online-top-ups.test.ts has them on).
      expect(page, email).toContain(topUpGuidance({ paysOnline: false }));
      expect(page, email).not.toContain('pague en línea');
      expect(page, email).not.toContain('las hace el equipo del servicio');
    }
  });
});

describe('Inicio: a low balance and missing contacts', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  const lowBanner = 'El saldo, Q 50.00, está por debajo del umbral de aviso de saldo bajo (Q 100.00).';

  it('tells every role when the balance is under the low-balance threshold, with the link to Recargas for those who top up', async () => {
    for (const email of [people.ownerC, people.billingC]) {
      const page = (await (await portalSignedIn(gateway.app.baseUrl, email)).request('/portal')).text;
      const banner = notice(page, 'portal-balance-low');
      expect(banner, email).toContain(lowBanner);
      expect(banner, email).toContain('<a href="/portal/recargas">Recargas</a>');
    }
    const developer = (await (await portalSignedIn(gateway.app.baseUrl, people.developerC)).request('/portal')).text;
    const banner = notice(developer, 'portal-balance-low');
    expect(banner).toContain(lowBanner);
    expect(banner).toContain('Avise a un propietario o a facturación');
    expect(banner).not.toContain('href=');
    // Above the threshold, no banner.
    const ownerB = (await (await portalSignedIn(gateway.app.baseUrl, people.ownerB)).request('/portal')).text;
    expect(ownerB).not.toContain('data-testid="portal-balance-low"');
  });

  it('tells billing, too, when the balance no longer pays a lookup, with the link; a developer whom to tell', async () => {
    const billing = (await (await portalSignedIn(gateway.app.baseUrl, people.billingD)).request('/portal')).text;
    expect(notice(billing, 'portal-balance-short')).toMatch(/^El saldo de la integración no alcanza para una consulta de catálogo: responden 402 hasta la siguiente recarga\. .*<a href="\/portal\/recargas">Recargas<\/a>/);
    expect(billing).not.toContain('data-testid="portal-balance-low"');
    const developer = (await (await portalSignedIn(gateway.app.baseUrl, people.developerD)).request('/portal')).text;
    expect(notice(developer, 'portal-balance-short')).toBe(
      'El saldo de la integración no alcanza para una consulta de catálogo: responden 402 hasta la siguiente recarga. Avise a un propietario o a facturación: ellos lo recargan en Recargas.',
    );
    expect(testIdText(developer, 'portal-balance')).toBe('Q 1.00');
  });

  it('asks an owner, on arrival and after, for the contacts\' addresses the integration lacks, leading to Notificaciones; never the other roles', async () => {
    const missing = (html: string) => notice(html, 'portal-contacts-missing');
    const ownerA = (await (await portalSignedIn(gateway.app.baseUrl, people.ownerA)).request('/portal?bienvenida=1')).text;
    expect(missing(ownerA)).toContain('Su integración no tiene correos de contacto técnico ni de facturación: nadie recibe por correo los avisos del servicio, tampoco el de saldo bajo.');
    expect(missing(ownerA)).toContain('<a href="/portal/notificaciones">Notificaciones</a>');
    const ownerC = (await (await portalSignedIn(gateway.app.baseUrl, people.ownerC)).request('/portal')).text;
    expect(missing(ownerC)).toContain('Su integración no tiene correo de contacto de facturación: nadie recibe por correo el aviso de saldo bajo');
    expect(missing((await (await portalSignedIn(gateway.app.baseUrl, people.ownerB)).request('/portal')).text)).toBeUndefined();
    for (const email of [people.billingA, people.billingC, people.developerC]) {
      expect(missing((await (await portalSignedIn(gateway.app.baseUrl, email)).request('/portal')).text), email).toBeUndefined();
    }
  });
});

/** Inicio's lookups, each with what its badge says. */
function lookupStates(html: string): Record<string, string> {
  const list = /data-testid="portal-lookups"[\s\S]*?<\/ul>/.exec(html)?.[0] ?? '';
  return Object.fromEntries([...list.matchAll(/data-lookup="([a-z_]+)"[\s\S]*?<span class="badge[^"]*">([^<]+)</g)].map((match) => [match[1], match[2]]));
}

describe('Inicio: what stays with the service’s administrators (issue 34, point 5)', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  const askService = 'Habilitar o deshabilitar una consulta, cambiar la tarifa, recargar o ajustar el saldo directamente y desactivar la integración lo hace el equipo del servicio';

  it('shows an owner its lookups enabled and its tariff, read-only, and whom to ask', async () => {
    const page = (await (await portalSignedIn(gateway.app.baseUrl, people.ownerB)).request('/portal')).text;
    expect(lookupStates(page)).toEqual({ renap: 'Habilitada', rtu_nits: 'Habilitada', cui_nit: 'Habilitada', rtu: 'Habilitada', omisos: 'No habilitada' });
    expect(testIdText(page, 'portal-service-tariff')).toBe('Tarifa por consulta de catálogo: Q 7.77.');
    expect(page).toContain(askService);
    expect(page).toContain(`href="mailto:${SUPPORT_EMAIL}"`);
    // Nothing to change them with: no form in the section.
    const section = /data-testid="portal-service-managed"[\s\S]*?<\/section>/.exec(page)![0];
    expect(section).not.toMatch(/<form|<button|<input/);
  });

  it('shows a developer the lookups without the tariff’s amount, and billing the tariff without the lookups', async () => {
    const developer = (await (await portalSignedIn(gateway.app.baseUrl, people.developerA)).request('/portal')).text;
    expect(lookupStates(developer)).toEqual({ renap: 'Habilitada', rtu_nits: 'Habilitada', cui_nit: 'Habilitada', rtu: 'Habilitada', omisos: 'Habilitada' });
    expect(developer).not.toContain('data-testid="portal-service-tariff"');
    expect(developer).not.toContain('Q 1.50');
    expect(developer).toContain(askService);

    const billing = (await (await portalSignedIn(gateway.app.baseUrl, people.billingA)).request('/portal')).text;
    expect(billing).not.toContain('data-testid="portal-lookups"');
    expect(testIdText(billing, 'portal-service-tariff')).toBe('Tarifa por consulta de catálogo: Q 1.50.');
    expect(billing).toContain(askService);
    expect(billing).toContain(`href="mailto:${SUPPORT_EMAIL}"`);
  });
});

describe('the console’s Portal section', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  const section = () => `/admin/integraciones/${integrationA.id}/portal`;

  it('support reads users, last sign-ins and invitations but can neither remove a user nor resend an invitation', async () => {
    const billing = await portalSignedIn(gateway.app.baseUrl, people.billingA);
    const staff = await consoleSignedIn(gateway.app.baseUrl, support);
    const answer = await staff.request(section());
    expect(answer.status).toBe(200);
    // Addresses carry a <wbr> after "@" and dots (components/email-address.tsx).
    const page = { text: answer.text.replaceAll('<wbr/>', '') };
    expect(page.text).toContain(people.billingA);
    expect(page.text).toContain(people.invitedA);
    expect(page.text).toContain('Venció el');
    // Signed in above: the billing user's last sign-in is a date, not "Nunca".
    const billingRow = new RegExp(`${people.billingA.replaceAll('.', '\\.')}[\\s\\S]*?data-testid="portal-user-last-sign-in"[^>]*>([^<]+)<`).exec(page.text)?.[1];
    expect(billingRow).toMatch(/^\d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}:\d{2}$/);
    expect(page.text).not.toContain('Quitar del portal');
    expect(page.text).not.toContain('Reenviar');

    const [billingId, invitation] = await gateway.withDatabase(async () => [(await findPortalAccountByEmail(people.billingA))!.id, (await listOpenInvitations(integrationA.id)).find((open) => open.email === people.invitedA)!]);
    const removal = await staff.serverAction(section(), 'removePortalUserAction', { integrationId: integrationA.id, miembro: billingId });
    expect(says(removal, ACTION_MESSAGES.forbidden), removal.text.slice(0, 400)).toBe(true);
    const resend = await staff.serverAction(section(), 'resendPortalUserInvitationAction', { integrationId: integrationA.id, invitacion: invitation.id });
    expect(says(resend, ACTION_MESSAGES.forbidden), resend.text.slice(0, 400)).toBe(true);
    expect((await billing.request('/portal')).status).toBe(200);
    expect(await gateway.withDatabase(async () => (await listOpenInvitations(integrationA.id)).map((open) => open.id))).toContain(invitation.id);
  });

  it('an administrator removes a portal user: that user’s session stops working at once, audited with the administrator as actor', async () => {
    const developer = await portalSignedIn(gateway.app.baseUrl, people.developerA);
    expect((await developer.request('/portal')).status).toBe(200);
    const staff = await consoleSignedIn(gateway.app.baseUrl, admin);
    expect((await staff.request(section())).text).toContain('Quitar del portal');
    const developerId = await gateway.withDatabase(async () => (await findPortalAccountByEmail(people.developerA))!.id);

    const removal = await staff.serverAction(section(), 'removePortalUserAction', { integrationId: integrationA.id, miembro: developerId });
    expect(says(removal, 'ya no entra al portal: sus sesiones se cerraron'), removal.text.slice(0, 400)).toBe(true);
    const after = await developer.request('/portal');
    expect(after.status).toBe(307);
    expect(after.headers.get('location')).toBe('/portal/ingresar?motivo=sesion');
    expect((await staff.request(section())).text).not.toContain(people.developerA);
    // The integration's token still works.
    expect((await gateway.call(ROUTES.renap, { as: integrationA, json: validRequestBody(ROUTES.renap, gateway.sample) })).status).toBe(200);

    const [audit] = await gateway.withDatabase(async () =>
      (await db()).select().from(auditLog).where(and(eq(auditLog.action, 'portal_user.remove'), eq(auditLog.targetId, String(developerId)))),
    );
    // Its sessions: the invitation's acceptance, the sign-ins of the roles test and of the read-only lookups' test, and this one's.
    expect(audit).toMatchObject({ actor: `user:${admin.id} ${admin.email}`, before: { email: people.developerA, role: 'desarrollador', sessions: 4 } });
    const auditPage = await staff.request(`/admin/auditoria?tipo=portal_user&id=${developerId}`);
    expect(auditPage.text).toContain('Quitó a la persona del portal');
  });

  it('an administrator sends an expired invitation again: the old link stays dead, the new one opens, audited in Spanish', async () => {
    const staff = await consoleSignedIn(gateway.app.baseUrl, admin);
    const invitation = await gateway.withDatabase(async () => (await listOpenInvitations(integrationA.id)).find((open) => open.email === people.invitedA)!);
    expect(invitation.expired).toBe(true);
    const resend = await staff.serverAction(section(), 'resendPortalUserInvitationAction', { integrationId: integrationA.id, invitacion: invitation.id });
    expect(says(resend, `Invitación reenviada para ${people.invitedA}`), resend.text.slice(0, 400)).toBe(true);
    expect(says(resend, 'El enlace anterior ya no sirve.')).toBe(true);

    const browser = signedOutPortalClient(gateway.app.baseUrl);
    const old = await browser.request(`/portal/invitacion?codigo=${invitedCode}`);
    expect(old.text).toContain(INVITATION_MESSAGES.linkUnusable);
    expect(old.text).not.toContain(people.invitedA);
    const link = [...gateway.app.logs().matchAll(/Invitación al portal para (\S+) \([^)]*\): (http\S+)/g)].filter((match) => match[1] === people.invitedA).at(-1)![2]!;
    const fresh = await browser.request(new URL(link).pathname + new URL(link).search);
    expect(fresh.status).toBe(200);
    expect(fresh.text).toContain(people.invitedA);
    expect(fresh.text).toContain('portal-inicio-a');

    const page = await staff.request(section());
    expect(page.text).toContain('Pendiente; vence el');
    const [audit] = await gateway.withDatabase(async () =>
      (await db()).select().from(auditLog).where(and(eq(auditLog.action, 'portal.resend_invitation'), eq(auditLog.targetId, String(integrationA.id)))),
    );
    expect(audit).toMatchObject({ actor: `user:${admin.id} ${admin.email}`, after: { email: people.invitedA, role: 'desarrollador' } });
    expect((await staff.request(`/admin/auditoria?tipo=integration&id=${integrationA.id}`)).text).toContain('Reenvió una invitación al portal');
  });
});
