// Query records and their search keys are partitioned by month: each month a partition of its own,
// the months ahead ready before they start, a request id recorded once across months, a whole month
// dropped at once, and the statements' plans reading only the months they cover.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { placeHold, settleHold, sweepStaleHolds } from '@/lib/core/billing/holds';
import { recordUnbilledQuery } from '@/lib/core/records/write';
import { RecordJournal, recordUnbilledOrKeep, type JournalEntry } from '@/lib/core/record-journal';
import { JournalFile } from '@/lib/core/record-journal/journal';
import { chargesByTariff, monthPeriod } from '@/lib/flows/statements/figures';
import { createTestIntegration, type TestIntegration } from '@/tests/conformance/harness';
import { useTestDatabase, type TestDatabase } from '@/tests/support/test-database';
import { dropRecordMonthsBefore, ensureRecordMonths, MONTHS_AHEAD, monthStart, recordMonths } from './partitions';

let testDatabase: TestDatabase;
let integration: TestIntegration;

const monthName = (at: Date) => at.toISOString().slice(0, 7).replace('-', '_');
const monthsAfter = (at: Date, months: number) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + months, 1));

async function partitionsOf(table: string): Promise<Array<{ name: string; bound: string }>> {
  return (await database()).rows<{ name: string; bound: string }>(sql`
    select c.relname as name, pg_get_expr(c.relpartbound, c.oid) as bound
      from pg_inherits i join pg_class c on c.oid = i.inhrelid
     where i.inhparent = ${table}::regclass order by c.relname`);
}

async function recordsOf(requestId: string): Promise<Array<{ partition: string }>> {
  return (await database()).rows<{ partition: string }>(sql`select tableoid::regclass::text as partition from query_records where request_id = ${requestId}::text`);
}

const record = (requestId: string) => ({
  integrationId: integration.id,
  lookup: 'renap' as const,
  httpStatus: 200,
  responseTimeMs: 12,
  nit: null,
  cui: '1587 56444 0904',
  errorMessage: null,
  requestId,
});

let directory: string;

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  integration = await createTestIntegration('partitions', { tariffCentavos: 150, balanceCentavos: 10_000 });
  directory = fs.mkdtempSync(path.join(os.tmpdir(), 'partitions-journal-'));
});

afterAll(async () => {
  fs.rmSync(directory, { recursive: true, force: true });
  await testDatabase?.cleanup();
});

/** Replays `entries` as a journal would after the replies of their first writes never came. */
async function replayed(...entries: JournalEntry[]): Promise<number> {
  const file = new JournalFile<JournalEntry>(path.join(directory, `${entries.length}-${Date.now()}.jsonl`));
  await file.open();
  try {
    const journal = new RecordJournal(file);
    for (const entry of entries) await journal.keep(entry);
    return await journal.replay();
  } finally {
    await file.close();
  }
}

/** Makes a hold five minutes old, so the sweeper (after a minute) gives it back. */
async function swept(holdId: number): Promise<number> {
  await (await database()).rows(sql`update ledger_entries set created_at = now() - interval '5 minutes' where id = ${holdId}::bigint`);
  return sweepStaleHolds(60);
}

/** Moves a request's record (and its search keys) to the last instant of the previous month. */
async function movedToPreviousMonth(requestId: string): Promise<string> {
  const previous = monthsAfter(monthStart(new Date()), -1);
  await ensureRecordMonths({ from: previous });
  const lastInstant = new Date(monthStart(new Date()).getTime() - 1).toISOString();
  const handle = await database();
  await handle.rows(sql`update query_record_identifiers set created_at = ${lastInstant}::timestamptz
                         where record_id in (select id from query_records where request_id = ${requestId}::text)`);
  await handle.rows(sql`update query_records set created_at = ${lastInstant}::timestamptz where request_id = ${requestId}::text`);
  return `query_records_${monthName(previous)}`;
}

