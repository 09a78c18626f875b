// "Actividad" over HTTP against the built app (issue 51, point 19): an owner reads who rotated a
// token, who revealed which query's identifiers (never the NIT) and who changed the team, staff as
// "Administración"; the navigation offers it to owners only, other roles are refused at its
// address, and another integration's owner reads none of it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '@/lib/core/audit/audit';
import { rotateToken } from '@/lib/flows/integration-management/tokens';
import { setAllowedNetworks } from '@/lib/flows/integration-management/service';
import { findPortalAccountByEmail, integratorActor } from '@/lib/flows/portal-identity/accounts';
import { revealPortalRecordIdentifiers } from '@/lib/surfaces/portal/records';
import { ACTIVITY_READERS } from '@/lib/flows/portal-identity/roles';
import { createTestIntegration, startGateway, type Gateway, type TestIntegration } from '../conformance/harness';
import { expectPortalRefusal, portalNavLinks } from '../support/portal-client';
import { addPortalMember, portalSignedIn } from '../support/people';
import { settledCatalogQuery } from '../support/query-records';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';

const STAFF: Actor = { kind: 'user', id: 4244, email: 'operadora.actividad@servicio.example' };
const NIT = '576937-K';
const people = { ownerA: 'duena-act-a@example.com', developerA: 'dev-act-a@example.com', billingA: 'conta-act-a@example.com', ownerB: 'duena-act-b@example.com' } as const;

let testDatabase: TestDatabase;
let gateway: Gateway;
let integrationA: TestIntegration;
let integrationB: TestIntegration;

async function sessionOf(email: string) {
  const account = (await findPortalAccountByEmail(email))!;
  return { ...account, actor: integratorActor(account), pendingStep: null, sessionPublicId: 'x', origin: 'local' as const };
}

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  integrationA = await createTestIntegration('portal-actividad-a', { balanceCentavos: 10_000 });
  integrationB = await createTestIntegration('portal-actividad-b', { balanceCentavos: 10_000 });
  await addPortalMember(integrationA, people.ownerA, 'propietario', 'Marta Duarte');
  await addPortalMember(integrationA, people.developerA, 'desarrollador', 'Luis Pérez');
  await addPortalMember(integrationA, people.billingA, 'facturacion', 'Ana Conta');
  await addPortalMember(integrationB, people.ownerB, 'propietario', 'Berta B');
  await settledCatalogQuery(integrationA, 'req_actividad_a', { status: 200, nit: NIT });
  await settledCatalogQuery(integrationB, 'req_actividad_b', { status: 200, nit: NIT });
  const developerA = await sessionOf(people.developerA);
  const ownerB = await sessionOf(people.ownerB);
  expect((await rotateToken(developerA.actor, integrationA.id, { overlap: '1h' })).ok).toBe(true);
  expect(await revealPortalRecordIdentifiers(developerA, 'req_actividad_a', 'Ticket 77 del cliente')).toMatchObject({ nit: NIT });
  expect((await setAllowedNetworks(STAFF, integrationA.id, ['192.0.2.0/24'])).ok).toBe(true);
  expect((await rotateToken(ownerB.actor, integrationB.id)).ok).toBe(true);
  expect(await revealPortalRecordIdentifiers(ownerB, 'req_actividad_b', 'Motivo secreto de B')).toMatchObject({ nit: NIT });
  gateway = await startGateway(testDatabase, { env: { TRUSTED_PROXY_HOPS: '1', RATE_LIMIT_SIGN_IN_PER_MINUTE: '200' } });
}, PROCESS_TEST_TIMEOUT_MS);

afterAll(async () => {
  await gateway?.stop();
  await testDatabase?.cleanup();
});

/** The page's table as rows of cell texts. */
function activityRows(html: string): string[][] {
  const table = /<table[^>]*data-testid="portal-activity"[\s\S]*?<\/table>/.exec(html)?.[0] ?? '';
  return [...table.matchAll(/<tr>([\s\S]*?)<\/tr>/g)]
    .map((row) => [...row[1]!.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((cell) => cell[1]!.replace(/<[^>]+>/g, '').replace(/<!-- -->/g, '').replace(/&amp;/g, '&').trim()))
    .filter((cells) => cells.length > 0);
}

describe('Actividad', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('shows an owner who rotated the token, who revealed which query and what staff changed, in Guatemala time, never the NIT', async () => {
    const owner = await portalSignedIn(gateway.app.baseUrl, people.ownerA);
    expect(portalNavLinks((await owner.request('/portal')).text)).toContain('/portal/actividad');
    const answer = await owner.request('/portal/actividad');
    expect(answer.status).toBe(200);
    const rows = activityRows(answer.text);
    const lines = rows.map(([, who, what]) => `${who} · ${what}`);
    expect(lines.slice(0, 3)).toEqual([
      'Administración · Cambió las direcciones IP permitidas',
      'Luis Pérez (dev-act-a@example.com) · Mostró los identificadores de una consulta',
      'Luis Pérez (dev-act-a@example.com) · Rotó el token',
    ]);
    expect(rows[0]![0]).toMatch(/^\d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}:\d{2}$/);
    expect(rows[1]![3]).toContain('Consulta req_actividad_a; Motivo: Ticket 77 del cliente');
    expect(answer.text).toContain('href="/portal/consultas/req_actividad_a"');
    expect(lines).toContain('Luis Pérez (dev-act-a@example.com) · Aceptó la invitación al portal');
    expect(answer.text).not.toContain('576937');
    expect(answer.text).not.toContain('operadora.actividad');
    expect(answer.text).not.toMatch(/req_actividad_b|Motivo secreto de B|Berta B|duena-act-b/);
  });

  it('is for owners only: a developer and a billing user are refused at its address and not offered it', async () => {
    for (const email of [people.developerA, people.billingA]) {
      const person = await portalSignedIn(gateway.app.baseUrl, email);
      expectPortalRefusal(await person.request('/portal/actividad'), ACTIVITY_READERS, 'página', email);
      expect(portalNavLinks((await person.request('/portal')).text), email).not.toContain('/portal/actividad');
    }
  });

  it('shows another integration’s owner only theirs', async () => {
    const ownerB = await portalSignedIn(gateway.app.baseUrl, people.ownerB);
    const answer = await ownerB.request('/portal/actividad?despues=no-es-un-cursor');
    expect(answer.status).toBe(200);
    expect(answer.text).toContain('req_actividad_b');
    expect(answer.text).not.toMatch(/req_actividad_a|Ticket 77|Luis Pérez|Marta Duarte|192\.0\.2\.0/);
  });
});
