// The rollups the dashboard reads must equal a direct aggregate over the records, exactly, after
// a mixed workload: billed lookups settled concurrently (captures and voids), a hold voided by
// the crash sweeper and settled late, unbilled lookups, and records of earlier hours and days.
// The figures the test expects are computed here, in JavaScript, from the records themselves.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { LATENCY_BUCKET_COLUMNS, type LookupKind } from '@/db/schema';
import { placeHold, settleHold, sweepStaleHolds } from '@/lib/core/billing/holds';
import { loadDashboard, rangeStart, type DashboardRange } from '@/lib/core/rollups/usage';
import { listIntegrationsPage } from '@/lib/surfaces/console/integrations';
import { ensureRecordMonths } from '@/lib/core/records/partitions';
import { recordUnbilledQuery } from '@/lib/core/records/write';
import { outcomeOf } from '@/lib/core/records/outcomes';
import { createTestIntegration, type TestIntegration } from '@/tests/conformance/harness';
import { useTestDatabase, type TestDatabase } from '@/tests/support/test-database';
import { emptyHistogram, histogramQuantile, latencyBucketIndex } from './histogram';
import { HOUR_MS } from '@/lib/platform/time/hours';
import { rollUpQueuedRecords } from './job';
import { countRefusal, flushRefusals } from './refusals';

let testDatabase: TestDatabase;
let busy: TestIntegration;
let quiet: TestIntegration;
let idle: TestIntegration;
const now = new Date();

interface StoredRecord {
  integrationId: number;
  lookup: LookupKind;
  httpStatus: number;
  responseTimeMs: number;
  chargedCentavos: number;
  createdAt: Date;
}

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  busy = await createTestIntegration('rollup-busy', { tariffCentavos: 150, balanceCentavos: 100_000 });
  quiet = await createTestIntegration('rollup-quiet', { tariffCentavos: 275, balanceCentavos: 100_000 });
  idle = await createTestIntegration('rollup-idle', { tariffCentavos: 100, balanceCentavos: 100_000 });

  // Billed lookups, settled concurrently as live traffic would: response times across the
  // histogram's buckets (overflow included), captures and voids.
  const statuses = [200, 200, 200, 404, 502, 429, 400, 200];
  const catalogs: LookupKind[] = ['cui_nit', 'rtu', 'omisos'];
  await Promise.all(
    Array.from({ length: 48 }, async (_, index) => {
      const integration = index % 3 === 0 ? quiet : busy;
      const requestId = `req_rollup_billed_${index}`;
      const hold = await placeHold(integration.id, requestId);
      if (!hold) throw new Error('the balance covers every hold');
      const httpStatus = statuses[index % statuses.length]!;
      await settleHold(hold, httpStatus === 200, {
        integrationId: integration.id,
        lookup: catalogs[index % catalogs.length]!,
        httpStatus,
        responseTimeMs: [1, 2, 3, 49, 50, 51, 740, 1_999, 30_000, 30_001, 95_000][index % 11]!,
        nit: `${100 + index}-K`,
        cui: null,
        errorMessage: httpStatus === 200 ? null : 'source said no',
        requestId,
      });
    }),
  );

  // A crash between hold and settlement: the sweeper voids the hold, and the late settlement of
  // what would have been a success is recorded as not charged.
  const orphan = await placeHold(busy.id, 'req_rollup_orphan');
  if (!orphan) throw new Error('the balance covers the hold');
  await (await database()).rows(sql`update ledger_entries set created_at = now() - interval '5 minutes' where id = ${orphan.holdId}::bigint`);
  expect(await sweepStaleHolds(60)).toBe(1);
  await settleHold(orphan, true, {
    integrationId: busy.id,
    lookup: 'omisos',
    httpStatus: 200,
    responseTimeMs: 12,
    nit: '576937-K',
    cui: null,
    errorMessage: null,
    requestId: 'req_rollup_orphan',
  });

  // Unbilled lookups.
  await Promise.all(
    Array.from({ length: 12 }, (_, index) =>
      recordUnbilledQuery({
        integrationId: index % 2 ? busy.id : quiet.id,
        lookup: index % 3 ? 'renap' : 'rtu_nits',
        httpStatus: index % 5 === 0 ? 500 : 200,
        responseTimeMs: 5 + index * 7,
        nit: index % 3 ? null : '576937-K,7108-0',
        cui: index % 3 ? '1587564440904' : null,
        identifiers: index % 3 ? ['1587564440904'] : ['576937-K', '7108-0'],
        errorMessage: null,
        requestId: `req_rollup_unbilled_${index}`,
      }),
    ),
  );

  // Records of earlier hours and days, as the record writers store them (record and queue row
  // in one statement), spread over 40 days so every dashboard range cuts through them.
  const handle = await database();
  await ensureRecordMonths({ from: new Date(now.getTime() - 41 * 24 * HOUR_MS) });
  for (let index = 0; index < 120; index++) {
    const createdAt = new Date(now.getTime() - (index * 8 + 1) * HOUR_MS - index * 61_000);
    const integrationId = index % 4 === 0 ? quiet.id : busy.id;
    const lookup = (['renap', 'rtu_nits', 'cui_nit', 'rtu', 'omisos'] as const)[index % 5];
    const billed = lookup === 'cui_nit' || lookup === 'rtu' || lookup === 'omisos';
    const httpStatus = [200, 200, 404, 502, 200, 500][index % 6]!;
    const charged = billed && httpStatus === 200 ? 150 : 0;
    await handle.rows(sql`
      with record as (
        insert into query_records (integration_id, lookup, http_status, response_time_ms, nit, charged_centavos, tariff_centavos, request_id, created_at)
        values (${integrationId}::integer, ${lookup}::lookup_kind, ${httpStatus}::smallint, ${index * 97}::integer, '12345-6',
                ${charged}::bigint, ${billed ? 150 : null}::bigint, ${`req_rollup_past_${index}`}::text, ${createdAt.toISOString()}::timestamptz)
        returning integration_id, lookup, http_status, response_time_ms, charged_centavos, created_at
      )
      insert into query_rollup_queue (integration_id, lookup, http_status, response_time_ms, charged_centavos, created_at)
      select integration_id, lookup, http_status, response_time_ms, charged_centavos, created_at from record`);
  }

  // Several rollup runs at once, in small batches: each queued row must be added exactly once.
  for (;;) {
    const rolled = await Promise.all([rollUpQueuedRecords(7), rollUpQueuedRecords(7), rollUpQueuedRecords(7)]);
    if (rolled.every((count) => count === 0)) break;
  }
});

