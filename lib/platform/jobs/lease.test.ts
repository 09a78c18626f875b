// A periodic job runs on one instance at a time, only when due, and another instance takes over
// once the holder's lease has expired.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { useTestDatabase, type TestDatabase } from '@/tests/support/test-database';
import { acquireJobLease, releaseJobLease } from './lease';

let testDatabase: TestDatabase;

beforeAll(async () => {
  testDatabase = await useTestDatabase();
});

afterAll(async () => {
  await testDatabase?.cleanup();
});

async function pretendAnotherInstanceHolds(name: string, expiresInSeconds: number): Promise<void> {
  await (await database()).rows(sql`
    update job_leases set holder = 'other-host:1:abc', expires_at = now() + make_interval(secs => ${expiresInSeconds}::integer),
           last_started_at = now() - interval '1 day'
     where name = ${name}::text`);
}

describe('job leases', () => {
  it('give a due job to one instance, and not again before it is due', async () => {
    expect(await acquireJobLease('daily', 86_400_000, 60_000)).toBe(true);
    await releaseJobLease('daily', true);
    expect(await acquireJobLease('daily', 86_400_000, 60_000)).toBe(false);
  });

  it('keep a held job from a second instance until the lease expires', async () => {
    expect(await acquireJobLease('often', 1_000, 60_000)).toBe(true);
    await pretendAnotherInstanceHolds('often', 60);
    expect(await acquireJobLease('often', 1_000, 60_000)).toBe(false);
    await pretendAnotherInstanceHolds('often', -1);
    expect(await acquireJobLease('often', 1_000, 60_000)).toBe(true);
  });

  it('record when a job last succeeded, not when it failed', async () => {
    expect(await acquireJobLease('flaky', 1_000, 60_000)).toBe(true);
    await releaseJobLease('flaky', false);
    const [row] = await (await database()).rows<{ last_finished_at: unknown }>(sql`select last_finished_at from job_leases where name = 'flaky'`);
    expect(row!.last_finished_at).toBeNull();
  });
});
