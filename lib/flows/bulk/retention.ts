import { sql } from 'drizzle-orm';
import { database } from '@/db/client';

// A job holds up to 10,000 items: a few jobs per statement keeps each delete short.
const JOBS_PER_BATCH = 10;

/**
 * Deletes the jobs that finished (completed or cancelled) more than `days` ago, their items (the
 * sealed identifiers and answers) with them. The charges stay in the ledger and the lookups in the
 * query records, under those records' own retention. Returns how many jobs went.
 */
export async function purgeExpiredBulkJobs(days: number, now = new Date()): Promise<number> {
  const handle = await database();
  let deleted = 0;
  for (;;) {
    const rows = await handle.rows(sql`
      delete from bulk_jobs where id in (
        select id from bulk_jobs
         where finished_at is not null and finished_at < ${now.toISOString()}::timestamptz - make_interval(days => ${days}::integer)
         order by finished_at limit ${JOBS_PER_BATCH}::integer)
      returning id`);
    deleted += rows.length;
    if (rows.length < JOBS_PER_BATCH) return deleted;
  }
}
