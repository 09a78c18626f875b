// The balance history people read: only posted movements (top-ups, adjustments, charged queries),
// each with the balance after it, and that running balance must be the integration's balance at
// every row. Checked after a mixed workload (top-ups, adjustments, successes and failures settled
// concurrently, a crash voided by the sweeper, lookups still in flight), with the history spread
// over many hours, part of them checkpointed, walked page by page both ways and exported as CSV.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { createTestIntegration, TEST_ACTOR, type TestIntegration } from '@/tests/conformance/harness';
import { useTestDatabase, type TestDatabase } from '@/tests/support/test-database';
import { advanceBalanceCheckpoints } from './checkpoints';
import { heldInFlight, historyCsvStream, listHistoryPage, type HistoryFilters, type HistoryRow } from './history';
import { placeHold, settleHold, sweepStaleHolds, type Hold } from './holds';
import { adjustBalance, topUp } from './ledger';

let testDatabase: TestDatabase;
let integration: TestIntegration;
let inFlight: Hold[] = [];
const TARIFF = 150;

async function lookup(requestId: string, success: boolean): Promise<void> {
  const hold = await placeHold(integration.id, requestId);
  if (!hold) throw new Error('the balance covers every hold');
  await settleHold(hold, success, {
    integrationId: integration.id,
    lookup: 'omisos',
    httpStatus: success ? 200 : 502,
    responseTimeMs: 30,
    nit: '576937-K',
    cui: null,
    errorMessage: success ? null : 'source down',
    requestId,
  });
}

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  integration = await createTestIntegration('history', { tariffCentavos: TARIFF, balanceCentavos: 5_000 });
  const handle = await database();
  for (let round = 0; round < 6; round++) {
    expect((await topUp(TEST_ACTOR, integration.id, 2_000 + round, `Depósito ${round}`)).ok).toBe(true);
    await Promise.all(Array.from({ length: 8 }, (_, index) => lookup(`req_history_${round}_${index}`, index % 3 !== 0)));
    if (round % 2 === 1) expect((await adjustBalance(TEST_ACTOR, integration.id, -(round * 10 + 7), `Corrección ${round}`)).ok).toBe(true);
    // A crash: a hold nobody settles, voided by the sweeper once it is old enough.
    const orphan = await placeHold(integration.id, `req_history_orphan_${round}`);
    await handle.rows(sql`update ledger_entries set created_at = now() - interval '10 minutes' where id = ${orphan!.holdId}::bigint`);
    expect(await sweepStaleHolds(60)).toBe(1);
  }
  // Spread the history over the past two days, in its order: one hour apart per round of work.
  await handle.rows(sql`
    update ledger_entries e set created_at = e.created_at - make_interval(hours => (40 - (o.rank / 12)::integer))
      from (select id, row_number() over (order by created_at, id) as rank from ledger_entries where integration_id = ${integration.id}::integer) o
     where o.id = e.id`);
  // Checkpoints for every hour but the last few, as the job leaves them.
  await advanceBalanceCheckpoints(new Date(Date.now() - 10 * 3_600_000));
  // Two lookups still waiting for their source.
  inFlight = [(await placeHold(integration.id, 'req_history_waiting_1'))!, (await placeHold(integration.id, 'req_history_waiting_2'))!];
});

afterAll(async () => {
  await testDatabase?.cleanup();
});

async function walk(filters: HistoryFilters, direction: 'older' | 'newer'): Promise<HistoryRow[]> {
  const rows: HistoryRow[] = [];
  let page = await listHistoryPage(integration.id, filters, {}, 7);
  if (direction === 'newer') {
    while (page.older) page = await listHistoryPage(integration.id, filters, { after: page.older }, 7);
    rows.unshift(...page.rows);
    while (page.newer) {
      page = await listHistoryPage(integration.id, filters, { before: page.newer }, 7);
      rows.unshift(...page.rows);
    }
    return rows;
  }
  rows.push(...page.rows);
  while (page.older) {
    page = await listHistoryPage(integration.id, filters, { after: page.older }, 7);
    rows.push(...page.rows);
  }
  return rows;
}

async function currentBalance(): Promise<number> {
  const [row] = await (await database()).rows<{ balance: string | number }>(sql`select balance_centavos as balance from integrations where id = ${integration.id}::integer`);
  return Number(row!.balance);
}

