import fs from 'node:fs';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { SQL } from 'drizzle-orm';
import type postgres from 'postgres';
import { env } from '@/lib/env';
import { ensurePrivateDirectory } from '@/lib/files/private-directory';
import { currentLookupTrace } from '@/lib/metrics/lookup-trace';
import { metrics } from '@/lib/metrics/registry';
import * as schema from './schema';

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

/** One open database per process: PostgreSQL when DATABASE_URL is set, else embedded PGlite. */
export interface DatabaseHandle {
  kind: 'postgres' | 'pglite';
  db: Database;
  /** Runs raw SQL and returns its rows, whichever driver is underneath. */
  rows<T extends Record<string, unknown>>(query: SQL): Promise<T[]>;
  close(): Promise<void>;
}

interface DatabaseState {
  handle?: Promise<DatabaseHandle>;
}

// Kept on globalThis so hot reloads, duplicate module copies and route bundles share one handle.
const state = ((globalThis as Record<string, unknown>).__gatewayDatabase ??= {}) as DatabaseState;

/** Opens the database on first use (never at import time: `next build` must not touch it). */
export function database(): Promise<DatabaseHandle> {
  state.handle ??= openDatabase().catch((error: unknown) => {
    state.handle = undefined;
    throw error;
  });
  return state.handle;
}

export async function db(): Promise<Database> {
  return (await database()).db;
}

/** Closes the process's database (CLI and tests); the next call to database() reopens it. */
export async function closeDatabase(): Promise<void> {
  const pending = state.handle;
  state.handle = undefined;
  if (pending) await (await pending).close();
}

async function openDatabase(): Promise<DatabaseHandle> {
  const settings = env();
  if (settings.DATABASE_URL) return openPostgres(settings.DATABASE_URL, settings.DATABASE_POOL_MAX);
  return openPglite(path.resolve(settings.PGLITE_DIR));
}

/**
 * Counts every statement drizzle sends (both drivers call this once per query), per instance and
 * per lookup: the budget of a billed lookup is two. BEGIN and COMMIT of a transaction are not
 * counted; no lookup uses one.
 */
const roundTripCounter = {
  logQuery(): void {
    metrics().databaseRoundTrips.inc();
    const trace = currentLookupTrace();
    if (trace) trace.databaseRoundTrips++;
  },
};

async function openPostgres(url: string, poolMax: number): Promise<DatabaseHandle> {
  const { default: connect } = await import('postgres');
  const { drizzle } = await import('drizzle-orm/postgres-js');
  const client: postgres.Sql = connect(url, { max: poolMax, onnotice: () => {} });
  const database = drizzle(client, { schema, logger: roundTripCounter }) as unknown as Database;
  return {
    kind: 'postgres',
    db: database,
    rows: async <T extends Record<string, unknown>>(query: SQL) => (await database.execute(query)) as unknown as T[],
    close: () => client.end({ timeout: 5 }),
  };
}

async function openPglite(dataDir: string): Promise<DatabaseHandle> {
  const releaseLock = acquireDirectoryLock(dataDir);
  try {
    const { PGlite } = await import('@electric-sql/pglite');
    const { drizzle } = await import('drizzle-orm/pglite');
    const client: PGlite = await PGlite.create(dataDir);
    const database = drizzle(client, { schema, logger: roundTripCounter }) as unknown as Database;
    return {
      kind: 'pglite',
      db: database,
      rows: async <T extends Record<string, unknown>>(query: SQL) =>
        ((await database.execute(query)) as unknown as { rows: T[] }).rows,
      close: async () => {
        await client.close();
        releaseLock();
      },
    };
  } catch (error) {
    releaseLock();
    throw error;
  }
}

/**
 * PGlite has no lock across processes, and two processes on one data directory corrupt it.
 * A pid file next to the directory turns that into a clear error instead.
 */
function acquireDirectoryLock(dataDir: string): () => void {
  const lockFile = `${dataDir}.lock`;
  ensurePrivateDirectory(path.dirname(lockFile));
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
      const release = () => {
        process.removeListener('exit', release);
        try {
          if (fs.readFileSync(lockFile, 'utf8') === String(process.pid)) fs.unlinkSync(lockFile);
        } catch {
          // Already gone: nothing to release.
        }
      };
      process.on('exit', release);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(fs.readFileSync(lockFile, 'utf8'));
      if (holder && holder !== process.pid && isAlive(holder)) {
        throw new Error(
          `The embedded database ${dataDir} is in use by process ${holder} (is the app running?). ` +
            'Stop it first, or point DATABASE_URL at PostgreSQL to share one database between processes.',
        );
      }
      fs.rmSync(lockFile, { force: true });
    }
  }
  throw new Error(`Could not lock the embedded database ${dataDir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
