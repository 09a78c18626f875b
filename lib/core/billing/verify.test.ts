// The reconciliation finds nothing after a clean mixed workload (concurrent lookups, sweeper
// voids, top-ups, adjustments), finds each kind of difference when one is made by hand, reports
// it for the right integration, and never changes money itself.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { createTestIntegration, TEST_ACTOR, type TestIntegration } from '@/tests/conformance/harness';
import { useTestDatabase, type TestDatabase } from '@/tests/support/test-database';
import { advanceBalanceCheckpoints } from './checkpoints';
import { placeHold, settleHold, sweepStaleHolds } from './holds';
import { adjustBalance, topUp } from './ledger';
import { latestVerification, verifyLedger, type LedgerDifference } from './verify';

let testDatabase: TestDatabase;
let clean: TestIntegration;
let tampered: TestIntegration;

async function lookup(owner: TestIntegration, requestId: string, success: boolean): Promise<void> {
  const hold = await placeHold(owner.id, requestId);
  if (!hold) throw new Error('the balance covers the hold');
  await settleHold(hold, success, {
    integrationId: owner.id, lookup: 'rtu', httpStatus: success ? 200 : 404, responseTimeMs: 25, nit: '7108-0', cui: null, errorMessage: null, requestId,
  });
}

async function workload(owner: TestIntegration): Promise<void> {
  await Promise.all(Array.from({ length: 12 }, (_, index) => lookup(owner, `req_${owner.nombre}_${index}`, index % 4 !== 0)));
  expect((await topUp(TEST_ACTOR, owner.id, 1_000, 'Depósito')).ok).toBe(true);
  expect((await adjustBalance(TEST_ACTOR, owner.id, -30, 'Corrección')).ok).toBe(true);
  const orphan = await placeHold(owner.id, `req_${owner.nombre}_orphan`);
  await (await database()).rows(sql`update ledger_entries set created_at = now() - interval '5 minutes' where id = ${orphan!.holdId}::bigint`);
  await sweepStaleHolds(60);
}

const verify = (integrationId?: number) => verifyLedger({ integrationId, trigger: 'cli', sweepAfterSeconds: 60 });
const kinds = (differences: unknown) => (differences as LedgerDifference[]).map((difference) => [difference.integrationId, difference.kind, difference.count]);

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  clean = await createTestIntegration('verify-clean', { tariffCentavos: 120, balanceCentavos: 5_000 });
  tampered = await createTestIntegration('verify-tampered', { tariffCentavos: 120, balanceCentavos: 5_000 });
  await Promise.all([workload(clean), workload(tampered)]);
  await advanceBalanceCheckpoints(new Date(Date.now() + 3 * 3_600_000));
});

afterAll(async () => {
  await testDatabase?.cleanup();
});

describe('ledger:verify', () => {
  it('finds nothing after a clean workload, and records the run', async () => {
    const run = await verify();
    expect(kinds(run.differences)).toEqual([]);
    expect(run).toMatchObject({ ok: true, scope: 'all', integrationsChecked: 2 });
    // What the CLI reports as "N movimientos": every ledger entry it read (one integration's too).
    const [entries] = await (await database()).rows<{ count: string | number }>(sql`select count(*) as count from ledger_entries`);
    expect(run.entriesChecked).toBe(Number(entries!.count));
    const [ofClean] = await (await database()).rows<{ count: string | number }>(sql`select count(*) as count from ledger_entries where integration_id = ${clean.id}::integer`);
    expect((await verify(clean.id)).entriesChecked).toBe(Number(ofClean!.count));
    expect((await latestVerification())?.id).toBe(run.id);
  });

  it('finds each kind of difference, for the integration it concerns, and moves no money', async () => {
    const handle = await database();
    const id = sql`${tampered.id}::integer`;
    // A balance changed behind the ledger's back.
    await handle.rows(sql`update integrations set balance_centavos = balance_centavos + 7 where id = ${id}`);
    // A charged record whose capture disappeared, and another whose amount differs.
    const [first, second] = await handle.rows<{ id: string | number }>(sql`
      select id from ledger_entries where integration_id = ${id} and kind = 'capture' order by id limit 2`);
    await handle.rows(sql`update ledger_entries set kind = 'void', posted_centavos = 0 where id = ${first!.id}::bigint`);
    await handle.rows(sql`update ledger_entries set posted_centavos = -99 where id = ${second!.id}::bigint`);
    // A hold older than the sweeper's bound that nobody settled (and the sweeper did not see).
    await handle.rows(sql`
      insert into ledger_entries (integration_id, kind, amount_centavos, posted_centavos, actor, request_id, created_at)
      values (${id}, 'hold', -120, 0, 'system:lookup', 'req_forgotten', now() - interval '1 hour')`);
    const balanceBefore = await handle.rows(sql`select balance_centavos from integrations order by id`);

    const run = await verify();
    expect(run.ok).toBe(false);
    expect(kinds(run.differences)).toEqual(
      expect.arrayContaining([
        [tampered.id, 'balance_differs_from_ledger', 1],
        [tampered.id, 'posted_differs_from_balance', 1],
        [tampered.id, 'capture_amount_differs', 1],
        [tampered.id, 'charged_record_without_capture', 1],
        [tampered.id, 'stale_hold', 1],
        // Both changed captures fall in the same hour.
        [tampered.id, 'checkpoint_differs', 1],
      ]),
    );
    expect((run.differences as LedgerDifference[]).every((difference) => difference.integrationId === tampered.id)).toBe(true);
    expect(await handle.rows(sql`select balance_centavos from integrations order by id`)).toEqual(balanceBefore);

    // One integration at a time: the clean one is clean.
    expect((await verify(clean.id)).ok).toBe(true);
    expect((await verify(tampered.id)).differences).toHaveLength((run.differences as unknown[]).length);
  });

  it('finds a record charged twice and a capture whose record is gone', async () => {
    const handle = await database();
    const other = await createTestIntegration('verify-twice', { tariffCentavos: 100, balanceCentavos: 1_000 });
    await lookup(other, 'req_twice', true);
    const [capture] = await handle.rows<{ query_record_id: string | number; hold_id: string | number }>(sql`
      select query_record_id, hold_id from ledger_entries where integration_id = ${other.id}::integer and kind = 'capture'`);
    const [extraHold] = await handle.rows<{ id: string | number }>(sql`
      insert into ledger_entries (integration_id, kind, amount_centavos, posted_centavos, actor, request_id)
      values (${other.id}::integer, 'hold', -100, 0, 'system:lookup', 'req_twice_again') returning id`);
    await handle.rows(sql`
      insert into ledger_entries (integration_id, kind, amount_centavos, posted_centavos, actor, hold_id, request_id, query_record_id)
      values (${other.id}::integer, 'capture', 0, -100, 'system:lookup', ${extraHold!.id}::bigint, 'req_twice_again', ${capture!.query_record_id}::bigint)`);
    await handle.rows(sql`update integrations set balance_centavos = balance_centavos - 100 where id = ${other.id}::integer`);
    await handle.rows(sql`delete from query_record_identifiers where record_id in (select id from query_records where request_id = 'req_twice')`);
    const run = await verify(other.id);
    expect(kinds(run.differences)).toEqual(expect.arrayContaining([[other.id, 'record_captured_twice', 1]]));

    await handle.rows(sql`delete from query_records where request_id = 'req_twice'`);
    expect(kinds((await verify(other.id)).differences)).toEqual(expect.arrayContaining([[other.id, 'capture_without_record', 2]]));
  });
});
