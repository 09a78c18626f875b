// A finished job's results are deleted BULK_RESULT_RETENTION_DAYS after it ended, with its items;
// a running job's never, however old.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { createTestIntegration, type TestIntegration } from '@/tests/conformance/harness';
import { useTestDatabase, type TestDatabase } from '@/tests/support/test-database';
import { cancelJob, readJob, submitJob } from './jobs';
import { purgeExpiredBulkJobs } from './retention';

let testDatabase: TestDatabase;
let integration: TestIntegration;

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  integration = await createTestIntegration('lotes-retencion');
});

afterAll(async () => {
  await testDatabase?.cleanup();
});

async function itemsOf(publicId: string): Promise<number> {
  const [row] = await (await database()).rows<{ n: number }>(sql`
    select count(*)::int as n from bulk_job_items i join bulk_jobs j on j.id = i.job_id where j.public_id = ${publicId}`);
  return row!.n;
}

describe("a bulk job's results", () => {
  it('are deleted with the job once the retention has passed since it ended, and not before', async () => {
    const finished = await submitJob(integration.id, 'omisos', ['576937-K', '12345678'], 'terminado');
    const running = await submitJob(integration.id, 'omisos', ['576937-K'], 'en-curso');
    if (finished.kind !== 'created' || running.kind !== 'created') throw new Error('both jobs are new');
    expect(await cancelJob(integration.id, finished.publicId)).toEqual({ kind: 'cancelled' });
    const in29Days = new Date(Date.now() + 29 * 86_400_000);
    const in31Days = new Date(Date.now() + 31 * 86_400_000);

    expect(await purgeExpiredBulkJobs(30, in29Days)).toBe(0);
    expect(await itemsOf(finished.publicId)).toBe(2);
    expect(await purgeExpiredBulkJobs(30, in31Days)).toBe(1);
    expect(await readJob(integration.id, finished.publicId)).toBeNull();
    expect(await itemsOf(finished.publicId)).toBe(0);
    // Running: kept, whatever its age.
    expect(await readJob(integration.id, running.publicId)).toMatchObject({ state: 'en_curso' });
  });
});