afterAll(async () => {
  await testDatabase?.cleanup();
});

async function storedRecords(): Promise<StoredRecord[]> {
  const rows = await (await database()).rows<Record<string, string | number>>(sql`
    select integration_id, lookup, http_status, response_time_ms, charged_centavos,
           extract(epoch from created_at) * 1000 as created_ms from query_records`);
  return rows.map((row) => ({
    integrationId: Number(row.integration_id),
    lookup: row.lookup as LookupKind,
    httpStatus: Number(row.http_status),
    responseTimeMs: Number(row.response_time_ms),
    chargedCentavos: Number(row.charged_centavos),
    createdAt: new Date(Number(row.created_ms)),
  }));
}

interface Aggregate {
  queries: number;
  chargedCentavos: number;
  responseTimeMsTotal: number;
  latency: number[];
}

function aggregate(records: StoredRecord[], keyOf: (record: StoredRecord) => string): Map<string, Aggregate> {
  const groups = new Map<string, Aggregate>();
  for (const record of records) {
    const key = keyOf(record);
    const group = groups.get(key) ?? { queries: 0, chargedCentavos: 0, responseTimeMsTotal: 0, latency: emptyHistogram() };
    group.queries += 1;
    group.chargedCentavos += record.chargedCentavos;
    group.responseTimeMsTotal += record.responseTimeMs;
    group.latency[latencyBucketIndex(record.responseTimeMs)]! += 1;
    groups.set(key, group);
  }
  return groups;
}

const hourOf = (date: Date) => new Date(Math.floor(date.getTime() / HOUR_MS) * HOUR_MS).toISOString();
const guatemalanDayOf = (date: Date) => new Date(date.getTime() - 6 * HOUR_MS).toISOString().slice(0, 10);

type RollupTable = 'query_hourly_rollups' | 'query_hourly_rollups_by_integration' | 'query_daily_rollups' | 'query_daily_rollups_by_integration';

