// Pages read only the days the daily rollups say hold the next matches. That must never change
// what a page shows: for every filter combination, every page (older and newer, from many
// cursors) equals what the same query returns without the range, including records whose rollup
// rows are still queued and combinations that match nothing at all.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database, db } from '@/db/client';
import type { LookupKind } from '@/db/schema';
import { encodeCursor } from '@/lib/platform/paging/keyset';
import { rollUpQueue } from '@/lib/core/rollups/job';
import { ensureRecordMonths } from './partitions';
import { createTestIntegration, type TestIntegration } from '@/tests/conformance/harness';
import { useTestDatabase, type TestDatabase } from '@/tests/support/test-database';
import type { RecordFilters } from './filters';
import { listRecordsPage, recordsQuery } from './list';

let testDatabase: TestDatabase;
let integrations: TestIntegration[] = [];
const LOOKUPS: LookupKind[] = ['renap', 'rtu_nits', 'cui_nit', 'rtu', 'omisos'];
const DAY_MS = 86_400_000;

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  integrations = [await createTestIntegration('range-a'), await createTestIntegration('range-b'), await createTestIntegration('range-c')];
  const handle = await database();
  const now = Date.now();
  await ensureRecordMonths({ from: new Date(now - 41 * DAY_MS) });
  // 600 records over 40 days, as the writers store them (record and queue row together); the
  // attributes vary at different rates so some combinations are dense, some rare, some empty.
  // The last 20 stay queued, as if the rollup job were behind: most from the last hour, one from
  // three days ago, so the days whose rollups may be incomplete span several days.
  for (let index = 0; index < 620; index++) {
    const ageMs = index < 600 ? (index % 40) * DAY_MS + (1 + (index % 7)) * 3_600_000 + index * 1_000 : index === 600 ? 3 * DAY_MS : index * 1_000;
    const createdAt = new Date(now - ageMs);
    const integration = integrations[index % 7 === 0 ? 2 : index % 3 === 0 ? 1 : 0]!;
    const lookup = LOOKUPS[index % 11 === 0 ? 3 : index % 5]!;
    const status = index % 13 === 0 ? 404 : index % 29 === 0 ? 502 : 200;
    await handle.rows(sql`
      with record as (
        insert into query_records (integration_id, lookup, http_status, response_time_ms, request_id, created_at)
        values (${integration.id}::integer, ${lookup}::lookup_kind, ${status}::smallint, 10, ${`req_range_${index}`}::text, ${createdAt.toISOString()}::timestamptz)
        returning integration_id, lookup, http_status, response_time_ms, charged_centavos, created_at
      )
      insert into query_rollup_queue (integration_id, lookup, http_status, response_time_ms, charged_centavos, created_at)
      select integration_id, lookup, http_status, response_time_ms, charged_centavos, created_at from record`);
    if (index === 599) await rollUpQueue();
  }
});

afterAll(async () => {
  await testDatabase?.cleanup();
});

async function unbounded(filters: RecordFilters, cursor: string | undefined, direction: 'older' | 'newer', limit: number): Promise<number[]> {
  const decoded = cursor ? JSON.parse(cursor) : undefined;
  const rows = await recordsQuery(await db(), filters, decoded, direction, limit);
  return rows.map((row) => row.record.id);
}

const COMBINATIONS: RecordFilters[] = [
  {},
  { estado: '404' },
  { estado: 'source_error' },
  { consulta: 'rtu' },
  { consulta: 'rtu', estado: '404' },
  { consulta: 'renap', estado: '502' },
  { consulta: 'rtu_nits', estado: '401' },
  { desde: new Date(Date.now() - 20 * DAY_MS).toISOString().slice(0, 10), estado: '404' },
];

describe('pages bounded by the rollups', () => {
  it('show exactly what the unbounded query shows, for every filter and cursor', async () => {
    const combinations = [
      ...COMBINATIONS,
      ...COMBINATIONS.map((filters) => ({ ...filters, integracion: integrations[2]!.id })),
      { integracion: integrations[1]!.id, consulta: 'omisos', estado: '404' } as RecordFilters,
    ];
    const all = await (await database()).rows<{ id: string | number; at: string }>(
      sql`select id, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at from query_records order by created_at desc, id desc`,
    );
    // Cursors from the newest record to the oldest, and one beyond each end.
    const cursors = [undefined, ...all.filter((_, index) => index % 37 === 0).map((row) => ({ createdAt: row.at, id: Number(row.id) }))];
    for (const filters of combinations) {
      for (const cursor of cursors) {
        for (const direction of ['older', 'newer'] as const) {
          if (direction === 'newer' && !cursor) continue;
          const expected = await unbounded(filters, cursor && JSON.stringify(cursor), direction, 6);
          const page = await listRecordsPage(filters, cursor ? { [direction === 'older' ? 'after' : 'before']: encodeCursor(cursor) } : {}, 5);
          const shown = page.rows.map((row) => row.id);
          const expectedShown = direction === 'older' ? expected.slice(0, 5) : expected.slice(0, 5).reverse();
          expect({ filters, cursor, direction, shown }).toEqual({ filters, cursor, direction, shown: expectedShown });
        }
      }
    }
  });
});
