// What the portal reads of an integration (issue 33, point 4: Movimientos, Credenciales, Estados
// de cuenta) on a real database: each read takes the integration from the session only, staff is
// never named to an integrator, a token is never more than its prefix, and another integration's
// statement id is answered exactly as one that does not exist.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '@/lib/core/audit/audit';
import { adjustBalance, topUp } from '@/lib/core/billing/ledger';
import { setAllowedNetworks } from '@/lib/flows/integration-management/service';
import { guatemalanMonthOf } from '@/lib/platform/time/guatemala-time';
import { monthPeriod } from '@/lib/flows/statements/figures';
import { issueStatement } from '@/lib/flows/statements/statements';
import { createTestIntegration, TEST_ACTOR, type TestIntegration } from '@/tests/conformance/harness';
import { portalSessionOf } from '@/tests/support/people';
import { useTestDatabase, type TestDatabase } from '@/tests/support/test-database';
import { portalCredentials } from './credentials';
import { integratorLedgerOrigin } from '@/lib/presentation/ledger-origin';
import { portalMovementsPage } from './movements';
import { portalStatement, portalStatements } from './statements';

const STAFF: Actor = { kind: 'user', id: 7, email: 'ana.staff@servicio.example' };

let testDatabase: TestDatabase;
let integrationA: TestIntegration;
let integrationB: TestIntegration;

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  integrationA = await createTestIntegration('vistas-a', { balanceCentavos: 10_000 });
  integrationB = await createTestIntegration('vistas-b', { balanceCentavos: 77_700 });
});
afterAll(async () => {
  await testDatabase.cleanup();
});

describe('Movimientos', () => {
  it('lists the session’s integration’s movements with the balance each left, staff named only as "Administración", notes kept', async () => {
    expect((await topUp(STAFF, integrationA.id, 2_500, 'Depósito de noviembre')).ok).toBe(true);
    expect((await adjustBalance({ kind: 'cli', name: 'ops' }, integrationA.id, -500, 'Corrección de cobro duplicado')).ok).toBe(true);
    expect((await topUp(STAFF, integrationB.id, 9_900, 'Depósito de B')).ok).toBe(true);

    const page = await portalMovementsPage(portalSessionOf(integrationA), {});
    expect(page.rows.map((row) => [row.kind, row.amountCentavos, row.balanceAfterCentavos, row.origin, row.note])).toEqual([
      ['adjustment', -500, 12_000, 'Administración', 'Corrección de cobro duplicado'],
      ['top_up', 2_500, 12_500, 'Administración', 'Depósito de noviembre'],
      ['top_up', 10_000, 10_000, 'Sistema', 'Saldo inicial'],
    ]);
    expect(JSON.stringify(page)).not.toContain('ana.staff');
    expect(JSON.stringify(page)).not.toContain('Depósito de B');

    const filtered = await portalMovementsPage(portalSessionOf(integrationA), { tipo: 'adjustment' });
    expect(filtered.rows.map((row) => row.amountCentavos)).toEqual([-500]);
  });

  it('says who moved money without naming staff', () => {
    expect(integratorLedgerOrigin('user:3 ana@example.com')).toBe('Administración');
    expect(integratorLedgerOrigin('cli:ops')).toBe('Administración');
    expect(integratorLedgerOrigin('cli')).toBe('Administración');
    expect(integratorLedgerOrigin('system:lookup')).toBe('Consulta a la API');
    expect(integratorLedgerOrigin('system:sweeper')).toBe('Liberación automática de reservas');
    expect(integratorLedgerOrigin('system:test')).toBe('Sistema');
    expect(integratorLedgerOrigin('someone@else.example')).toBe('Administración');
  });
});

describe('Credenciales', () => {
  it('lists the session’s integration’s tokens by prefix (never the secret nor its hash) and its allow-list', async () => {
    expect((await setAllowedNetworks(TEST_ACTOR, integrationA.id, ['192.0.2.0/24'])).ok).toBe(true);
    expect((await setAllowedNetworks(TEST_ACTOR, integrationB.id, ['198.51.100.7'])).ok).toBe(true);
    const credentials = await portalCredentials(portalSessionOf(integrationA, 'desarrollador'));
    expect(credentials.allowedNetworks).toEqual(['192.0.2.0/24']);
    expect(credentials.tokens).toHaveLength(1);
    const [token] = credentials.tokens;
    expect(token).toMatchObject({ label: 'Principal', state: 'active', lastUsedAt: null, expiresAt: null });
    expect(integrationA.token.startsWith(token!.tokenPrefix)).toBe(true);
    expect(token!.tokenPrefix.length).toBeLessThan(integrationA.token.length);
    expect(Object.keys(token!).sort()).toEqual(['createdAt', 'expiresAt', 'id', 'label', 'lastUsedAt', 'replacedById', 'revokedAt', 'state', 'tokenPrefix']);
    expect(JSON.stringify(credentials)).not.toContain(integrationA.token);
    expect(JSON.stringify(credentials)).not.toContain(integrationB.token.slice(0, 10));
  });
});

describe('Estados de cuenta', () => {
  it('lists the session’s integration’s statements; another integration’s id is answered as an unknown one', async () => {
    // The running month, issued as if it had ended: a statement needs a closed month.
    const month = guatemalanMonthOf(new Date());
    const afterMonth = new Date(monthPeriod(month).until.getTime() + 86_400_000);
    const issuedA = await issueStatement(TEST_ACTOR, integrationA.id, month, afterMonth);
    const issuedB = await issueStatement(TEST_ACTOR, integrationB.id, month, afterMonth);
    if (!issuedA.ok || !issuedB.ok) throw new Error('the statements were not issued');

    const ownerA = portalSessionOf(integrationA, 'facturacion');
    expect(await portalStatements(ownerA)).toEqual([
      expect.objectContaining({ id: issuedA.value.id, number: 1, month, closingBalanceCentavos: 12_000, chargedCount: 0 }),
    ]);
    expect((await portalStatement(ownerA, String(issuedA.value.id)))?.id).toBe(issuedA.value.id);
    for (const id of [String(issuedB.value.id), '2000000000', '0', '-1', '1e3', 'abc', `${issuedA.value.id}.0`, '9'.repeat(12)]) {
      expect(await portalStatement(ownerA, id), id).toBeUndefined();
    }
    expect((await portalStatement(portalSessionOf(integrationB), String(issuedB.value.id)))?.figures.closingBalanceCentavos).toBe(87_600);
  });
});
