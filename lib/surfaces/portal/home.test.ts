// Inicio (issue 33, point 4) on a real database: each role reads only its parts, of its own
// integration only; the months' spending comes from the ledger (last month's and this month's
// charges, not the top-ups or adjustments), the use from the rollups, the per-minute limits from
// the limiter's own counters, and the sources from the public status. B's figures are distinctive
// (another tariff, other lookups, more of everything) so any of them in A's Inicio would show.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import type { LookupKind } from '@/db/schema';
import { advanceBalanceCheckpoints } from '@/lib/core/billing/checkpoints';
import { placeHold, settleHold } from '@/lib/core/billing/holds';
import { adjustBalance, topUp } from '@/lib/core/billing/ledger';
import { guatemalanMonthOf } from '@/lib/platform/time/guatemala-time';
import { consumeIntegrationLimit } from '@/lib/core/limits/limits';
import { ensureRecordMonths } from '@/lib/core/records/partitions';
import { recordUnbilledQuery } from '@/lib/core/records/write';
import { rollUpQueuedRecords } from '@/lib/core/rollups/job';
import { countRefusal, flushRefusals } from '@/lib/core/rollups/refusals';
import { monthPeriod } from '@/lib/flows/statements/figures';
import { previousMonth } from '@/lib/flows/statements/monthly';
import { publicStatus } from '@/lib/reactions/status-page/status';
import { createTestIntegration, TEST_ACTOR, type TestIntegration } from '@/tests/conformance/harness';
import { portalSessionOf } from '@/tests/support/people';
import { useTestDatabase, type TestDatabase } from '@/tests/support/test-database';
import { portalHome } from './home';

let testDatabase: TestDatabase;
let integrationA: TestIntegration;
let integrationB: TestIntegration;
let integrationShort: TestIntegration;
let requestNumber = 0;

/** A catalog lookup through the ledger as the pipeline makes it: hold, then capture (found) or void. */
async function catalogLookup(integration: TestIntegration, lookup: LookupKind, httpStatus: number): Promise<void> {
  const requestId = `req_inicio_${++requestNumber}`;
  const hold = await placeHold(integration.id, requestId);
  if (!hold) throw new Error('the balance covers the hold');
  await settleHold(hold, httpStatus === 200, { integrationId: integration.id, lookup, httpStatus, responseTimeMs: 40, nit: '576937-K', cui: null, errorMessage: null, requestId });
}

async function renapLookup(integration: TestIntegration): Promise<void> {
  await recordUnbilledQuery({ integrationId: integration.id, lookup: 'renap', httpStatus: 200, responseTimeMs: 30, nit: null, cui: '1234567890101', errorMessage: null, requestId: `req_inicio_${++requestNumber}` });
}

/** Moves everything the integration has in the ledger and the rollups' queue to the fifth day of last month. */
async function intoLastMonth(integration: TestIntegration, now: Date): Promise<void> {
  const target = monthPeriod(previousMonth(now)).from.getTime() + 5 * 86_400_000;
  await ensureRecordMonths({ from: new Date(target) });
  const shift = sql`make_interval(secs => ${Math.ceil((now.getTime() - target) / 1000)}::integer)`;
  const handle = await database();
  await handle.rows(sql`update ledger_entries set created_at = created_at - ${shift} where integration_id = ${integration.id}::integer`);
  await handle.rows(sql`update query_records set created_at = created_at - ${shift} where integration_id = ${integration.id}::integer`);
  await handle.rows(sql`update query_rollup_queue set created_at = created_at - ${shift} where integration_id = ${integration.id}::integer`);
}

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  integrationA = await createTestIntegration('inicio-a', { tariffCentavos: 150, balanceCentavos: 10_000, flags: { isRtuEnabled: false } });
  integrationB = await createTestIntegration('inicio-b', { tariffCentavos: 700, balanceCentavos: 90_000 });
  integrationShort = await createTestIntegration('inicio-sin-saldo', { tariffCentavos: 500, balanceCentavos: 100 });
  const now = new Date();

  // Last month: A is charged twice and adjusted down; B once.
  await catalogLookup(integrationA, 'cui_nit', 200);
  await catalogLookup(integrationA, 'cui_nit', 200);
  expect((await adjustBalance(TEST_ACTOR, integrationA.id, -500, 'Corrección')).ok).toBe(true);
  await catalogLookup(integrationB, 'rtu', 200);
  await intoLastMonth(integrationA, now);
  await intoLastMonth(integrationB, now);

  // This month: A three charges, a 502 (voided) and two person-registry lookups, and a top-up; B
  // four charges of its own tariff on another catalog.
  for (let index = 0; index < 3; index++) await catalogLookup(integrationA, 'cui_nit', 200);
  await catalogLookup(integrationA, 'omisos', 502);
  await renapLookup(integrationA);
  await renapLookup(integrationA);
  expect((await topUp(TEST_ACTOR, integrationA.id, 2_500, 'Depósito')).ok).toBe(true);
  for (let index = 0; index < 4; index++) await catalogLookup(integrationB, 'rtu', 200);
  await rollUpQueuedRecords();
  // The hourly checkpoints as the job keeps them, so the months' balances are read from them.
  await advanceBalanceCheckpoints(now);

  // Refusals as the pipeline counts them.
  for (let index = 0; index < 7; index++) countRefusal({ integrationId: integrationA.id, lookup: 'cui_nit', reason: 'rate_limited', requestId: `req_limite_${index}` });
  countRefusal({ integrationId: integrationA.id, lookup: 'omisos', reason: 'balance_exhausted', requestId: 'req_sin_saldo' });
  for (let index = 0; index < 11; index++) countRefusal({ integrationId: integrationB.id, lookup: 'cui_nit', reason: 'rate_limited', requestId: `req_limite_b_${index}` });
  await flushRefusals();
});
afterAll(async () => {
  await testDatabase.cleanup();
});

