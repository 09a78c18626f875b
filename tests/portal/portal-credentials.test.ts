// The portal's credentials self-service over HTTP against the built app (issue 34, point 1): an
// owner's or a developer's token made, rotated and revoked in the portal works (or stops working)
// on the API at once, through the console's own code paths (the change notification, the audit
// with the portal user as actor); an owner's allow-list is validated as the console's, and one that
// leaves out the owner's own address is saved only when confirmed; and a billing user's call of
// each of these actions is refused on the server whatever it sends. Another integration's token ids are tried in the isolation suite.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/db/client';
import { auditLog, integrations, integrationTokens } from '@/db/schema';
import { ACTION_MESSAGES } from '@/lib/flows/auth/action';
import { PORTAL_ACTION_MESSAGES } from '@/lib/surfaces/portal/action';
import { leavesOutMessage, PORTAL_CREDENTIAL_MESSAGES } from '@/lib/surfaces/portal/credentials';
import { CREDENTIAL_READERS } from '@/lib/flows/portal-identity/roles';
import { createTestIntegration, ROUTES, startGateway, validRequestBody, type Gateway, type TestIntegration } from '../conformance/harness';
import { addPortalMember, consoleSignedIn, newConsoleUser, PORTAL_PASSWORD, portalSignedIn } from '../support/people';
import { expectPortalRefusal, PortalClient } from '../support/portal-client';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';

const PAGE = '/portal/credenciales';
const people = { ownerA: 'duena-credenciales@example.com', developerA: 'dev-credenciales@example.com', billingA: 'conta-credenciales@example.com' } as const;

let testDatabase: TestDatabase;
let gateway: Gateway;
let integrationA: TestIntegration;

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  integrationA = await createTestIntegration('portal-credenciales-a', { balanceCentavos: 10_000 });
  await addPortalMember(integrationA, people.ownerA, 'propietario');
  await addPortalMember(integrationA, people.developerA, 'desarrollador');
  await addPortalMember(integrationA, people.billingA, 'facturacion');
  gateway = await startGateway(testDatabase, { env: { TRUSTED_PROXY_HOPS: '1', RATE_LIMIT_SIGN_IN_PER_MINUTE: '200' } });
}, PROCESS_TEST_TIMEOUT_MS);

afterAll(async () => {
  await gateway?.stop();
  await testDatabase?.cleanup();
});

/** A server action's answer: its return value, the flight's line `1:…`. */
function answerOf(flight: { text: string }): { ok: boolean; message?: string; data?: { token?: string } } {
  const line = flight.text.split('\n').find((candidate) => candidate.startsWith('1:'));
  if (!line) throw new Error(`no action answer in ${flight.text.slice(0, 300)}`);
  return JSON.parse(line.slice(2)) as { ok: boolean; message?: string; data?: { token?: string } };
}

/** A catalog lookup with A's login and this token. */
async function lookupWith(token: string): Promise<number> {
  const answer = await gateway.call(ROUTES.cuiNit, { as: { ...integrationA, token }, json: validRequestBody(ROUTES.cuiNit, gateway.sample) });
  return answer.status;
}

async function tokensOfA() {
  return gateway.withDatabase(async () => (await db()).select().from(integrationTokens).where(eq(integrationTokens.integrationId, integrationA.id)).orderBy(integrationTokens.id));
}

async function auditOf(action: string) {
  return gateway.withDatabase(async () =>
    (await db()).select().from(auditLog).where(and(eq(auditLog.action, action), eq(auditLog.targetId, String(integrationA.id)))).orderBy(auditLog.id),
  );
}

