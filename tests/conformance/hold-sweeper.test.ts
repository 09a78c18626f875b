// docs/decisions.md "Billing": a hold left by a process that died between hold and settlement is
// voided by the sweeper, once; a settlement that arrives after the sweeper moves no money. First
// at the level of lib/core/billing/holds (this process owns the database), then the built app's own
// sweeper at start (startApp, through the harness).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { OUTCOME_UNKNOWN_DETAIL, placeHold, settleHold, sweepStaleHolds, type Hold } from '@/lib/core/billing/holds';
import { explainRecordError } from '@/lib/presentation/record-errors';
import { listLatestRecords } from '@/lib/core/records/list';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';
import { createTestIntegration, eventually, readMoney, readRecords, startGateway, type Gateway } from './harness';

const TARIFF = 500;
const START_BALANCE = 2_000;
/** The app's default: the 30-second source ceiling plus a margin. */
const SWEEP_AFTER_SECONDS = 60;

let testDb: TestDatabase;

beforeAll(async () => {
  testDb = await useTestDatabase();
});

afterAll(async () => {
  await testDb?.cleanup();
});

/** Makes a hold look as old as a crash `minutes` ago would have left it. */
async function ageHold(hold: Hold, minutes: number): Promise<void> {
  const handle = await database();
  await handle.rows(sql`update ledger_entries set created_at = now() - make_interval(mins => ${minutes}) where id = ${hold.holdId}`);
}

async function placeOrFail(integrationId: number, requestId: string): Promise<Hold> {
  const hold = await placeHold(integrationId, requestId);
  if (!hold) throw new Error('placeHold refused a hold the balance covers');
  return hold;
}