describe('Inicio', () => {
  it('shows an owner its balance and what this month and the last cost, from the ledger: charges only, not B’s', async () => {
    const home = await portalHome(portalSessionOf(integrationA, 'propietario'));
    const now = new Date();
    // 10,000 − 2 × 150 − 500 − 3 × 150 + 2,500
    expect(home.balance).toMatchObject({ balanceCentavos: 11_250, lookupsLeft: 75 });
    expect(home.money).toMatchObject({
      tariffCentavos: 150,
      currentMonth: { month: guatemalanMonthOf(now), spentCentavos: 450 },
      previousMonth: { month: previousMonth(now), spentCentavos: 300 },
    });
    const homeB = await portalHome(portalSessionOf(integrationB, 'facturacion'));
    expect(homeB.balance).toMatchObject({ balanceCentavos: 86_500 });
    expect(homeB.money).toMatchObject({ currentMonth: { spentCentavos: 2_800 }, previousMonth: { spentCentavos: 700 } });
  });

  it('shows an owner its use per day and per lookup over 30 days from the rollups, today’s use against each limit, and none of B’s', async () => {
    // The per-minute limits as the lookups spend them, in the window open now.
    for (let index = 0; index < 3; index++) await consumeIntegrationLimit('catalogs', integrationA.nombre);
    await consumeIntegrationLimit('renap', integrationA.nombre);
    for (let index = 0; index < 9; index++) await consumeIntegrationLimit('catalogs', integrationB.nombre);
    const { usage } = await portalHome(portalSessionOf(integrationA, 'propietario'));
    const today = usage!.dashboard.series.at(-1)!;
    expect(usage!.dashboard.series).toHaveLength(30);
    expect(today.byLookup).toEqual({ renap: 2, rtu_nits: 0, cui_nit: 3, rtu: 0, omisos: 1 });
    expect(usage!.dashboard.lookups.find((entry) => entry.lookup === 'rtu')).toMatchObject({ total: 0, chargedCentavos: 0 });
    // RTU por NIT is not enabled for A: no limit of it is listed.
    expect(usage!.limits).toEqual([
      { route: 'renap', lookups: ['renap'], perMinute: 30, usedThisMinute: 1, queriesToday: 2, refusedToday: 0 },
      { route: 'catalogs', lookups: ['cui_nit', 'rtu', 'omisos'], perMinute: 30, usedThisMinute: 3, queriesToday: 4, refusedToday: 7 },
    ]);
    const usageB = (await portalHome(portalSessionOf(integrationB, 'desarrollador'))).usage!;
    expect(usageB.limits.find((limit) => limit.route === 'catalogs')).toMatchObject({ usedThisMinute: 9, queriesToday: 4, refusedToday: 11 });
  });

  it('gives billing the money but not the use, and a developer the use and the balance but not the spending or the tariff', async () => {
    const billing = await portalHome(portalSessionOf(integrationA, 'facturacion'));
    expect(billing.money).not.toBeNull();
    expect(billing.usage).toBeNull();
    const developer = await portalHome(portalSessionOf(integrationA, 'desarrollador'));
    expect(developer.money).toBeNull();
    expect(developer.balance).toMatchObject({ balanceCentavos: 11_250 });
    expect(developer.usage?.limits).toHaveLength(2);
  });

  it('tells every role, without amounts, when the balance no longer pays a catalog lookup', async () => {
    expect((await portalHome(portalSessionOf(integrationShort, 'desarrollador'))).catalogsNeedBalance).toBe(true);
    expect((await portalHome(portalSessionOf(integrationA, 'desarrollador'))).catalogsNeedBalance).toBe(false);
  });

  it('shows the sources’ state as the public status page says it', async () => {
    const status = (await publicStatus())!;
    const { sources } = await portalHome(portalSessionOf(integrationA, 'facturacion'));
    expect(sources).toEqual({
      estado: status.resumen.estado,
      texto: status.resumen.texto,
      fuentes: status.fuentes.map((source) => ({ nombre: source.nombre, estado: source.estado })),
    });
    expect(sources!.fuentes).toHaveLength(3);
  });
});
