import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { sql, type SQL } from 'drizzle-orm';
import { database } from '@/db/client';

/** This process, as lease holders name it: readable in the table, unique across restarts. */
export const INSTANCE_NAME = `${os.hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;

// A check may come a little early by the database's clock (timers drift, round trips vary);
// a run that started this share of the interval ago counts as due.
const DUE_TOLERANCE = 0.9;

/**
 * Takes the job's lease for `leaseMs` when the job is due (its last run started at least
 * `everyMs` ago, or it never ran) and no other instance holds an unexpired lease. One statement:
 * two instances asking at once cannot both get it.
 */
export async function acquireJobLease(name: string, everyMs: number, leaseMs: number): Promise<boolean> {
  const rows = await (await database()).rows(sql`
    insert into job_leases as l (name, holder, expires_at, last_started_at)
    values (${name}::text, ${INSTANCE_NAME}::text, now() + make_interval(secs => ${leaseMs / 1000}::double precision), now())
    on conflict (name) do update set holder = excluded.holder, expires_at = excluded.expires_at, last_started_at = excluded.last_started_at
     where (l.expires_at < now() or l.holder = excluded.holder)
       and l.last_started_at <= now() - make_interval(secs => ${(everyMs * DUE_TOLERANCE) / 1000}::double precision)
    returning l.name`);
  return rows.length > 0;
}

/** Frees the lease for whichever instance is next, and records when the job last succeeded. */
export async function releaseJobLease(name: string, finished: boolean): Promise<void> {
  await (await database()).rows(sql`
    update job_leases
       set expires_at = now(), last_finished_at = case when ${finished}::boolean then now() else last_finished_at end
     where name = ${name}::text and holder = ${INSTANCE_NAME}::text`);
}

/**
 * Takes the lease `name` for `leaseMs` when nobody holds it (this instance included): for work
 * people start by hand, one run at a time across every instance, whenever asked. One statement;
 * inside the caller's transaction when given, so what the run writes first appears with the lease.
 */
export async function acquireFreeLease(name: string, leaseMs: number, transaction?: { execute(query: SQL): Promise<unknown> }): Promise<boolean> {
  const query = sql`
    insert into job_leases as l (name, holder, expires_at, last_started_at)
    values (${name}::text, ${INSTANCE_NAME}::text, now() + make_interval(secs => ${leaseMs / 1000}::double precision), now())
    on conflict (name) do update set holder = excluded.holder, expires_at = excluded.expires_at, last_started_at = excluded.last_started_at
     where l.expires_at < now()
    returning l.name`;
  if (!transaction) return (await (await database()).rows(query)).length > 0;
  const result = await transaction.execute(query);
  return (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows).length > 0;
}

/** Keeps a lease this instance holds for another `leaseMs`; false when it is no longer ours. */
export async function renewJobLease(name: string, leaseMs: number): Promise<boolean> {
  const rows = await (await database()).rows(sql`
    update job_leases set expires_at = now() + make_interval(secs => ${leaseMs / 1000}::double precision)
     where name = ${name}::text and holder = ${INSTANCE_NAME}::text
    returning name`);
  return rows.length > 0;
}
