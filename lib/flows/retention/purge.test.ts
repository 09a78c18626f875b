// Query records past their retention are purged a whole month at a time (their month's partitions
// dropped), alert deliveries in batches, the records optionally archived first; what the dashboard
// and the ledger show of them stays.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { alertDeliveries, alertDeliveryAttempts } from '@/db/schema';
import { placeHold, settleHold } from '@/lib/core/billing/holds';
import { rollUpQueue } from '@/lib/core/rollups/job';
import { createTestIntegration, type TestIntegration } from '@/tests/conformance/harness';
import { useTestDatabase, type TestDatabase } from '@/tests/support/test-database';
import { ensureRecordMonths } from '@/lib/core/records/partitions';
import { purgeExpiredRecords } from './purge';

let testDatabase: TestDatabase;
let integration: TestIntegration;
const now = new Date('2026-11-22T18:00:00Z');
const archiveDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gateway-retention-'));

async function count(query: string): Promise<number> {
  const [row] = await (await database()).rows<{ n: string | number }>(sql.raw(query));
  return Number(row!.n);
}

/** A billed record as the lookups write it, then moved back in time (with its search key and rollup row). */
async function billedRecordAged(requestId: string, monthsAgo: number, daysMore = 0): Promise<void> {
  const hold = await placeHold(integration.id, requestId);
  if (!hold) throw new Error('the balance covers the hold');
  await settleHold(hold, true, {
    integrationId: integration.id,
    lookup: 'cui_nit',
    httpStatus: 200,
    responseTimeMs: 40,
    nit: '576937-K',
    cui: null,
    errorMessage: null,
    requestId,
  });
  const handle = await database();
  const at = new Date(monthsBefore(monthsAgo).getTime() - daysMore * 86_400_000);
  await ensureRecordMonths({ from: at, to: at });
  await handle.rows(sql`update query_records set created_at = ${at.toISOString()}::timestamptz where request_id = ${requestId}::text`);
  await handle.rows(sql`
    update query_record_identifiers i set created_at = r.created_at
      from query_records r where r.id = i.record_id and r.request_id = ${requestId}::text`);
  // The queue row carries no record id: queue the moved records afresh, as the migration does.
  await handle.rows(sql`delete from query_rollup_queue`);
  await handle.rows(sql`
    insert into query_rollup_queue (integration_id, lookup, http_status, response_time_ms, charged_centavos, created_at)
    select integration_id, lookup, http_status, response_time_ms, charged_centavos, created_at from query_records`);
}

/** An alert delivery sent (after one failed attempt) this many months before `now`. */
async function alertDeliveryAged(alertId: string, monthsAgo: number): Promise<void> {
  const createdAt = monthsBefore(monthsAgo);
  const { db } = await database();
  const [delivery] = await db
    .insert(alertDeliveries)
    .values({ alertId, condition: 'balance_low', integrationId: integration.id, channel: 'webhook', target: 'https://alertas.example/hook', payload: '{}', status: 'sent', attempts: 2, createdAt })
    .returning();
  await db.insert(alertDeliveryAttempts).values([
    { deliveryId: delivery!.id, attempt: 1, responseStatus: 503, error: 'HTTP 503', durationMs: 20, createdAt },
    { deliveryId: delivery!.id, attempt: 2, responseStatus: 204, durationMs: 15, createdAt },
  ]);
}

function monthsBefore(monthsAgo: number): Date {
  const instant = new Date(now);
  instant.setUTCMonth(instant.getUTCMonth() - monthsAgo);
  return instant;
}

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  integration = await createTestIntegration('retention', { tariffCentavos: 100, balanceCentavos: 10_000 });
  for (let index = 0; index < 7; index++) await billedRecordAged(`req_expired_${index}`, 25 + index);
  for (let index = 0; index < 3; index++) await billedRecordAged(`req_kept_${index}`, 23 - index);
  // Past the cutoff by a day, in the cutoff's own month: kept until that month is wholly past it.
  await billedRecordAged('req_edge', 24, 1);
  await rollUpQueue();
  for (let index = 0; index < 4; index++) await alertDeliveryAged(`alr_expired_${index}`, 25 + index);
  await alertDeliveryAged('alr_kept', 23);
});

afterAll(async () => {
  await testDatabase?.cleanup();
  fs.rmSync(archiveDir, { recursive: true, force: true });
});