describe('a developer of A', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  let developer: PortalClient;
  beforeAll(async () => {
    developer = await portalSignedIn(gateway.app.baseUrl, people.developerA);
  }, PROCESS_TEST_TIMEOUT_MS);

  it('creates a token that answers 200 at once, shown once and listed by its prefix, audited as the developer', async () => {
    const page = await developer.request(PAGE);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Nuevo token');
    expect(page.text).not.toContain('escribe al equipo del servicio para crear');

    const created = answerOf(await developer.serverAction(PAGE, 'createPortalTokenAction', { etiqueta: 'Servidor de facturas', vence: '' }));
    expect(created.ok, created.message).toBe(true);
    expect(created.message).toBe('Token «Servidor de facturas» creado.');
    const secret = created.data!.token!;
    expect(await lookupWith(secret)).toBe(200);
    // The original token still works beside it: tokens live side by side.
    expect(await lookupWith(integrationA.token)).toBe(200);

    const listed = await developer.request(PAGE);
    const row = (await tokensOfA()).find((token) => token.label === 'Servidor de facturas')!;
    expect(listed.text).toContain(row.tokenPrefix);
    expect(listed.text).not.toContain(secret);
    const [audited] = await auditOf('token.create');
    expect(audited!.actor).toMatch(new RegExp(`^integrator:\\d+ ${integrationA.id} ${people.developerA} \\(portal-credenciales-a\\)$`));
  });

  it('rotates a token with a 24 h overlap (both answer 200), then revokes the old one, refused at once while the new one works', async () => {
    const original = (await tokensOfA()).find((token) => token.label !== 'Servidor de facturas')!;
    const rotated = answerOf(await developer.serverAction(PAGE, 'rotatePortalTokenAction', { tokenId: original.id, superposicion: '24h' }));
    expect(rotated.ok, rotated.message).toBe(true);
    expect(rotated.message).toMatch(/^Token rotado: el anterior sigue funcionando hasta el /);
    const fresh = rotated.data!.token!;
    expect(await lookupWith(fresh)).toBe(200);
    expect(await lookupWith(integrationA.token)).toBe(200);
    const replaced = (await tokensOfA()).find((token) => token.id === original.id)!;
    expect(replaced.replacedById).not.toBeNull();
    const hours = (replaced.expiresAt!.getTime() - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23);
    expect(hours).toBeLessThanOrEqual(24);

    // Both are called the same: the page tells them apart by which is new, their creation, and the old one's end.
    const newPrefix = (await tokensOfA()).find((token) => token.id === replaced.replacedById)!.tokenPrefix;
    const page = (await developer.request(PAGE)).text;
    const when = '\\d\\d/\\d\\d/\\d{4}, \\d\\d:\\d\\d:\\d\\d';
    expect(page).toMatch(new RegExp(`Token nuevo\\. Reemplaza a ${original.tokenPrefix}… \\(creado el ${when}\\), que sigue funcionando hasta el ${when}\\.`));
    expect(page).toMatch(new RegExp(`Token anterior: funciona hasta el ${when}\\. Lo reemplaza ${newPrefix}…, el nuevo, creado el ${when}\\.`));
    const revokeChoice = /<select[^>]*data-testid="revoke-token-choice"[^>]*>([\s\S]*?)<\/select>/.exec(page)?.[1] ?? '';
    expect(revokeChoice).toMatch(new RegExp(`>${original.label} · ${original.tokenPrefix}… · anterior, creado el ${when}, funciona hasta el ${when}</option>`));
    expect(revokeChoice).toMatch(new RegExp(`>${original.label} · ${newPrefix}… · nuevo, creado el ${when}</option>`));

    const revoked = answerOf(await developer.serverAction(PAGE, 'revokePortalTokenAction', { tokenId: original.id }));
    expect(revoked.ok, revoked.message).toBe(true);
    expect(await lookupWith(integrationA.token)).toBe(401);
    expect(await lookupWith(fresh)).toBe(200);
    expect((await auditOf('token.revoke')).at(-1)!.actor).toContain(people.developerA);
    expect((await auditOf('integration.rotate_token')).at(-1)!.actor).toContain(people.developerA);

    // Revoked once: a second revocation and a rotation of it change nothing, and say so.
    expect(answerOf(await developer.serverAction(PAGE, 'revokePortalTokenAction', { tokenId: original.id })).message).toBe('Ese token ya estaba revocado.');
    expect(answerOf(await developer.serverAction(PAGE, 'rotatePortalTokenAction', { tokenId: original.id, superposicion: 'none' })).message).toBe(PORTAL_CREDENTIAL_MESSAGES.notRotatable);
    expect(answerOf(await developer.serverAction(PAGE, 'revokePortalTokenAction', { tokenId: 2_000_000_000 })).message).toBe(PORTAL_CREDENTIAL_MESSAGES.unknownToken);
  });
});