async function rollupRows(table: RollupTable): Promise<Map<string, Aggregate>> {
  const byIntegration = table.endsWith('_by_integration');
  const bucket = table.startsWith('query_hourly') ? 'extract(epoch from hour) * 1000' : 'day::text';
  const rows = await (await database()).rows<Record<string, string | number>>(sql`
    select ${sql.raw(byIntegration ? 'integration_id,' : '')} ${sql.raw(bucket)} as bucket, lookup, http_status,
           queries, charged_centavos, response_time_ms_total, ${sql.raw(LATENCY_BUCKET_COLUMNS.join(', '))}
      from ${sql.raw(table)}`);
  return new Map(
    rows.map((row) => [
      [
        byIntegration ? row.integration_id : '',
        table.startsWith('query_hourly') ? new Date(Number(row.bucket)).toISOString() : row.bucket,
        row.lookup,
        row.http_status,
      ].join('|'),
      {
        queries: Number(row.queries),
        chargedCentavos: Number(row.charged_centavos),
        responseTimeMsTotal: Number(row.response_time_ms_total),
        latency: LATENCY_BUCKET_COLUMNS.map((column) => Number(row[column])),
      },
    ]),
  );
}

describe('hourly and daily rollups', () => {
  it('equal a direct aggregate of the records, per hour and per Guatemalan day, per integration and overall, exactly', async () => {
    const records = await storedRecords();
    expect(records.length).toBe(48 + 1 + 12 + 120);
    const expected = (bucketOf: (date: Date) => string, perIntegration: boolean) =>
      Object.fromEntries(
        aggregate(records, (record) => [perIntegration ? record.integrationId : '', bucketOf(record.createdAt), record.lookup, record.httpStatus].join('|')),
      );
    expect(Object.fromEntries(await rollupRows('query_hourly_rollups_by_integration'))).toEqual(expected(hourOf, true));
    expect(Object.fromEntries(await rollupRows('query_hourly_rollups'))).toEqual(expected(hourOf, false));
    expect(Object.fromEntries(await rollupRows('query_daily_rollups_by_integration'))).toEqual(expected(guatemalanDayOf, true));
    expect(Object.fromEntries(await rollupRows('query_daily_rollups'))).toEqual(expected(guatemalanDayOf, false));
    // Nothing is left in the queue, and the late settlement counted as not charged.
    const [queue] = await (await database()).rows<{ left: string | number }>(sql`select count(*) as left from query_rollup_queue`);
    expect(Number(queue!.left)).toBe(0);
  });

  it('give each integration its latest query, and none to an integration that never queried', async () => {
    const records = await storedRecords();
    const { items: list } = await listIntegrationsPage({ pageSize: 1000 });
    const latest = (integrationId: number) => Math.max(...records.filter((record) => record.integrationId === integrationId).map((record) => record.createdAt.getTime()));
    expect(list.find((entry) => entry.id === busy.id)?.lastQueryAt?.getTime()).toBe(latest(busy.id));
    expect(list.find((entry) => entry.id === quiet.id)?.lastQueryAt?.getTime()).toBe(latest(quiet.id));
    expect(list.find((entry) => entry.id === idle.id)?.lastQueryAt).toBeNull();
  });
});

