// The scheduler's tick on every instance compares the runs left uncompared, then starts the due
// lists. One run whose comparison fails (an answer that cannot be opened) is logged and left for a
// later tick: it never keeps the due lists of every integration from starting.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { completeFinishedJobs } from '@/lib/flows/bulk/items';
import { createTestIntegration, type TestIntegration } from '@/tests/conformance/harness';
import { useTestDatabase, type TestDatabase } from '@/tests/support/test-database';
import { createWatchList } from './lists';
import { startDueRuns, watchListTick } from './runs';
import { whenDue } from '@/tests/support/watch-lists';

let testDatabase: TestDatabase;
let integration: TestIntegration;

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  integration = await createTestIntegration('vigilancia-turno', { tariffCentavos: 150, balanceCentavos: 1_500 });
});

afterAll(async () => {
  await testDatabase?.cleanup();
});

describe("the watch lists' tick", () => {
  it('starts the due lists when a run before them cannot be compared', async () => {
    const broken = await createWatchList(integration.id, { name: 'Ilegible', catalog: 'omisos', schedule: 'semanal', nits: ['576937-K'] });
    if (broken.kind !== 'created') throw new Error('a new list');
    const [run] = await startDueRuns(whenDue(broken.list));
    const handle = await database();
    // Its answer was written under a key no longer held (or damaged): the comparison cannot open it.
    await handle.rows(sql`
      update bulk_job_items i set status = 'encontrado', result_sealed = 'pd1:0badc0de:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', answered_at = now()
        from bulk_jobs j where j.id = i.job_id and j.public_id = ${run!.jobPublicId}`);
    const [job] = await handle.rows<{ id: number }>(sql`select id from bulk_jobs where public_id = ${run!.jobPublicId}`);
    // Completed by an instance with no watch-list listener (it died before telling): the tick's sweep compares it.
    await completeFinishedJobs(Number(job!.id));

    const due = await createWatchList(integration.id, { name: 'Proveedores', catalog: 'omisos', schedule: 'semanal', nits: ['576937-K'] });
    if (due.kind !== 'created') throw new Error('a new list');
    const started = await watchListTick(whenDue(due.list));
    expect(started.map((one) => one.listPublicId)).toEqual([due.list.publicId]);
    // The unreadable run stays uncompared, for a later tick (after the key is restored).
    const [pending] = await handle.rows<{ compared: boolean }>(sql`select changes_computed_at is not null as compared from bulk_jobs where id = ${Number(job!.id)}::integer`);
    expect(pending!.compared).toBe(false);
  });
});
