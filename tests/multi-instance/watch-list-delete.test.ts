// A watch list deleted while another instance's scheduler is starting its run (PostgreSQL, two
// connections): the run that scheduler commits is cancelled with the list, never left running,
// and charging, for NITs the integrator no longer watches. The scheduler claims a due list FOR
// UPDATE SKIP LOCKED and inserts its run in that transaction (lib/flows/watch-lists/runs.ts); the delete
// takes the list's row first (lib/flows/watch-lists/lists.ts), so it sees that run once it commits.
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { createWatchList, deleteWatchList } from '@/lib/flows/watch-lists';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { newIntegration, requiredEnv } from './support';

let testDatabase: TestDatabase;
let scheduler: postgres.Sql;

beforeAll(async () => {
  requiredEnv('DATABASE_URL');
  testDatabase = await useTestDatabase();
  // Another instance's connection, as its scheduler's transaction holds it.
  scheduler = postgres(testDatabase.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
});

afterAll(async () => {
  await scheduler?.end();
  await testDatabase?.cleanup();
});

/** Until a statement of this database waits for a row lock: the delete has reached the list's row. */
async function untilSomeoneWaitsForALock(tx: postgres.TransactionSql): Promise<void> {
  for (let attempt = 0; attempt < 500; attempt++) {
    // A transaction reads pg_stat_activity once and keeps that copy: cleared for each look.
    await tx`select pg_stat_clear_snapshot()`;
    const [row] = await tx`select count(*)::int as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`;
    if (row!.waiting > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the delete never waited for the list row');
}

describe('a watch list deleted while another instance starts its run', () => {
  it('cancels the run that instance commits: nothing of it is left running', async () => {
    const integration = await newIntegration(150, 15_000);
    const created = await createWatchList(integration.id, { name: 'Proveedores', catalog: 'omisos', schedule: 'semanal', nits: ['576937-K'] });
    if (created.kind !== 'created') throw new Error('a new list');
    const listId = created.list.publicId;
    const jobId = `lote_${randomBytes(10).toString('hex')}`;

    let deleted: Promise<boolean> | undefined;
    await scheduler.begin(async (tx) => {
      // The scheduler's claim of the due list, as startDueRuns makes it.
      const [list] = await tx`select id from watch_lists where public_id = ${listId} for update skip locked`;
      expect(list).toBeDefined();
      // The integrator deletes the list meanwhile, through the API or the portal on this instance.
      deleted = deleteWatchList(integration.id, listId);
      await untilSomeoneWaitsForALock(tx);
      // The scheduler's run, with its items, committed after the delete began.
      const [job] = await tx`
        insert into bulk_jobs (public_id, integration_id, catalog, idempotency_key_hash, request_hash, total_items, watch_list_id, watch_list_run)
        values (${jobId}, ${integration.id}, 'omisos', ${`run-${jobId}`}, ${`run-${jobId}`}, 1, ${list!.id}, 1)
        returning id`;
      await tx`
        insert into bulk_job_items (job_id, position, identifier_sealed, status)
        select ${job!.id}, e.position, e.identifier_sealed, 'pendiente' from watch_list_entries e where e.watch_list_id = ${list!.id}`;
      await tx`update watch_lists set runs = 1 where id = ${list!.id}`;
    });
    expect(await deleted).toBe(true);

    const [run] = await (await database()).rows<{ state: string; finished: boolean }>(sql`
      select state, finished_at is not null as finished from bulk_jobs where public_id = ${jobId}`);
    expect(run).toEqual({ state: 'cancelado', finished: true });
    const [list] = await (await database()).rows<{ lists: number }>(sql`select count(*)::int as lists from watch_lists where public_id = ${listId}`);
    expect(list!.lists).toBe(0);
  });
});
