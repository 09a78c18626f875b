// "Actividad", an owner's log of the integration (issue 51, point 19) on a real database, without
// HTTP: tokens rotated and revoked, identifiers revealed (which query, never the NIT), results
// downloaded, team changes, settings, by its people by name and by staff as "Administración";
// another integration's entries never appear; pages chain by cursor; each log is read by index.
import { sql, type SQLWrapper } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db, type Database } from '@/db/client';
import type { Actor } from '@/lib/core/audit/audit';
import { describeActor } from '@/lib/core/audit/audit';
import { revokeToken, rotateToken, listTokens } from '@/lib/flows/integration-management/tokens';
import { setAllowedNetworks } from '@/lib/flows/integration-management/service';
import { writeAccessEntry } from '@/lib/core/personal-data/access-log';
import { createTestIntegration, type TestIntegration } from '@/tests/conformance/harness';
import { addPortalMember } from '@/tests/support/people';
import { settledCatalogQuery } from '@/tests/support/query-records';
import { useTestDatabase, type TestDatabase } from '@/tests/support/test-database';
import { findPortalAccountByEmail, integratorActor } from '@/lib/flows/portal-identity/accounts';
import { accessActivityQuery, integrationActivityQuery, memberActivityQuery, portalActivityPage, type ActivityEntry } from './activity';
import { revealPortalRecordIdentifiers } from './records';
import type { PortalUserSession } from './session';
import { setMemberRole } from '@/lib/flows/portal-identity/team';

const NIT = '576937-K';
const STAFF: Actor = { kind: 'user', id: 7, email: 'ana.staff@servicio.example' };

let testDatabase: TestDatabase;
let integrationA: TestIntegration;
let integrationB: TestIntegration;
let ownerA: PortalUserSession;
let developerA: PortalUserSession;
let ownerB: PortalUserSession;

async function member(integration: TestIntegration, email: string, role: 'propietario' | 'desarrollador', name: string): Promise<PortalUserSession> {
  await addPortalMember(integration, email, role, name);
  const account = (await findPortalAccountByEmail(email))!;
  return {
    id: account.id,
    email: account.email,
    name: account.name,
    role: account.role,
    integrationId: account.integrationId,
    integrationName: account.integrationName,
    actor: integratorActor(account),
    pendingStep: null,
    sessionPublicId: 'x',
    origin: 'local',
  };
}

async function everyPage(user: PortalUserSession, pageSize: number): Promise<ActivityEntry[]> {
  const rows: ActivityEntry[] = [];
  let despues: string | undefined;
  for (let pages = 0; pages < 50; pages++) {
    const page = await portalActivityPage(user, despues ? { despues } : {}, pageSize);
    rows.push(...page.rows);
    if (!page.older) return rows;
    despues = page.older;
  }
  throw new Error('the pages never ended');
}

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  integrationA = await createTestIntegration('actividad-a', { balanceCentavos: 10_000 });
  integrationB = await createTestIntegration('actividad-b', { balanceCentavos: 10_000 });
  ownerA = await member(integrationA, 'duena@actividad-a.example', 'propietario', 'Marta Duarte');
  developerA = await member(integrationA, 'dev@actividad-a.example', 'desarrollador', 'Luis Pérez');
  ownerB = await member(integrationB, 'duena@actividad-b.example', 'propietario', 'Otra Dueña');
  await settledCatalogQuery(integrationA, 'req_act_a', { status: 200, nit: NIT });
  await settledCatalogQuery(integrationB, 'req_act_b', { status: 200, nit: NIT });

  // A's people and staff act on A; B's owner acts on B meanwhile.
  expect((await rotateToken(developerA.actor, integrationA.id, { overlap: '24h' })).ok).toBe(true);
  expect((await rotateToken(ownerB.actor, integrationB.id)).ok).toBe(true);
  expect(await revealPortalRecordIdentifiers(developerA, 'req_act_a', 'Conciliar la factura 88')).toMatchObject({ nit: NIT });
  expect(await revealPortalRecordIdentifiers(ownerB, 'req_act_b', 'Motivo de B')).toMatchObject({ nit: NIT });
  await writeAccessEntry({ actor: describeActor(developerA.actor), kind: 'export', reason: 'Carga mensual', details: { lote: 'lote_a1', rows: 3 } });
  await writeAccessEntry({ actor: describeActor(ownerB.actor), kind: 'export', reason: 'Carga de B', details: { lote: 'lote_b1', rows: 9 } });
  expect((await setMemberRole(ownerA, developerA.id, 'facturacion')).ok).toBe(true);
  expect((await setAllowedNetworks(STAFF, integrationA.id, ['192.0.2.0/24'])).ok).toBe(true);
  const previous = (await listTokens(integrationA.id)).find((token) => token.state !== 'active' || token.expiresAt);
  expect((await revokeToken(STAFF, integrationA.id, previous!.id)).ok).toBe(true);
});
afterAll(async () => {
  await testDatabase.cleanup();
});