describe('sweepStaleHolds (lib/core/billing/holds)', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('voids an orphaned hold once it is older than the ceiling, returns the money, and never twice', async () => {
    const integration = await createTestIntegration('sweeper-unit', { tariffCentavos: TARIFF, balanceCentavos: START_BALANCE });
    const handle = await database();
    const orphan = await placeOrFail(integration.id, 'req_orphaned_by_a_crash');
    expect(orphan.tariffCentavos).toBe(TARIFF);
    expect((await readMoney(handle, integration.id)).balanceCentavos).toBe(START_BALANCE - TARIFF);

    // A live lookup's hold is never touched.
    expect(await sweepStaleHolds(SWEEP_AFTER_SECONDS)).toBe(0);
    expect((await readMoney(handle, integration.id)).balanceCentavos).toBe(START_BALANCE - TARIFF);

    await ageHold(orphan, 2);
    expect(await sweepStaleHolds(SWEEP_AFTER_SECONDS)).toBe(1);
    const swept = await readMoney(handle, integration.id);
    expect(swept.balanceCentavos).toBe(START_BALANCE);
    expect(swept.ledgerSumCentavos).toBe(START_BALANCE);
    expect(swept.ledger.map((entry) => [entry.kind, entry.amountCentavos, entry.holdId])).toEqual([
      ['top_up', START_BALANCE, null],
      ['hold', -TARIFF, null],
      ['void', TARIFF, orphan.holdId],
    ]);
    expect(await sweepStaleHolds(SWEEP_AFTER_SECONDS)).toBe(0);

    // The lookup that "died" settles late: no money moves and its record says it was not charged.
    await settleHold(orphan, true, {
      integrationId: integration.id,
      lookup: 'cui_nit',
      httpStatus: 200,
      responseTimeMs: 65_000,
      nit: '576937K',
      cui: null,
      errorMessage: null,
      requestId: 'req_orphaned_by_a_crash',
    });
    const late = await readMoney(handle, integration.id);
    expect(late.balanceCentavos).toBe(START_BALANCE);
    expect(late.ledgerSumCentavos).toBe(START_BALANCE);
    expect(late.ledger.length).toBe(3);
    const [record] = await readRecords(handle, integration.id);
    expect(record).toMatchObject({ requestId: 'req_orphaned_by_a_crash', httpStatus: 200, chargedCentavos: 0, tariffCentavos: TARIFF });
  });

  it('records the query a hold kept the intent of, once, as "resultado desconocido, sin cobro" (issue 30, point 4)', async () => {
    const integration = await createTestIntegration('sweeper-intent', { tariffCentavos: TARIFF, balanceCentavos: START_BALANCE });
    const handle = await database();
    const requestId = 'req_killed_while_asking';
    const intent = {
      integrationId: integration.id,
      lookup: 'rtu' as const,
      httpStatus: 500,
      responseTimeMs: 0,
      nit: '576937-K',
      cui: null,
      errorMessage: OUTCOME_UNKNOWN_DETAIL,
      failure: { kind: 'outcome_unknown' as const },
      actualizado: true,
      dateOfBirthSent: true,
      requestId,
    };
    const hold = (await placeHold(integration.id, requestId, intent))!;
    // Nothing is recorded while the lookup may still settle.
    expect(await readRecords(handle, integration.id)).toEqual([]);
    await ageHold(hold, 2);
    expect(await sweepStaleHolds(SWEEP_AFTER_SECONDS)).toBe(1);
    const [record] = await readRecords(handle, integration.id);
    expect(record).toMatchObject({ requestId, httpStatus: 500, chargedCentavos: 0, tariffCentavos: TARIFF });
    const [stored] = await handle.rows<{ nit: string; failure: unknown; actualizado: boolean; date_of_birth_sent: boolean; keys: number; queued: number; voids_here: number }>(sql`
      select r.nit, r.failure, r.actualizado, r.date_of_birth_sent,
             (select count(*)::int from query_record_identifiers k where k.record_id = r.id) as keys,
             (select count(*)::int from query_rollup_queue q where q.integration_id = r.integration_id and q.http_status = 500) as queued,
             (select count(*)::int from ledger_entries v where v.kind = 'void' and v.query_record_id = r.id) as voids_here
        from query_records r where r.request_id = ${requestId}`);
    expect(stored).toMatchObject({ failure: { kind: 'outcome_unknown' }, actualizado: true, date_of_birth_sent: true, keys: 1, queued: 1, voids_here: 1 });
    expect(stored!.nit).toMatch(/^pd1:/);
    expect((await listLatestRecords({ integracion: integration.id, identificador: '576937K' }, 10)).map((found) => found.requestId)).toEqual([requestId]);
    expect(explainRecordError({ lookup: 'rtu', httpStatus: 500, errorMessage: OUTCOME_UNKNOWN_DETAIL, failure: { kind: 'outcome_unknown' } })).toContain('Resultado desconocido');
    const money = await readMoney(handle, integration.id);
    expect(money.balanceCentavos).toBe(START_BALANCE);
    expect(money.ledgerSumCentavos).toBe(START_BALANCE);

    // A settlement arriving after all writes no second record and moves no money.
    await settleHold(hold, true, { ...intent, httpStatus: 200, errorMessage: null, failure: null });
    expect(await readRecords(handle, integration.id)).toHaveLength(1);
    expect((await readMoney(handle, integration.id)).balanceCentavos).toBe(START_BALANCE);
  });

  it('leaves settled holds alone, however old', async () => {
    const integration = await createTestIntegration('sweeper-settled', { tariffCentavos: TARIFF, balanceCentavos: START_BALANCE });
    const handle = await database();
    const hold = await placeOrFail(integration.id, 'req_settled_in_time');
    await settleHold(hold, true, {
      integrationId: integration.id,
      lookup: 'omisos',
      httpStatus: 200,
      responseTimeMs: 12,
      nit: '576937K',
      cui: null,
      errorMessage: null,
      requestId: 'req_settled_in_time',
    });
    await ageHold(hold, 10);
    expect(await sweepStaleHolds(SWEEP_AFTER_SECONDS)).toBe(0);
    const money = await readMoney(handle, integration.id);
    expect(money.balanceCentavos).toBe(START_BALANCE - TARIFF);
    expect(money.ledger.map((entry) => entry.kind)).toEqual(['top_up', 'hold', 'capture']);
  });
});

describe("the app's sweeper", { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  let gateway: Gateway;
  let integrationId: number;

  beforeAll(async () => {
    const integration = await createTestIntegration('sweeper-app', { tariffCentavos: TARIFF, balanceCentavos: START_BALANCE });
    integrationId = integration.id;
    // A crash ten minutes ago left this hold behind.
    await ageHold(await placeOrFail(integration.id, 'req_left_by_a_dead_process'), 10);
    gateway = await startGateway(testDb);
  });

  afterAll(async () => {
    await gateway?.stop();
  });

  it('voids the orphaned hold after the app starts, so the balance comes back and equals the ledger', async () => {
    const money = await eventually(
      () => gateway.withDatabase((handle) => readMoney(handle, integrationId)),
      (state) => state.ledger.some((entry) => entry.kind === 'void'),
      30_000,
      'the orphaned hold voided by the app',
    );
    expect(money.balanceCentavos).toBe(START_BALANCE);
    expect(money.ledgerSumCentavos).toBe(START_BALANCE);
    expect(money.ledger.map((entry) => [entry.kind, entry.requestId])).toEqual([
      ['top_up', null],
      ['hold', 'req_left_by_a_dead_process'],
      ['void', 'req_left_by_a_dead_process'],
    ]);
  });
});
