import path from 'node:path';
import { sql } from 'drizzle-orm';
import { ADVISORY_LOCKS, withAdvisoryLock } from './advisory-lock';
import type { DatabaseHandle } from './client';

const MIGRATIONS_FOLDER = path.join(process.cwd(), 'db', 'migrations');

// Every run also makes sure the query records' months ahead have partitions (db/migrations/0066,
// lib/core/records/partitions.ts): an instance that starts, or a deploy's migration job, never
// leaves the next months without one, whatever happened to the daily job.
const ENSURE_MONTHS_AHEAD = `select query_records_ensure_months(date_trunc('month', now() at time zone 'UTC')::date,
                                   (date_trunc('month', now() at time zone 'UTC') + interval '3 months')::date)`;

/**
 * Applies drizzle-kit's migrations. On PostgreSQL they run under an advisory lock on a dedicated
 * single connection, so instances that start together apply them one at a time.
 */
export async function applyMigrations(handle: DatabaseHandle): Promise<void> {
  await withAdvisoryLock(handle, ADVISORY_LOCKS.migrations, async (connection) => {
    if (!connection) {
      // The embedded database, in this process or through the socket of the process that has it.
      const { migrate } = handle.servedBy ? await import('drizzle-orm/postgres-js/migrator') : await import('drizzle-orm/pglite/migrator');
      await migrate(handle.db as never, { migrationsFolder: MIGRATIONS_FOLDER });
      await handle.rows(sql.raw(ENSURE_MONTHS_AHEAD));
      return;
    }
    const { drizzle } = await import('drizzle-orm/postgres-js');
    const { migrate } = await import('drizzle-orm/postgres-js/migrator');
    await migrate(drizzle(connection), { migrationsFolder: MIGRATIONS_FOLDER });
    await connection.unsafe(ENSURE_MONTHS_AHEAD);
  });
}