describe('an owner of A editing the IP allow-list', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  async function allowListOfA(): Promise<string[]> {
    return gateway.withDatabase(async () => (await (await db()).select({ list: integrations.allowedNetworks }).from(integrations).where(eq(integrations.id, integrationA.id)))[0]!.list);
  }

  it('saves the console’s validated list, and one leaving out the owner’s own address only when confirmed', async () => {
    // Behind one trusted proxy (TRUSTED_PROXY_HOPS=1) the owner's address is the one its proxy wrote.
    const ownAddress = '203.0.113.77';
    const owner = new PortalClient(gateway.app.baseUrl, { 'x-forwarded-for': ownAddress });
    expect((await owner.portalSignIn(people.ownerA, PORTAL_PASSWORD)).status).toBe(303);
    const page = await owner.request(PAGE);
    expect(page.text).toContain(`Ahora está conectado desde ${ownAddress}.`);
    const freshToken = answerOf(await owner.serverAction(PAGE, 'createPortalTokenAction', { etiqueta: 'Para la lista', vence: '' })).data!.token!;

    // The console's validation, every mistake at once; nothing saved.
    const invalid = answerOf(await owner.serverAction(PAGE, 'setPortalAllowListAction', { direcciones: '198.51.100.300, 10.0.0.1/33' }));
    expect(invalid).toEqual({
      ok: false,
      message: 'Revise las direcciones.',
      fieldErrors: { direcciones: '«198.51.100.300» no es una dirección IPv4 ni IPv6. «10.0.0.1/33»: el prefijo debe ser un número de 0 a 32.' },
    });
    expect(await allowListOfA()).toEqual([]);

    // Including the owner's address (and the tests' own, 127.0.0.1): saved at once.
    const including = answerOf(await owner.serverAction(PAGE, 'setPortalAllowListAction', { direcciones: `${ownAddress}, 127.0.0.1` }));
    expect(including).toMatchObject({ ok: true, message: `Lista guardada: solo se aceptan solicitudes desde esas 2 entradas: la dirección ${ownAddress} y la dirección 127.0.0.1.` });
    expect(await allowListOfA()).toEqual([ownAddress, '127.0.0.1']);
    expect(await lookupWith(freshToken)).toBe(200);

    // Leaving the owner's address out: refused, saying which address, until confirmed.
    const leavingOut = answerOf(await owner.serverAction(PAGE, 'setPortalAllowListAction', { direcciones: '198.51.100.0/24' }));
    expect(leavingOut).toEqual({ ok: false, message: leavesOutMessage(ownAddress), fieldErrors: { direcciones: leavesOutMessage(ownAddress) } });
    expect(leavesOutMessage(ownAddress)).toContain(`(${ownAddress})`);
    expect(await allowListOfA()).toEqual([ownAddress, '127.0.0.1']);
    const confirmed = answerOf(await owner.serverAction(PAGE, 'setPortalAllowListAction', { direcciones: '198.51.100.0/24', fueraDeLista: 'si' }));
    expect(confirmed).toMatchObject({ ok: true, message: 'Lista guardada: solo se aceptan solicitudes desde el rango 198.51.100.0/24 (256 direcciones).' });
    expect(await allowListOfA()).toEqual(['198.51.100.0/24']);
    // In force at once, through the change notification: this test's address is now refused.
    expect(await lookupWith(freshToken)).toBe(401);
    const audited = (await auditOf('integration.set_allowed_networks')).at(-1)!;
    expect(audited.actor).toContain(people.ownerA);
    expect(audited.after).toMatchObject({ allowedNetworks: ['198.51.100.0/24'] });

    // Emptied (any address): nothing to confirm.
    expect(answerOf(await owner.serverAction(PAGE, 'setPortalAllowListAction', { direcciones: '' }))).toMatchObject({ ok: true, message: 'Lista vacía: se aceptan solicitudes desde cualquier dirección.' });
    expect(await lookupWith(freshToken)).toBe(200);
  });
});

describe('a billing user of A, and no session', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('are refused every credential action on the server, and A’s tokens stay as they were', async () => {
    const before = await tokensOfA();
    const [usable] = before.filter((token) => token.revokedAt === null);
    const tries: [string, Record<string, unknown>][] = [
      ['createPortalTokenAction', { etiqueta: 'Colado', vence: '' }],
      ['rotatePortalTokenAction', { tokenId: usable!.id, superposicion: 'none' }],
      ['revokePortalTokenAction', { tokenId: usable!.id }],
      ['setPortalAllowListAction', { direcciones: '198.51.100.0/24', fueraDeLista: 'si' }],
    ];
    const billing = await portalSignedIn(gateway.app.baseUrl, people.billingA);
    expectPortalRefusal(await billing.request(PAGE), CREDENTIAL_READERS);
    const nobody = new PortalClient(gateway.app.baseUrl, { 'x-forwarded-for': '203.0.113.250' });
    for (const [name, input] of tries) {
      const refused = answerOf(await billing.serverAction(PAGE, name, input));
      expect(refused, name).toEqual({ ok: false, message: PORTAL_ACTION_MESSAGES.forbidden });
      expect(answerOf(await nobody.serverAction(PAGE, name, input)), name).toEqual({ ok: false, message: ACTION_MESSAGES.signedOut });
    }
    expect(await tokensOfA()).toEqual(before);
    expect(await gateway.withDatabase(async () => (await (await db()).select({ list: integrations.allowedNetworks }).from(integrations).where(eq(integrations.id, integrationA.id)))[0]!.list)).toEqual([]);
  });
});