describe('the activity of an integration', () => {
  it('lists what its people and staff did to it, newest first, staff as "Administración", which query was revealed but never the NIT', async () => {
    const page = await portalActivityPage(ownerA, {});
    const lines = page.rows.map((row) => [row.who, row.what]);
    expect(lines.slice(0, 6)).toEqual([
      ['Administración', 'Revocó un token'],
      ['Administración', 'Cambió las direcciones IP permitidas'],
      ['Marta Duarte (duena@actividad-a.example)', 'Cambió el rol en el portal'],
      ['Luis Pérez (dev@actividad-a.example)', 'Descargó los resultados de un lote (con identificadores)'],
      ['Luis Pérez (dev@actividad-a.example)', 'Mostró los identificadores de una consulta'],
      ['Luis Pérez (dev@actividad-a.example)', 'Rotó el token'],
    ]);
    const [revoked, networks, role, download, reveal] = page.rows;
    expect(revoked!.detail).toContain('Revocado: no →');
    expect(networks!.detail).toBe('Direcciones IP permitidas: cualquier dirección (sin lista) → 192.0.2.0/24');
    expect(role!.detail).toBe('Rol: Desarrollador → Facturación');
    expect(download!.detail).toBe('Lote lote_a1; 3 filas; Motivo: Carga mensual');
    expect(download!.link).toEqual({ href: '/portal/lotes/lote_a1', label: 'Lote lote_a1' });
    expect(reveal!.detail).toBe('Consulta req_act_a; Motivo: Conciliar la factura 88');
    expect(reveal!.link?.href).toBe('/portal/consultas/req_act_a');
    // Invitations accepted by its people are there too, older; sign-ins are not.
    expect(lines).toContainEqual(['Luis Pérez (dev@actividad-a.example)', 'Aceptó la invitación al portal']);
    expect(page.rows.every((row) => row.at instanceof Date)).toBe(true);

    const text = JSON.stringify(page);
    expect(text).not.toContain('576937');
    expect(text).not.toContain('ana.staff');
    expect(text).not.toMatch(/actividad-b|req_act_b|lote_b1|Motivo de B|Otra Dueña/);
  });

  it('shows the other integration only its own entries', async () => {
    const page = await portalActivityPage(ownerB, {});
    const text = JSON.stringify(page);
    expect(text).toContain('req_act_b');
    expect(text).not.toMatch(/actividad-a|req_act_a|lote_a1|Luis Pérez|Marta Duarte|192\.0\.2/);
  });

  it('pages by cursor: every entry once, in order, whatever the page size', async () => {
    const whole = (await portalActivityPage(ownerA, {}, 500)).rows;
    expect(whole.length).toBeGreaterThan(6);
    for (const size of [1, 2, 3]) expect((await everyPage(ownerA, size)).map((row) => row.key)).toEqual(whole.map((row) => row.key));
    // A cursor that is not one of ours is the first page, not an error.
    expect((await portalActivityPage(ownerA, { despues: 'no-es-un-cursor' }, 500)).rows.map((row) => row.key)).toEqual(whole.map((row) => row.key));
  });
});

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

async function planOf(query: SQLWrapper): Promise<PlanNode[]> {
  const document = await (await db()).transaction(async (tx) => {
    await tx.execute(sql`set local enable_sort = off`);
    await tx.execute(sql`set local enable_seqscan = off`);
    const result = (await tx.execute(sql`explain (format json) ${query}`)) as unknown;
    const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Array<Record<string, unknown>>;
    return Object.values(rows[0]!)[0];
  });
  const parsed = (typeof document === 'string' ? JSON.parse(document) : document) as Array<{ Plan: PlanNode }>;
  const nodes = (plan: PlanNode): PlanNode[] => [plan, ...(plan.Plans ?? []).flatMap(nodes)];
  return nodes(parsed[0]!.Plan);
}

describe('each log is read in index order', () => {
  const CURSOR = { createdAt: '2026-11-20T12:00:00.123456Z', id: 1_000 };
  for (const [name, query, index] of [
    ['the integration’s audit rows', (database: Database, cursor?: typeof CURSOR) => integrationActivityQuery(database, 3, cursor, 51), 'audit_log_target_idx'],
    ['a member’s audit rows', (database: Database, cursor?: typeof CURSOR) => memberActivityQuery(database, 4, cursor, 51), 'audit_log_target_idx'],
    ['its people’s accesses to personal data', (database: Database, cursor?: typeof CURSOR) => accessActivityQuery(database, 3, cursor, 51), 'personal_data_access_integrator_idx'],
  ] as const) {
    it(name, async () => {
      for (const cursor of [undefined, CURSOR]) {
        const plan = await planOf(query(await db(), cursor));
        expect(plan.filter((node) => node['Node Type'].includes('Sort')).map((node) => node['Node Type'])).toEqual([]);
        expect(plan.map((node) => node['Index Name']).filter(Boolean)).toContain(index);
      }
    });
  }
});
