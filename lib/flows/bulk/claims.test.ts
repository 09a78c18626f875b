// A bulk item's lookup renews its claim in its turn, before anything is held (lib/flows/bulk/items.ts
// renewClaim, lib/flows/lookups/catalog.ts): a lookup that waited for its turn longer than its lease,
// while another instance claimed the item again, or whose job was cancelled meanwhile, holds,
// charges and records nothing; the item stays with whoever holds it now.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { balanceAndLedgerSum } from '@/lib/core/billing/ledger';
import { createTestIntegration, type TestIntegration } from '@/tests/conformance/harness';
import { useTestDatabase, type TestDatabase } from '@/tests/support/test-database';
import { claimItems, renewClaim, type ClaimedItem } from './items';
import { cancelJob, submitJob } from './jobs';
import { runItem } from './runner';

const LEASE_SECONDS = 120;
const TARIFF = 150;

let testDatabase: TestDatabase;
let integration: TestIntegration;

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  integration = await createTestIntegration('lotes-reclamos', { tariffCentavos: TARIFF, balanceCentavos: 10 * TARIFF });
});

afterAll(async () => {
  await testDatabase?.cleanup();
});

async function newJobItem(key: string): Promise<{ publicId: string; item: ClaimedItem }> {
  const submitted = await submitJob(integration.id, 'omisos', ['576937-K'], key);
  if (submitted.kind !== 'created') throw new Error('a new job');
  const [item] = await claimItems('instancia-a', 1, LEASE_SECONDS);
  if (!item) throw new Error('its item is claimable');
  return { publicId: submitted.publicId, item };
}

/** What the item's row and the integration's books say now. */
async function state(item: ClaimedItem) {
  const handle = await database();
  const [row] = await handle.rows<{ status: string; lease_token: string | null; request_id: string | null }>(sql`
    select status, lease_token, request_id from bulk_job_items where job_id = ${item.jobId}::integer and position = ${item.position}::integer`);
  const [records] = await handle.rows<{ n: number }>(sql`select count(*)::int as n from query_records where integration_id = ${integration.id}::integer`);
  const [holds] = await handle.rows<{ n: number }>(sql`select count(*)::int as n from ledger_entries where integration_id = ${integration.id}::integer and kind <> 'top_up'`);
  return { row, records: records!.n, entries: holds!.n, books: await balanceAndLedgerSum(integration.id) };
}

describe("a bulk item's claim", () => {
  it('renews while this claim holds the item and its job runs', async () => {
    const { item } = await newJobItem('renueva');
    expect(await renewClaim(item, LEASE_SECONDS)).toBe(true);
    await (await database()).rows(sql`update bulk_jobs set state = 'cancelado', finished_at = now() where id = ${item.jobId}::integer`);
  });

  it('is lost once another instance claimed the item again: the late lookup holds, charges and records nothing', async () => {
    const { item: late } = await newJobItem('otra-instancia');
    // The late lookup's lease ran out while it waited for its turn; another instance claimed the item.
    await (await database()).rows(sql`update bulk_job_items set lease_until = now() - interval '1 second' where job_id = ${late.jobId}::integer`);
    const [current] = await claimItems('instancia-b', 1, LEASE_SECONDS);
    expect(current).toMatchObject({ jobId: late.jobId, position: late.position });
    const before = await state(late);

    expect(await renewClaim(late, LEASE_SECONDS)).toBe(false);
    expect(await runItem(late)).toEqual({ kind: 'lost' });

    const after = await state(late);
    expect(after).toEqual(before);
    expect(after.row).toMatchObject({ status: 'pendiente', lease_token: current!.leaseToken, request_id: null });
    await (await database()).rows(sql`update bulk_jobs set state = 'cancelado', finished_at = now() where id = ${late.jobId}::integer`);
  });

  it('is lost once its job was cancelled while the lookup waited: nothing is charged', async () => {
    const { publicId, item } = await newJobItem('cancelado');
    const before = await state(item);
    expect(await cancelJob(integration.id, publicId)).toEqual({ kind: 'cancelled' });

    expect(await runItem(item)).toEqual({ kind: 'lost' });
    const after = await state(item);
    expect(after.records).toBe(before.records);
    expect(after.entries).toBe(before.entries);
    expect(after.books).toEqual(before.books);
  });
});
