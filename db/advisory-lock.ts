import type postgres from 'postgres';
import { env } from '@/lib/platform/settings/env';
import type { DatabaseHandle } from './client';

/** Keys of the app's advisory locks: any constants, the same in every instance of this app. */
export const ADVISORY_LOCKS = {
  migrations: 7_275_001,
  seed: 7_275_002,
} as const;

/**
 * Runs `fn` while holding a PostgreSQL session advisory lock, on a dedicated connection that is
 * handed to `fn`: instances starting together (a rolling deploy, two replicas on an empty database)
 * take turns instead of racing. The embedded PGlite is one session whose users take turns a
 * transaction at a time (db/embedded-share.ts), so there `fn` just runs.
 */
export async function withAdvisoryLock<T>(handle: DatabaseHandle, key: number, fn: (connection?: postgres.Sql) => Promise<T>): Promise<T> {
  if (handle.kind === 'pglite') return fn();
  const url = env().DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is required to lock PostgreSQL');
  const { default: connect } = await import('postgres');
  const connection = connect(url, { max: 1, onnotice: () => {} });
  try {
    await connection`select pg_advisory_lock(${key})`;
    try {
      return await fn(connection);
    } finally {
      await connection`select pg_advisory_unlock(${key})`;
    }
  } finally {
    await connection.end({ timeout: 5 });
  }
}