describe('the dashboard', () => {
  for (const range of ['24h', '7d', '30d'] as DashboardRange[]) {
    it(`shows for ${range} exactly what the records in that range add up to`, async () => {
      const since = rangeStart(range, now);
      const inRange = (await storedRecords()).filter((record) => record.createdAt >= since);
      const dashboard = await loadDashboard(range, now);

      expect(dashboard.totals.total).toBe(inRange.length);
      expect(dashboard.totals.success).toBe(inRange.filter((record) => outcomeOf(record.httpStatus) === 'success').length);
      expect(dashboard.totals.chargedCentavos).toBe(inRange.reduce((sum, record) => sum + record.chargedCentavos, 0));
      for (const stats of dashboard.lookups) {
        const ofLookup = inRange.filter((record) => record.lookup === stats.lookup);
        const latency = emptyHistogram();
        for (const record of ofLookup) latency[latencyBucketIndex(record.responseTimeMs)]! += 1;
        const p50 = histogramQuantile(latency, 0.5);
        const p95 = histogramQuantile(latency, 0.95);
        expect({ lookup: stats.lookup, total: stats.total, p50: stats.p50Ms, p95: stats.p95Ms }).toEqual({
          lookup: stats.lookup,
          total: ofLookup.length,
          p50: p50 === null ? null : Math.round(p50),
          p95: p95 === null ? null : Math.round(p95),
        });
      }
      // Every record lands in the bucket that contains it, and each bucket's outcomes add up.
      const seriesTotal = dashboard.series.reduce((sum, bucket) => sum + Object.values(bucket.byLookup).reduce((a, b) => a + b, 0), 0);
      expect(seriesTotal).toBe(inRange.length);
      for (const bucket of dashboard.series) {
        const end = bucket.start.getTime() + (dashboard.unit === 'hour' ? HOUR_MS : 24 * HOUR_MS);
        const inBucket = inRange.filter((record) => record.createdAt >= bucket.start && record.createdAt.getTime() < end);
        expect(bucket.byOutcome).toEqual({
          success: inBucket.filter((record) => outcomeOf(record.httpStatus) === 'success').length,
          client_error: inBucket.filter((record) => outcomeOf(record.httpStatus) === 'client_error').length,
          source_error: inBucket.filter((record) => outcomeOf(record.httpStatus) === 'source_error').length,
        });
      }
    });
  }

  it("shows one integration's 30 days exactly as its own records add up, per day, lookup and outcome", async () => {
    const since = rangeStart('30d', now);
    const own = (await storedRecords()).filter((record) => record.integrationId === busy.id && record.createdAt >= since);
    const usage = await loadDashboard('30d', now, busy.id);
    expect(own.length).toBeGreaterThan(0);
    expect(usage.totals.total).toBe(own.length);
    expect(usage.totals.chargedCentavos).toBe(own.reduce((sum, record) => sum + record.chargedCentavos, 0));
    for (const stats of usage.lookups) expect(stats.total).toBe(own.filter((record) => record.lookup === stats.lookup).length);
    for (const bucket of usage.series) {
      const end = bucket.start.getTime() + 24 * HOUR_MS;
      const inBucket = own.filter((record) => record.createdAt >= bucket.start && record.createdAt.getTime() < end);
      expect(Object.values(bucket.byOutcome).reduce((a, b) => a + b, 0)).toBe(inBucket.length);
    }
    expect(usage.lowBalance).toEqual([]);
  });

  it('counts refusals, which are not records, by reason and integration', async () => {
    for (let index = 0; index < 3; index++) countRefusal({ integrationId: busy.id, lookup: 'omisos', reason: 'rate_limited' }, now);
    countRefusal({ lookup: 'renap', reason: 'credentials_missing' }, now);
    countRefusal({ integrationId: quiet.id, lookup: 'cui_nit', reason: 'balance_exhausted' }, now);
    await flushRefusals();
    countRefusal({ integrationId: busy.id, lookup: 'omisos', reason: 'rate_limited' }, now);
    await flushRefusals();

    const dashboard = await loadDashboard('24h', now);
    expect(dashboard.totals.refused).toBe(6);
    // Each integration's page shows its own, per reason, over 30 days.
    expect((await loadDashboard('30d', now, busy.id)).refusalsByReason).toEqual([{ reason: 'rate_limited', refusals: 4 }]);
    expect((await loadDashboard('30d', now, quiet.id)).refusalsByReason).toEqual([{ reason: 'balance_exhausted', refusals: 1 }]);
    expect(dashboard.refusalsByReason).toEqual([
      { reason: 'rate_limited', refusals: 4 },
      expect.objectContaining({ refusals: 1 }),
      expect.objectContaining({ refusals: 1 }),
    ]);
    const rows = await (await database()).rows<{ integration_id: number; reason: string; refusals: string | number }>(
      sql`select integration_id, reason, refusals from refusal_rollups_by_integration order by integration_id, reason`,
    );
    expect(rows.map((row) => [Number(row.integration_id), row.reason, Number(row.refusals)])).toEqual(
      [
        [0, 'credentials_missing', 1],
        [busy.id, 'rate_limited', 4],
        [quiet.id, 'balance_exhausted', 1],
      ].sort((a, b) => Number(a[0]) - Number(b[0])),
    );
    const overall = await (await database()).rows<{ reason: string; refusals: string | number }>(
      sql`select reason, sum(refusals) as refusals from refusal_rollups group by reason`,
    );
    expect(Object.fromEntries(overall.map((row) => [row.reason, Number(row.refusals)]))).toEqual({
      credentials_missing: 1,
      rate_limited: 4,
      balance_exhausted: 1,
    });
  });
});
