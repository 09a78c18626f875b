import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { integrations, queryRecords } from '@/db/schema';
import { database as openDatabase, db } from '@/db/client';
import { useTestDatabase, type TestDatabase } from '@/tests/support/test-database';
import { seal } from '@/lib/core/sealing/envelope';
import { searchKey } from '@/lib/core/sealing/search-keys';
import { rollUpQueue } from '@/lib/core/rollups/job';
import { iterateRecordLines, iterateRecordRows, listRecordsPage } from './list';
import { ensureRecordMonths } from './partitions';

let testDatabase: TestDatabase;
let expectedOrder: number[] = [];
let integrationId = 0;

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  const database = await db();
  const [integration] = await database.insert(integrations).values({ nombre: 'keyset' }).returning();
  integrationId = integration!.id;
  const day = new Date('2026-11-20T12:00:00Z');
  await ensureRecordMonths({ from: day, to: day });
  // Seven records inside one millisecond (microseconds apart) and two sharing an instant: a
  // cursor rounded to milliseconds, or one without the id, would skip or repeat some of them.
  const instants = ['000001', '000002', '000003', '000004', '000005', '000006', '000007', '000009', '000009'];
  for (const [index, micros] of instants.entries()) {
    await database.insert(queryRecords).values({
      integrationId,
      lookup: index % 2 ? 'omisos' : 'renap',
      httpStatus: index === 3 ? 502 : 200,
      responseTimeMs: 10,
      nit: index === 4 ? seal('123456K', 'nit') : null,
      cui: null,
      requestId: `req_keyset_${index}`,
      createdAt: sql`${`2026-11-20T12:00:00.123${micros}Z`}::timestamptz` as unknown as Date,
    });
  }
  const handle = await openDatabase();
  // What the record writers store with every record: its search keys and its rollup row.
  await handle.rows(sql`
    insert into query_record_identifiers (record_id, identifier, created_at)
    select id, ${searchKey('123456K')}::text, created_at from query_records where nit is not null`);
  await handle.rows(sql`
    insert into query_rollup_queue (integration_id, lookup, http_status, response_time_ms, charged_centavos, created_at)
    select integration_id, lookup, http_status, response_time_ms, charged_centavos, created_at from query_records`);
  await rollUpQueue();
  const rows = await handle.rows<{ id: number | string }>(sql`select id from query_records order by created_at desc, id desc`);
  expectedOrder = rows.map((row) => Number(row.id));
});

afterAll(async () => {
  await testDatabase.cleanup();
});

describe('query records keyset pagination', () => {
  it('walks every record once, newest first, and back', async () => {
    const seen: number[] = [];
    const pages = [];
    let page = await listRecordsPage({}, {}, 2);
    pages.push(page);
    seen.push(...page.rows.map((row) => row.id));
    while (page.older) {
      page = await listRecordsPage({}, { after: page.older }, 2);
      pages.push(page);
      seen.push(...page.rows.map((row) => row.id));
    }
    expect(seen).toEqual(expectedOrder);
    expect(pages[0]!.newer).toBeUndefined();

    const back = await listRecordsPage({}, { before: pages[2]!.newer }, 2);
    expect(back.rows.map((row) => row.id)).toEqual(pages[1]!.rows.map((row) => row.id));
  });

  it('applies the filters, and the export sees the same set', async () => {
    const errors = await listRecordsPage({ estado: 'source_error' }, {});
    expect(errors.rows.map((row) => row.httpStatus)).toEqual([502]);
    const byNit = await listRecordsPage({ identificador: '123456-k', integracion: integrationId }, {});
    expect(byNit.rows.map((row) => row.requestId)).toEqual(['req_keyset_4']);
    const omisos: number[] = [];
    const idLine = sql<string>`${queryRecords.id}::text`;
    for await (const batch of iterateRecordLines({ consulta: 'omisos' }, idLine, { batchSize: 2 })) omisos.push(...batch.map(Number));
    expect(omisos).toEqual((await listRecordsPage({ consulta: 'omisos' }, {})).rows.map((row) => row.id));
    expect(omisos).toHaveLength(4);
  });

  it('starts an export with a small batch and grows it, each record once', async () => {
    const batches: number[][] = [];
    for await (const batch of iterateRecordRows<{ id: number }>({}, { id: queryRecords.id }, { firstBatchSize: 1, batchSize: 4 })) batches.push(batch.map((row) => Number(row.id)));
    // 1, then four times as many up to the batch size: 4, 4 (nine records).
    expect(batches.map((batch) => batch.length)).toEqual([1, 4, 4]);
    expect(batches.flat()).toEqual(expectedOrder);
  });

  it('walks an identifier search by cursor like any other list', async () => {
    const first = await listRecordsPage({ identificador: '123456K' }, {}, 1);
    expect(first.rows).toHaveLength(1);
    expect(first.older).toBeUndefined();
  });
});
