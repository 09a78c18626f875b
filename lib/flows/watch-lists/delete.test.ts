// Deleting a list while one of its runs is being compared. The comparison (computeRunChanges) takes
// the run's job row, then changes the list's entries and row; the delete takes the list's row and
// then, cancelling the run and through the cascade (ON DELETE SET NULL), every run's row. Taken in
// those opposite orders PostgreSQL found a deadlock and aborted one of the two: DELETE
// /api/vigilancias/{id} answered 500, about one time in six in tests/bulk/watch-lists.test.ts. On
// PGlite one session serves one transaction at a time, so the same steps simply take turns.
import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { createTestIntegration, type TestIntegration } from '@/tests/conformance/harness';
import { useTestDatabase, type TestDatabase } from '@/tests/support/test-database';
import { createWatchList, deleteWatchList, readWatchList } from './lists';
import { startDueRuns } from './runs';
import { whenDue } from '@/tests/support/watch-lists';

let testDatabase: TestDatabase;
let integration: TestIntegration;

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  integration = await createTestIntegration('vigilancia-borrar', { tariffCentavos: 150, balanceCentavos: 1_500 });
});

afterAll(async () => {
  await testDatabase?.cleanup();
});

describe('deleting a watch list', () => {
  it('waits for a comparison that holds its run, and both finish', async () => {
    const created = await createWatchList(integration.id, { name: 'Clientes', catalog: 'omisos', schedule: 'semanal', nits: ['576937-K'] });
    if (created.kind !== 'created') throw new Error('a new list');
    const [run] = await startDueRuns(whenDue(created.list));
    const handle = await database();
    const [ids] = await handle.rows<{ job_id: number; list_id: number }>(sql`
      select j.id as job_id, j.watch_list_id as list_id from bulk_jobs j where j.public_id = ${run!.jobPublicId}::text`);
    const jobId = Number(ids!.job_id);
    const listId = Number(ids!.list_id);

    let deletion: Promise<boolean> | undefined;
    if (handle.kind === 'postgres') {
      // The comparison's order, on a connection of its own: the run's row first, the list's after.
      const comparison = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
      try {
        await comparison.begin(async (tx) => {
          await tx`update bulk_jobs set changes_computed_at = now() where id = ${jobId}`;
          deletion = deleteWatchList(integration.id, created.list.publicId);
          await untilAnotherSessionWaitsForALock(tx);
          await tx`update watch_lists set changes_total = changes_total + 1 where id = ${listId}`;
        });
      } finally {
        await comparison.end({ timeout: 5 });
      }
    } else {
      await handle.rows(sql`update bulk_jobs set changes_computed_at = now() where id = ${jobId}::integer`);
      deletion = deleteWatchList(integration.id, created.list.publicId);
    }

    expect(await deletion).toBe(true);
    expect(await readWatchList(integration.id, created.list.publicId)).toBeNull();
    const [job] = await handle.rows<{ state: string; watch_list_id: number | null }>(sql`select state, watch_list_id from bulk_jobs where id = ${jobId}::integer`);
    // The run still going was cancelled, and outlives its list as an ordinary job.
    expect(job).toEqual({ state: 'cancelado', watch_list_id: null });
  });
});

/** Until another session of this database waits for a row lock (the deletion, behind this transaction). */
async function untilAnotherSessionWaitsForALock(tx: postgres.TransactionSql): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const [row] = await tx`
      select count(*)::integer as waiting from pg_stat_activity
       where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid()`;
    if (Number(row?.waiting) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the deletion never waited for a lock');
}
