// The operator CLI's top-up requests (issue 34, point 3): the pending deposits integrators reported,
// approved (credited once, the bank and reference in the movement's note) or rejected with a
// reason (no money moves), in the CLI's Spanish; and `top-ups:duplicates`, the check for requests
// that share a bank reference (tests/foundation/migrations.test.ts makes some, as migration 0046 meets them).
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { db } from '@/db/client';
import { portalUsers } from '@/db/schema';
import { dayText } from '@/lib/platform/time/months';
import { reportTopUp } from '@/lib/flows/top-ups/requests';
import { depositDaysAgo, shownDay } from '../support/deposit-dates';
import { addPortalMember } from '../support/people';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';
import { cliFixture, type IntegrationJson } from './cli-fixture';

const { testDb, cli, cliJson, createIntegration } = cliFixture('cli-recargas');
const DEPOSITED = depositDaysAgo(6);

/** A deposit the integration's billing person reported in the portal. */
async function reported(integration: IntegrationJson, reference: string, amountCentavos: number): Promise<number> {
  return testDb().use(async () => {
    const email = `pagos-${reference.toLowerCase()}@example.com`;
    await addPortalMember({ id: integration.id, nombre: integration.nombre, token: '' }, email, 'facturacion');
    const [user] = await (await db()).select().from(portalUsers).where(eq(portalUsers.email, email));
    const report = await reportTopUp(
      { id: user!.id, role: 'facturacion', integrationId: integration.id, actor: { kind: 'integrator', id: user!.id, email, integrationId: integration.id, integrationName: integration.nombre } },
      { bank: 'BANRURAL', reference, depositDate: DEPOSITED, amountCentavos },
    );
    if (!report.ok) throw new Error(report.error.message);
    return report.value.id;
  });
}

describe('operator CLI: top-ups', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('lists the pending requests, approves one once with its bank and reference in the note, and rejects one only with a reason', async () => {
    const integration = await createIntegration('--balance', '10');
    const approvedId = await reported(integration, 'CLI-APROBAR', 25_000);
    const rejectedId = await reported(integration, 'CLI-RECHAZAR', 7_500);

    const list = await cli('top-ups:list');
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(`#${approvedId} ${integration.nombre} · Q 250.00 · Banrural referencia CLI-APROBAR del ${shownDay(DEPOSITED)} · Pendiente de revisión`);
    expect(list.stdout).toContain(`#${rejectedId} ${integration.nombre} · Q 75.00`);

    const approved = await cli('top-ups:approve', String(approvedId));
    expect(approved.code).toBe(0);
    expect(approved.stdout).toContain(`Solicitud #${approvedId} aprobada: Q 250.00 acreditados. Saldo de la integración: Q 260.00.`);
    const again = await cli('top-ups:approve', String(approvedId));
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('Esa solicitud de recarga ya fue resuelta.');

    const noReason = await cli('top-ups:reject', String(rejectedId));
    expect(noReason.code).toBe(2);
    expect(noReason.stderr).toContain('falta el motivo del rechazo');
    const rejected = await cli('top-ups:reject', String(rejectedId), '--motivo', 'No aparece en el estado de cuenta del banco');
    expect(rejected.code).toBe(0);
    expect(rejected.stdout).toContain(`Solicitud #${rejectedId} rechazada; la integración verá el motivo. El saldo no cambió.`);

    const shown = await cliJson<IntegrationJson>('integrations:show', String(integration.id));
    expect(shown.balanceCentavos).toBe(26_000);
    expect(shown.ledger?.find((entry) => entry.kind === 'top_up' && entry.amountCentavos === 25_000)?.note).toBe(`Depósito Banrural, referencia CLI-APROBAR, del ${dayText(DEPOSITED)}`);
    expect((await cli('top-ups:list')).stdout).toContain('No hay recargas pendientes de revisión.');
    const all = await cli('top-ups:list', '--integration', integration.nombre);
    expect(all.stdout).toContain('Acreditada');
    expect(all.stdout).toContain('Rechazada (motivo: No aparece en el estado de cuenta del banco)');
    expect((await cli('top-ups:approve', '999999')).stderr).toContain('No existe esa solicitud de recarga.');
  });

  it('checks for requests that share a bank reference: none here, so it says so and exits 0', async () => {
    const integration = await createIntegration();
    await reported(integration, 'CLI-UNICA', 1_000);
    const check = await cli('top-ups:duplicates');
    expect(check.code, check.stderr).toBe(0);
    expect(check.stdout.trim()).toBe('Ninguna solicitud de recarga comparte banco y referencia con otra.');
    expect(await cliJson('top-ups:duplicates')).toEqual([]);
  });
});
