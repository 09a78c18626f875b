// "Reintentar los fallidos" after a cancel (lib/flows/bulk/retry.ts): a cancelled job ends at once, but an
// item its instance was already running finishes afterwards and may fail too. A retry made in
// between would leave that failure out for good (its total and its rows read before it landed), so
// the retry waits until no item of the job is running, and then takes every failed row.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { nitCheckCharacter } from '@/lib/platform/guatemala/identifiers';
import { createTestIntegration, type TestIntegration } from '@/tests/conformance/harness';
import { useTestDatabase, type TestDatabase } from '@/tests/support/test-database';
import { claimItems, type ClaimedItem } from './items';
import { cancelJob, readJob, submitJob } from './jobs';
import { jobResults } from './results';
import { retryFailedItems } from './retry';

const THIRD_NIT = `1234567${nitCheckCharacter('1234567')}`;

let testDatabase: TestDatabase;
let integration: TestIntegration;

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  integration = await createTestIntegration('lotes-reintento-carrera', { tariffCentavos: 150, balanceCentavos: 1_500 });
});

afterAll(async () => {
  await testDatabase?.cleanup();
});

/** The source answered the item's lookup with an error: its row as the settlement statement leaves it. */
async function sourceFailed(item: ClaimedItem): Promise<void> {
  await (await database()).rows(sql`
    update bulk_job_items set status = 'error_fuente', reason = 'unavailable', answered_at = now(), source = 'catalog',
           request_id = ${`req_prueba_${item.position}`}, lease_holder = null, lease_token = null, lease_until = null
     where job_id = ${item.jobId}::integer and position = ${item.position}::integer and lease_token = ${item.leaseToken}::text`);
}

async function identifiers(publicId: string): Promise<string[]> {
  const rows = await jobResults(integration.id, publicId);
  const out: string[] = [];
  for await (const row of rows!) out.push(row.identificador);
  return out;
}

describe('retrying the failed rows of a cancelled job', () => {
  it('waits for the items still running when it was cancelled, then takes every failure', async () => {
    const submitted = await submitJob(integration.id, 'omisos', ['576937-K', '39872769', THIRD_NIT], 'reintento-tras-cancelar');
    if (submitted.kind !== 'created') throw new Error('a new job');
    const [first, second] = await claimItems('instancia-a', 2, 120);
    if (!first || !second) throw new Error('two items claimed');
    await sourceFailed(first);
    // Cancelled while the second item's lookup is still waiting on the source.
    expect(await cancelJob(integration.id, submitted.publicId)).toEqual({ kind: 'cancelled' });

    expect(await retryFailedItems(integration.id, submitted.publicId)).toEqual({ kind: 'not_finished' });

    // The running item fails too; the third never ran (cancelled), so it is not retried.
    await sourceFailed(second);
    const retried = await retryFailedItems(integration.id, submitted.publicId);
    if (retried.kind !== 'created') throw new Error(`a retry, not ${retried.kind}`);
    const retry = await readJob(integration.id, retried.publicId);
    expect(retry?.counts).toMatchObject({ total: 2, pending: 2 });
    expect(await identifiers(retried.publicId)).toEqual(['576937-K', '39872769']);
    const [row] = await (await database()).rows<{ total_items: number }>(sql`select total_items from bulk_jobs where public_id = ${retried.publicId}`);
    expect(Number(row!.total_items)).toBe(2);
    // Asked again: the same retry.
    expect(await retryFailedItems(integration.id, submitted.publicId)).toEqual({ kind: 'existing', publicId: retried.publicId });
  });
});