describe('the retention purge', () => {
  it('makes sure the next months have partitions before anything else', async () => {
    const handle = await database();
    const ahead = new Date();
    ahead.setUTCDate(1);
    ahead.setUTCMonth(ahead.getUTCMonth() + 3);
    const name = `query_records_${ahead.toISOString().slice(0, 7).replace('-', '_')}`;
    await handle.rows(sql`alter table query_records detach partition ${sql.identifier(name)}`);
    await handle.rows(sql`drop table ${sql.identifier(name)}`);
    await handle.rows(sql`alter table query_record_identifiers detach partition ${sql.identifier(name.replace('query_records', 'query_record_identifiers'))}`);
    await handle.rows(sql`drop table ${sql.identifier(name.replace('query_records', 'query_record_identifiers'))}`);
    const notADirectory = path.join(archiveDir, 'not-a-directory');
    fs.writeFileSync(notADirectory, '');
    await expect(purgeExpiredRecords({ now, months: 24, exportDir: notADirectory })).rejects.toThrow();
    expect(await count(`select count(*) as n from pg_class where relname = '${name}'`)).toBe(1);
  });

  it('does nothing when the archive cannot be written', async () => {
    const notADirectory = path.join(archiveDir, 'a-file');
    fs.writeFileSync(notADirectory, '');
    await expect(purgeExpiredRecords({ now, months: 24, exportDir: notADirectory })).rejects.toThrow();
    expect(await count('select count(*) as n from query_records')).toBe(11);
    expect(await count('select count(*) as n from alert_deliveries')).toBe(5);
  });

  it('archives then drops the months wholly older than the retention, keeping the month at the edge, rollups and ledger', async () => {
    const ledgerBefore = await count('select count(*) as n from ledger_entries');
    const rolledUpBefore = await count('select sum(queries) as n from query_daily_rollups');
    const result = await purgeExpiredRecords({ now, months: 24, exportDir: archiveDir, batchRows: 3 });
    expect(result.purged).toBe(7);
    expect(result.alertDeliveriesPurged).toBe(4);
    // The months from 25 to 31 months back, and the empty ones before them, are gone whole.
    expect(result.keptFrom.toISOString()).toBe('2024-11-01T00:00:00.000Z');
    expect(result.monthsDropped.map((month) => month.toISOString().slice(0, 7))).toEqual(expect.arrayContaining(['2024-04', '2024-07', '2024-10']));
    expect(await count(`select count(*) as n from pg_class where relname in ('query_records_2024_10', 'query_record_identifiers_2024_10')`)).toBe(0);

    const remaining = await (await database()).rows<{ request_id: string }>(sql`select request_id from query_records order by request_id`);
    expect(remaining.map((row) => row.request_id)).toEqual(['req_edge', 'req_kept_0', 'req_kept_1', 'req_kept_2']);
    expect(await count('select count(*) as n from query_record_identifiers')).toBe(4);
    expect(await count('select count(*) as n from ledger_entries')).toBe(ledgerBefore);
    expect(await count('select sum(queries) as n from query_daily_rollups')).toBe(rolledUpBefore);

    const lines = gunzipSync(fs.readFileSync(result.exportFile!)).toString('utf8').replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toContain('fecha_utc');
    expect(lines.slice(1).map((line) => line.split(',').at(-1)).sort()).toEqual(Array.from({ length: 7 }, (_, index) => `req_expired_${index}`));
    // The archive is masked (docs/decisions.md, "Personal data at rest"): the NIT's last characters only.
    const nitColumn = lines[0]!.split(',').indexOf('nit');
    expect(lines.slice(1).map((line) => line.split(',')[nitColumn])).toEqual(Array.from({ length: 7 }, () => '5769••-K'));
    expect(lines.join('\n')).not.toMatch(/576937/);
    expect(fs.readdirSync(archiveDir).filter((name) => name.endsWith('.partial'))).toEqual([]);
  });

  it('deletes the alert deliveries older than the retention, with their attempts, in the same run', async () => {
    // What the run above left (in batches of 3, so the four expired took two statements).
    const remaining = await (await database()).rows<{ alert_id: string }>(sql`select alert_id from alert_deliveries`);
    expect(remaining.map((row) => row.alert_id)).toEqual(['alr_kept']);
    expect(await count('select count(*) as n from alert_delivery_attempts')).toBe(2);
  });

  it('finds nothing more to do the next time', async () => {
    const again = await purgeExpiredRecords({ now, months: 24, exportDir: archiveDir });
    expect(again.purged).toBe(0);
    expect(again.monthsDropped).toEqual([]);
    expect(again.alertDeliveriesPurged).toBe(0);
    expect(again.exportFile).toBeUndefined();
    expect(fs.readdirSync(archiveDir).filter((name) => name.endsWith('.csv.gz'))).toHaveLength(1);
  });
});