/** The rows of a console table (by its data-testid) as the reader sees them: each cell's text. */
function tableRows(html: string, testId: string): string[][] {
  const table = new RegExp(`<table[^>]*data-testid="${testId}"[\\s\\S]*?</table>`).exec(html)?.[0] ?? '';
  const body = /<tbody>([\s\S]*?)<\/tbody>/.exec(table)?.[1] ?? '';
  return [...body.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/g)].map((row) =>
    [...row[1]!.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((cell) => cell[1]!.replace(/<!-- -->/g, '').replace(/<[^>]+>/g, '').replace(/&#x27;/g, "'").replace(/&amp;/g, '&').trim()),
  );
}

describe('the console reading what A’s people changed in the portal', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  // After the changes above: the developer's creation, rotation and revocation, the owner's token and allow-lists.
  const developerWho = `Integrador: ${people.developerA} (portal-credenciales-a)`;
  const ownerWho = `Integrador: ${people.ownerA} (portal-credenciales-a)`;

  it('shows support the portal’s activity on the integration’s Portal section, newest first, in Spanish, without the administrators’ link', async () => {
    const support = await newConsoleUser('soporte-actividad@example.com', 'support', { name: 'Soporte' });
    const staff = await consoleSignedIn(gateway.app.baseUrl, support);
    const page = await staff.request(`/admin/integraciones/${integrationA.id}/portal`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Actividad del portal');
    const rows = tableRows(page.text, 'portal-activity-list');
    expect(rows.map(([, who, what]) => [who, what])).toEqual([
      [ownerWho, 'Cambió las direcciones IP permitidas'],
      [ownerWho, 'Cambió las direcciones IP permitidas'],
      [ownerWho, 'Cambió las direcciones IP permitidas'],
      [ownerWho, 'Creó un token'],
      [developerWho, 'Revocó un token'],
      [developerWho, 'Rotó el token'],
      [developerWho, 'Creó un token'],
    ]);
    // When, as the console writes times (Guatemala's): 25/11/2026, 21:05:09.
    for (const [when] of rows) expect(when).toMatch(/^\d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}:\d{2}$/);
    // The staff's invitations to A were changes too, but not the portal's.
    expect(page.text).not.toContain('/admin/auditoria?');
  });

  it('links an administrator to the audit list filtered to A’s portal people, which shows them as the integrator', async () => {
    const admin = await newConsoleUser('admin-actividad@example.com', 'admin', { name: 'Administración' });
    const staff = await consoleSignedIn(gateway.app.baseUrl, admin);
    const page = await staff.request(`/admin/integraciones/${integrationA.id}/portal`);
    const link = /href="(\/admin\/auditoria\?[^"]+)"[^>]*>Ver estos cambios con sus valores en Auditoría</.exec(page.text)?.[1]?.replace(/&amp;/g, '&');
    expect(link).toBe(`/admin/auditoria?tipo=integration&id=${integrationA.id}&quien=integrator`);
    const audit = await staff.request(link!);
    expect(audit.status).toBe(200);
    // The audit page streams its later rows: counted by who, wherever they arrive in the answer.
    const rowsBy = (html: string, who: string) => html.split(`data-label="Quién">${who}</td>`).length - 1;
    expect(rowsBy(audit.text, ownerWho)).toBe(4);
    expect(rowsBy(audit.text, developerWho)).toBe(3);
    for (const what of ['Revocó un token', 'Rotó el token', 'Creó un token', 'Cambió las direcciones IP permitidas']) expect(audit.text).toContain(`data-label="Cambio">${what}</td>`);
    // Only the portal's people: the staff's invitations to A are not in it, but are in A's whole list.
    expect(audit.text).not.toContain('Invitó a una persona al portal</td>');
    const everything = (await staff.request(`/admin/auditoria?tipo=integration&id=${integrationA.id}`)).text;
    expect(rowsBy(everything, developerWho)).toBe(3);
    expect(everything).toContain('data-label="Cambio">Invitó a una persona al portal</td>');
  });
});
