// One fresh, migrated database per test file: a new database on the run's PostgreSQL server when
// DATABASE_URL was given (CI), else an embedded PGlite directory in memory (tests/support/scratch.ts).
import fs from 'node:fs';
import path from 'node:path';
import postgres from 'postgres';
import { inject } from 'vitest';
import { closeDatabase, database, embeddedDatabaseShared, type DatabaseHandle } from '@/db/client';
import { applyMigrations } from '@/db/migrate';
import { assertLocalDatabaseUrl } from './database-guard';
import { copyPgliteTemplate } from './database-template';
import { scratchRoot } from './scratch';
import { TEST_PERSONAL_DATA_KEYS } from './personal-data-keys';
import { TEST_CONSTANCIA_KEYS } from './constancia-keys';
import { setProcessSlot } from '@/lib/platform/runtime/process-state';

/** Where a test database lives, as the app, the CLI and this process read it from the environment. */
export interface DatabaseLocation {
  DATABASE_URL?: string;
  PGLITE_DIR?: string;
}

export interface TestDatabase {
  kind: 'postgres' | 'pglite';
  env: DatabaseLocation;
  /**
   * Runs `fn` with this process's connection. On PGlite the connection is closed afterwards, so a
   * CLI process or the app can open the directory next (one process at a time), unless this
   * process lends it to the CLI on its socket (tests/support/cli.ts).
   */
  use<T>(fn: (handle: DatabaseHandle) => Promise<T>): Promise<T>;
  /** Closes this process's connection and drops the database (or deletes the directory). */
  cleanup(): Promise<void>;
}

let active: TestDatabase | undefined;
let created = 0;

/** The database useTestDatabase() made for this test file, if any. */
export function activeTestDatabase(): TestDatabase | undefined {
  return active;
}

/** Forgets the parsed settings, so the next env() reads process.env again. */
export function resetEnvCache(): void {
  setProcessSlot('env', undefined);
}

/**
 * Creates and migrates a database for this test file and points this process at it: a copy of the
 * run's migrated template (tests/support/database-template.ts), or with `fromScratch` an empty
 * database the app's own applyMigrations() migrates (what the migrations' own tests need).
 */
export async function useTestDatabase(options: { fromScratch?: boolean } = {}): Promise<TestDatabase> {
  await closeDatabase();
  // This process seals and opens records with the keys the app and the CLI of the test get.
  Object.assign(process.env, TEST_PERSONAL_DATA_KEYS, TEST_CONSTANCIA_KEYS);
  const adminUrl = inject('adminDatabaseUrl');
  const testDatabase = adminUrl
    ? await createPostgresDatabase(adminUrl, options.fromScratch ? null : inject('postgresTemplateDatabase'))
    : createPgliteDirectory(options.fromScratch ? null : inject('pgliteTemplateDir'));
  active = testDatabase;
  resetEnvCache();
  // A copy of the run's PGlite template is migrated already (the template is named by the
  // migrations' hash). Opening it here to find nothing to apply, then closing it for the app, the
  // CLI or the file's first query to open again, cost a PGlite start per file (about half a second).
  if (testDatabase.kind === 'pglite' && !options.fromScratch) return testDatabase;
  try {
    const handle = await database();
    if (handle.kind !== testDatabase.kind) throw new Error(`expected a ${testDatabase.kind} database, opened ${handle.kind}`);
    // On a copy of the run's template this finds nothing to apply; from scratch it migrates.
    await applyMigrations(handle);
    if (testDatabase.kind === 'pglite') await closeDatabase();
  } catch (error) {
    await testDatabase.cleanup();
    throw error;
  }
  return testDatabase;
}

async function createPostgresDatabase(adminUrl: string, template: string | null): Promise<TestDatabase> {
  const url = assertLocalDatabaseUrl(adminUrl);
  const name = `gateway_test_${process.pid}_${++created}_${Math.random().toString(36).slice(2, 8)}`;
  await withAdmin(adminUrl, (sql) => sql.unsafe(template ? `create database "${name}" template "${template}"` : `create database "${name}"`));
  url.pathname = `/${name}`;
  const location = { DATABASE_URL: url.toString() };
  process.env.DATABASE_URL = location.DATABASE_URL;
  delete process.env.PGLITE_DIR;
  return {
    kind: 'postgres',
    env: location,
    use: async (fn) => fn(await database()),
    cleanup: async () => {
      await closeDatabase();
      if (active?.env === location) active = undefined;
      // FORCE also ends connections an app or CLI process left behind.
      await withAdmin(adminUrl, (sql) => sql.unsafe(`drop database if exists "${name}" with (force)`));
    },
  };
}

function createPgliteDirectory(template: string | null): TestDatabase {
  const directory = fs.mkdtempSync(path.join(scratchRoot(), 'gateway-test-'));
  const location = { PGLITE_DIR: path.join(directory, 'db') };
  if (template) copyPgliteTemplate(template, location.PGLITE_DIR);
  process.env.PGLITE_DIR = location.PGLITE_DIR;
  delete process.env.DATABASE_URL;
  return {
    kind: 'pglite',
    env: location,
    use: async (fn) => {
      try {
        return await fn(await database());
      } finally {
        // Lent to the CLI on its socket (tests/support/cli.ts): kept open, the CLI connects to it.
        if (!embeddedDatabaseShared()) await closeDatabase();
      }
    },
    cleanup: async () => {
      await closeDatabase();
      if (active?.env === location) active = undefined;
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}

async function withAdmin<T>(adminUrl: string, fn: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    return await fn(sql);
  } finally {
    await sql.end({ timeout: 5 });
  }
}