describe('query records partitioned by month', () => {
  it('are range partitions on created_at, one per month for both tables, with no default partition', async () => {
    const handle = await database();
    const [parent] = await handle.rows<{ key: string }>(sql`select pg_get_partkeydef('query_records'::regclass) as key`);
    expect(parent?.key).toBe('RANGE (created_at)');
    const [identifiers] = await handle.rows<{ key: string }>(sql`select pg_get_partkeydef('query_record_identifiers'::regclass) as key`);
    expect(identifiers?.key).toBe('RANGE (created_at)');
    const records = await partitionsOf('query_records');
    expect(records.some((partition) => partition.bound === 'DEFAULT')).toBe(false);
    const thisMonth = monthStart(new Date());
    const current = records.find((partition) => partition.name === `query_records_${monthName(thisMonth)}`);
    expect(current?.bound).toMatch(/^FOR VALUES FROM \('.+'\) TO \('.+'\)$/);
    const searchKeys = await partitionsOf('query_record_identifiers');
    expect(searchKeys.map((partition) => partition.name.replace('query_record_identifiers_', ''))).toEqual(records.map((partition) => partition.name.replace('query_records_', '')));
  });

  it(`are only the current month and ${MONTHS_AHEAD} ahead in a new database: a month more is a table more for every query`, async () => {
    const thisMonth = monthStart(new Date());
    const expected = Array.from({ length: MONTHS_AHEAD + 1 }, (_, ahead) => monthName(monthsAfter(thisMonth, ahead)));
    expect((await recordMonths()).map((month) => monthName(month.month))).toEqual(expected);
  });

  it(`have the current month and ${MONTHS_AHEAD} months ahead, and add what is missing`, async () => {
    const thisMonth = monthStart(new Date());
    const names = (await recordMonths()).map((month) => monthName(month.month));
    for (let ahead = 0; ahead <= MONTHS_AHEAD; ahead++) expect(names).toContain(monthName(monthsAfter(thisMonth, ahead)));
    expect(await ensureRecordMonths()).toBe(0);
    const far = monthsAfter(thisMonth, MONTHS_AHEAD + 2);
    expect(await ensureRecordMonths({ from: far, to: far })).toBe(1);
    expect((await recordMonths()).map((month) => monthName(month.month))).toContain(monthName(far));
  });

  it('write a record in its month, once per request id, and once across a month boundary', async () => {
    await recordUnbilledQuery(record('req_partition_once'));
    await recordUnbilledQuery(record('req_partition_once'));
    expect(await recordsOf('req_partition_once')).toEqual([{ partition: `query_records_${monthName(new Date())}` }]);
    // Written just before the month ended, its reply lost, written again from the journal after.
    await recordUnbilledQuery(record('req_partition_boundary'));
    const previous = await movedToPreviousMonth('req_partition_boundary');
    expect(await replayed({ kind: 'unbilled', record: record('req_partition_boundary') })).toBe(1);
    expect(await recordsOf('req_partition_boundary')).toEqual([{ partition: previous }]);
  });

  it("write a catalog lookup's record once when its settlement is written again after a month boundary", async () => {
    const catalogRecord = { ...record('req_partition_settled'), lookup: 'rtu' as const, nit: '576937-K', cui: null };
    const hold = await placeHold(integration.id, 'req_partition_settled');
    if (!hold) throw new Error('the balance covers the hold');
    await settleHold(hold, false, catalogRecord);
    const previous = await movedToPreviousMonth('req_partition_settled');
    expect(await replayed({ kind: 'voided_settlement', hold, record: catalogRecord })).toBe(1);
    expect(await recordsOf('req_partition_settled')).toEqual([{ partition: previous }]);
  });

  it('write a catalog lookup once when the sweeper recorded it in the month before its settlement came', async () => {
    const catalogRecord = { ...record('req_partition_swept'), lookup: 'rtu' as const, nit: '576937-K', cui: null };
    const hold = await placeHold(integration.id, 'req_partition_swept', { ...catalogRecord, httpStatus: 500, errorMessage: 'outcome unknown' });
    if (!hold) throw new Error('the balance covers the hold');
    expect(await swept(hold.holdId)).toBe(1);
    const previous = await movedToPreviousMonth('req_partition_swept');
    expect(await settleHold(hold, true, catalogRecord)).toBeNull();
    expect(await recordsOf('req_partition_swept')).toEqual([{ partition: previous }]);
  });

  it('write the record of a settlement whose hold the sweeper gave back without one', async () => {
    const catalogRecord = { ...record('req_partition_swept_bare'), lookup: 'rtu' as const, nit: '576937-K', cui: null };
    const hold = await placeHold(integration.id, 'req_partition_swept_bare');
    if (!hold) throw new Error('the balance covers the hold');
    expect(await swept(hold.holdId)).toBe(1);
    await settleHold(hold, true, catalogRecord);
    expect(await recordsOf('req_partition_swept_bare')).toEqual([{ partition: `query_records_${monthName(new Date())}` }]);
  });

  it('drop a whole month (records and search keys) by detaching it, and keep the next', async () => {
    const handle = await database();
    const old = monthsAfter(monthStart(new Date()), -14);
    await ensureRecordMonths({ from: old, to: monthsAfter(old, 1) });
    for (const [index, at] of [old, new Date(old.getTime() + 86_400_000), monthsAfter(old, 1)].entries()) {
      await recordUnbilledQuery(record(`req_partition_old_${index}`));
      await handle.rows(sql`update query_records set created_at = ${at.toISOString()}::timestamptz where request_id = ${`req_partition_old_${index}`}::text`);
      await handle.rows(sql`update query_record_identifiers i set created_at = r.created_at from query_records r where r.id = i.record_id and r.request_id = ${`req_partition_old_${index}`}::text`);
    }
    const dropped = await dropRecordMonthsBefore(monthsAfter(old, 1));
    expect(dropped.months.map(monthName)).toContain(monthName(old));
    expect(dropped.records).toBe(2);
    expect(await recordsOf('req_partition_old_0')).toEqual([]);
    expect(await recordsOf('req_partition_old_2')).toEqual([{ partition: `query_records_${monthName(monthsAfter(old, 1))}` }]);
    const tables = await handle.rows<{ name: string | null }>(sql`
      select to_regclass(${`query_records_${monthName(old)}`}::text)::text as name
      union all select to_regclass(${`query_record_identifiers_${monthName(old)}`}::text)::text`);
    expect(tables).toEqual([{ name: null }, { name: null }]);
    const [keys] = await handle.rows<{ n: string | number }>(sql`select count(*) as n from query_record_identifiers where created_at < ${monthsAfter(old, 1).toISOString()}::timestamptz`);
    expect(Number(keys!.n)).toBe(0);
  });

  it("prune a statement's charges to the months its period touches", async () => {
    const handle = await database();
    // A Guatemalan month (UTC−6): its UTC month, and the first six hours of the next one.
    const month = monthsAfter(monthStart(new Date()), -2);
    await ensureRecordMonths({ from: month });
    const period = monthPeriod(month.toISOString().slice(0, 7));
    const plan = await handle.rows<Record<string, string>>(sql`explain (costs off) ${chargesByTariff(integration.id, period)}`);
    const text = plan.map((row) => Object.values(row)[0]).join('\n');
    const read = [...new Set(text.match(/query_records_\d{4}_\d{2}/g))].sort();
    expect(read).toEqual([`query_records_${monthName(month)}`, `query_records_${monthName(monthsAfter(month, 1))}`]);
  });

  it('add the month a write found missing, so the next write is taken', async () => {
    const handle = await database();
    const current = monthName(new Date());
    for (const table of ['query_record_identifiers', 'query_records']) {
      await handle.rows(sql`alter table ${sql.identifier(table)} detach partition ${sql.identifier(`${table}_${current}`)}`);
      await handle.rows(sql`drop table ${sql.identifier(`${table}_${current}`)}`);
    }
    // No journal in this process: the first write fails as a refusal would, and adds the month.
    await expect(recordUnbilledOrKeep(record('req_partition_missing_1'))).rejects.toThrow();
    await recordUnbilledOrKeep(record('req_partition_missing_2'));
    expect(await recordsOf('req_partition_missing_2')).toEqual([{ partition: `query_records_${current}` }]);
  });
});
