import path from 'node:path';
import { env } from '@/lib/env';
import type { DatabaseHandle } from './client';

const MIGRATIONS_FOLDER = path.join(process.cwd(), 'db', 'migrations');
// Any constant works; it only has to be the same for every instance of this app.
const MIGRATION_LOCK_KEY = 7_275_001;

/**
 * Applies drizzle-kit's migrations. On PostgreSQL a session advisory lock, held on a dedicated
 * single connection, makes instances that start together (a rolling deploy) apply them one at a
 * time instead of racing.
 */
export async function applyMigrations(handle: DatabaseHandle): Promise<void> {
  if (handle.kind === 'pglite') {
    const { migrate } = await import('drizzle-orm/pglite/migrator');
    await migrate(handle.db as never, { migrationsFolder: MIGRATIONS_FOLDER });
    return;
  }
  const url = env().DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is required to migrate PostgreSQL');
  const { default: connect } = await import('postgres');
  const { drizzle } = await import('drizzle-orm/postgres-js');
  const { migrate } = await import('drizzle-orm/postgres-js/migrator');
  const client = connect(url, { max: 1, onnotice: () => {} });
  try {
    await client`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`;
    try {
      await migrate(drizzle(client), { migrationsFolder: MIGRATIONS_FOLDER });
    } finally {
      await client`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`;
    }
  } finally {
    await client.end({ timeout: 5 });
  }
}
