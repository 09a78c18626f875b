// A deployment whose query_records was too large for migration 0066 to convert in its own
// transaction is converted online (`records:partition`): rows copied in batches while lookups keep
// writing, then the names swapped; nothing written before or during the copy is lost.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { recordUnbilledQuery } from '@/lib/core/records/write';
import { createTestIntegration, type TestIntegration } from '@/tests/conformance/harness';
import { useTestDatabase, type TestDatabase } from '@/tests/support/test-database';
import { partitionRecordsOnline } from './partition-online';
import { MONTHS_AHEAD, monthStart, recordMonths, recordsArePartitioned } from './partitions';

let testDatabase: TestDatabase;
let integration: TestIntegration;

const record = (requestId: string) => ({
  integrationId: integration.id,
  lookup: 'rtu_nits' as const,
  httpStatus: 200,
  responseTimeMs: 30,
  nit: '576937-K,7108-0',
  cui: null,
  errorMessage: null,
  requestId,
});

/** The tables as the migrations before 0066 left them (an unpartitioned table and its search keys). */
async function unpartitionedTables(): Promise<void> {
  const handle = await database();
  await handle.rows(sql`drop table query_record_identifiers`);
  await handle.rows(sql`drop table query_records`);
  await handle.rows(sql.raw(`
    create table query_records (
      id bigint generated always as identity primary key,
      integration_id integer not null references integrations (id),
      lookup lookup_kind not null, http_status smallint not null, response_time_ms integer not null,
      nit text, cui text, charged_centavos bigint not null default 0, tariff_centavos bigint, error_message text,
      request_id text not null constraint query_records_request_id_unique unique,
      created_at timestamptz not null default now(),
      failure jsonb, answer_empty boolean, actualizado boolean, date_of_birth_sent boolean)`));
  await handle.rows(sql.raw(`create index query_records_created_idx on query_records (created_at, id)`));
  await handle.rows(sql.raw(`
    create table query_record_identifiers (
      record_id bigint not null references query_records (id) on delete cascade,
      identifier text not null, created_at timestamptz not null,
      constraint query_record_identifiers_pkey primary key (record_id, identifier))`));
  await handle.rows(sql.raw(`create index query_record_identifiers_search_idx on query_record_identifiers (identifier, created_at, record_id)`));
}

async function count(query: string): Promise<number> {
  const [row] = await (await database()).rows<{ n: string | number }>(sql.raw(query));
  return Number(row!.n);
}

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  integration = await createTestIntegration('online-partitioning');
  await unpartitionedTables();
  for (let index = 0; index < 25; index++) await recordUnbilledQuery(record(`req_before_${index}`));
  // Some from months ago, as a deployment's history has them.
  await (await database()).rows(sql`update query_records set created_at = created_at - interval '5 months' where id % 3 = 0`);
  await (await database()).rows(sql`update query_record_identifiers i set created_at = r.created_at from query_records r where r.id = i.record_id`);
});

afterAll(async () => {
  await testDatabase?.cleanup();
});

describe('the online conversion of an unpartitioned table', () => {
  it('copies every record and search key and swaps the tables', async () => {
    expect(await recordsArePartitioned()).toBe(false);
    const result = await partitionRecordsOnline({ batchRows: 4, settleMs: 0 });
    expect(result).toMatchObject({ kind: 'partitioned', batches: 7, switchAttempts: 1 });
    expect(await recordsArePartitioned()).toBe(true);
    expect(await count('select count(*) as n from query_records')).toBe(25);
    // One search key per record of this shape (the batch's NITs sealed as one value, one key).
    expect(await count('select count(*) as n from query_record_identifiers')).toBe(25);
    expect(await count(`select count(*) as n from pg_class where relname in ('query_records_unpartitioned', 'query_record_identifiers_unpartitioned')`)).toBe(0);
    // The months its records need, from the oldest record's, and those ahead: no more.
    const [oldest] = await (await database()).rows<{ at: string | Date }>(sql`select min(created_at) as at from query_records`);
    const first = monthStart(new Date(oldest!.at));
    const thisMonth = monthStart(new Date());
    const months = (thisMonth.getUTCFullYear() - first.getUTCFullYear()) * 12 + thisMonth.getUTCMonth() - first.getUTCMonth() + MONTHS_AHEAD + 1;
    const kept = await recordMonths();
    expect(kept).toHaveLength(months);
    expect(kept[0]!.month).toEqual(first);
  });

  it('continues the ids after the last one, and writes a request id once', async () => {
    const [{ max }] = (await (await database()).rows<{ max: string | number }>(sql`select max(id) as max from query_records`)) as [{ max: string | number }];
    await recordUnbilledQuery(record('req_after'));
    await recordUnbilledQuery(record('req_after'));
    const rows = await (await database()).rows<{ id: string | number }>(sql`select id from query_records where request_id = 'req_after'`);
    expect(rows).toHaveLength(1);
    expect(Number(rows[0]!.id)).toBeGreaterThan(Number(max));
  });

  it('leaves the indexes under the names the app and the migrations use', async () => {
    const names = (await (await database()).rows<{ name: string }>(sql`select relname as name from pg_class where relkind = 'I'`)).map((row) => row.name);
    expect(names).toEqual(expect.arrayContaining(['query_records_pkey', 'query_records_created_idx', 'query_records_integration_created_idx', 'query_record_identifiers_pkey', 'query_record_identifiers_search_idx']));
  });
});

describe('writes during the copy', () => {
  it('are mirrored to the partitioned table as they happen', async () => {
    // A second conversion of a fresh unpartitioned table, writing between the copy's batches.
    await unpartitionedTables();
    for (let index = 0; index < 12; index++) await recordUnbilledQuery(record(`req_second_${index}`));
    let during = 0;
    const result = await partitionRecordsOnline({ batchRows: 3, settleMs: 0, onProgress: async () => {
        // Three writes, after the first batches: the copy then catches up with them.
        if (during < 3) await recordUnbilledQuery(record(`req_during_${during++}`));
      },
    });
    expect(result.kind).toBe('partitioned');
    expect(await count(`select count(*) as n from query_records where request_id like 'req_during_%'`)).toBe(3);
    expect(await count(`select count(*) as n from query_records where request_id like 'req_second_%'`)).toBe(12);
    expect(await count(`select count(*) as n from query_record_identifiers`)).toBe(12 + during);
  });
});