describe('the balance history', () => {
  it('lists only money that moved, and its running balance is the balance at every row', async () => {
    const rows = await walk({}, 'older');
    expect(rows.map((row) => row.kind).filter((kind) => !['top_up', 'adjustment', 'capture'].includes(kind))).toEqual([]);
    // 1 initial top-up, 6 top-ups, 3 adjustments, 6 rounds x 8 lookups of which 2/3 succeed.
    expect(rows.filter((row) => row.kind === 'top_up')).toHaveLength(7);
    expect(rows.filter((row) => row.kind === 'adjustment')).toHaveLength(3);
    expect(rows.filter((row) => row.kind === 'capture')).toHaveLength(6 * 5);
    expect(rows.filter((row) => row.kind === 'capture').every((row) => row.amountCentavos === -TARIFF && row.queryRecordId !== null)).toBe(true);

    // Oldest first: each balance is the one before plus the movement; the first starts from zero.
    const oldestFirst = [...rows].reverse();
    let expected = 0;
    for (const row of oldestFirst) {
      expected += row.amountCentavos;
      expect(row.balanceAfterCentavos, `balance after entry ${row.id}`).toBe(expected);
    }
    // The newest balance is the integration's balance plus what the lookups in flight hold.
    const held = await heldInFlight(integration.id);
    expect(held).toEqual({ holds: 2, centavos: 2 * TARIFF });
    expect(rows[0]!.balanceAfterCentavos).toBe((await currentBalance()) + held.centavos);
  });

  it('walks the same rows back from the oldest page, and gives a filtered row the same balance', async () => {
    const newestFirst = await walk({}, 'older');
    expect((await walk({}, 'newer')).map((row) => [row.id, row.balanceAfterCentavos])).toEqual(newestFirst.map((row) => [row.id, row.balanceAfterCentavos]));
    const byId = new Map(newestFirst.map((row) => [row.id, row.balanceAfterCentavos]));
    for (const kind of ['top_up', 'adjustment', 'capture'] as const) {
      const filtered = await walk({ tipo: kind }, 'older');
      expect(filtered.length).toBeGreaterThan(0);
      expect(filtered.map((row) => [row.kind, row.balanceAfterCentavos])).toEqual(filtered.map((row) => [kind, byId.get(row.id)]));
    }
  });

  it('links each person\'s movement to its audit entry, and settles in-flight holds into the history', async () => {
    const rows = await walk({}, 'older');
    expect(rows.filter((row) => row.kind !== 'capture').every((row) => row.auditId !== null && row.auditCursor !== null)).toBe(true);
    await settleHold(inFlight[0]!, true, {
      integrationId: integration.id, lookup: 'cui_nit', httpStatus: 200, responseTimeMs: 5, nit: '7108-0', cui: null, errorMessage: null, requestId: 'req_history_waiting_1',
    });
    await settleHold(inFlight[1]!, false, {
      integrationId: integration.id, lookup: 'cui_nit', httpStatus: 404, responseTimeMs: 5, nit: '7108-0', cui: null, errorMessage: null, requestId: 'req_history_waiting_2',
    });
    const [newest] = (await listHistoryPage(integration.id, {}, {}, 1)).rows;
    expect(newest).toMatchObject({ kind: 'capture', amountCentavos: -TARIFF });
    expect(await heldInFlight(integration.id)).toEqual({ holds: 0, centavos: 0 });
    expect(newest!.balanceAfterCentavos).toBe(await currentBalance());
  });

  it('exports the same rows and balances as CSV, with amounts as numbers', async () => {
    const rows = await walk({}, 'older');
    const text = await new Response(historyCsvStream(integration.id, {}, (error) => { throw error; })).text();
    const lines = text.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe('id,fecha_utc,fecha_guatemala,movimiento,monto,saldo,moneda,nota,quien,consulta,auditoria');
    const exported = lines.slice(1).map((line) => line.split(','));
    // "quien" in words, as the page shows it: never the internal codes.
    const who = new Set(exported.map((fields) => fields[8]));
    expect([...who].filter((actor) => /^(user|system|cli):/.test(actor ?? ''))).toEqual([]);
    expect(who.has('Consulta a la API')).toBe(true);
    expect(exported.map((fields) => [Number(fields[0]), fields[5]])).toEqual(rows.map((row) => [row.id, (row.balanceAfterCentavos / 100).toFixed(2)]));
    const topUps = await new Response(historyCsvStream(integration.id, { tipo: 'top_up' }, (error) => { throw error; })).text();
    expect(topUps.trim().split('\r\n').slice(1).map((line) => Number(line.split(',')[0]))).toEqual(rows.filter((row) => row.kind === 'top_up').map((row) => row.id));
  });
});
