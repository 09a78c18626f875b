// A migrated, empty database made once and copied for each test file, instead of each file
// creating and migrating its own. On PGlite a new directory runs initdb inside WebAssembly (about
// 4 s quiet, over 10 s while the other worker runs a test) before its 26 migrations (about 1 s);
// copying a migrated directory takes about 0.1 s. On PostgreSQL, CREATE DATABASE … TEMPLATE copies
// the migrated one instead of replaying the migrations on every new database.
//
// Both are named by a hash of the migrations (and of PGlite's version, for its directory), so a new
// migration makes a new template and an unchanged tree reuses the last one across runs: the PGlite
// directory lives in node_modules/.cache, the PostgreSQL template on the server the run was given.
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import postgres from 'postgres';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const MIGRATIONS_FOLDER = path.join(ROOT, 'db', 'migrations');
const PGLITE_CACHE = path.join(ROOT, 'node_modules', '.cache', 'gateway-tests');
const POSTGRES_TEMPLATE_PREFIX = 'gateway_test_template_';

/** A hash of every migration file (SQL and drizzle's journal), plus `extra`. */
function migrationsHash(extra = ''): string {
  const hash = createHash('sha256').update(extra);
  const files = fs.readdirSync(MIGRATIONS_FOLDER, { recursive: true, encoding: 'utf8' }).sort();
  for (const file of files) {
    const full = path.join(MIGRATIONS_FOLDER, file);
    if (!fs.statSync(full).isFile()) continue;
    hash.update(file).update('\0').update(fs.readFileSync(full)).update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * The path of a migrated PGlite directory for today's migrations, made if missing. It is made in a
 * temporary directory and renamed into place once complete, so a run stopped halfway, or two runs
 * at once, never leave a half-made template behind.
 */
export async function ensurePgliteTemplate(): Promise<string> {
  const pgliteVersion = JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', '@electric-sql', 'pglite', 'package.json'), 'utf8')).version;
  const name = `pglite-template-${migrationsHash(pgliteVersion)}`;
  const template = path.join(PGLITE_CACHE, name);
  if (fs.existsSync(template)) return template;

  const started = performance.now();
  fs.mkdirSync(PGLITE_CACHE, { recursive: true });
  const building = path.join(PGLITE_CACHE, `.${name}-${process.pid}-${randomBytes(3).toString('hex')}`);
  try {
    const { PGlite } = await import('@electric-sql/pglite');
    const { drizzle } = await import('drizzle-orm/pglite');
    const { migrate } = await import('drizzle-orm/pglite/migrator');
    const client = await PGlite.create(building);
    try {
      await migrate(drizzle(client), { migrationsFolder: MIGRATIONS_FOLDER });
    } finally {
      await client.close();
    }
    try {
      fs.renameSync(building, template);
    } catch (error) {
      // Another run made it first: theirs is as good as ours.
      if (!fs.existsSync(template)) throw error;
    }
  } finally {
    fs.rmSync(building, { recursive: true, force: true });
  }
  // Templates of other migrations once a day old (a younger one may be in use by a run beside
  // this one), and any a stopped run left half-made (its process gone).
  for (const entry of fs.readdirSync(PGLITE_CACHE)) {
    const builder = /^\.pglite-template-\w+-(\d+)-/.exec(entry);
    const stale = builder
      ? !processIsAlive(Number(builder[1]))
      : entry.startsWith('pglite-template-') && entry !== name && olderThanADay(fs.statSync(path.join(PGLITE_CACHE, entry)).mtimeMs);
    if (stale) fs.rmSync(path.join(PGLITE_CACHE, entry), { recursive: true, force: true });
  }
  console.log(`[tests] embedded database template: migrated in ${((performance.now() - started) / 1000).toFixed(1)} s (${name})`);
  return template;
}

/** Copies the PGlite template into `directory` (which must not exist yet). */
export function copyPgliteTemplate(template: string, directory: string): void {
  fs.cpSync(template, directory, { recursive: true, errorOnExist: true, force: false });
}

/**
 * The name of a migrated database on the PostgreSQL server `adminUrl` names, made if missing. It
 * is migrated under a temporary name and renamed once complete; nobody stays connected to it, so
 * CREATE DATABASE … TEMPLATE can copy it (PostgreSQL refuses a template others are connected to).
 */
export async function ensurePostgresTemplate(adminUrl: string): Promise<string> {
  const name = `${POSTGRES_TEMPLATE_PREFIX}${migrationsHash()}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    const [existing] = await admin`select 1 as found from pg_database where datname = ${name}`;
    if (existing) return name;

    const started = performance.now();
    const building = `${POSTGRES_TEMPLATE_PREFIX}building_${process.pid}_${randomBytes(3).toString('hex')}`;
    await admin.unsafe(`create database "${building}"`);
    try {
      const url = new URL(adminUrl);
      url.pathname = `/${building}`;
      const connection = postgres(url.toString(), { max: 1, onnotice: () => {} });
      try {
        const { drizzle } = await import('drizzle-orm/postgres-js');
        const { migrate } = await import('drizzle-orm/postgres-js/migrator');
        await migrate(drizzle(connection), { migrationsFolder: MIGRATIONS_FOLDER });
      } finally {
        await connection.end({ timeout: 5 });
      }
      // When it was made: another run's template is dropped only once it is a day old (below).
      await admin.unsafe(`comment on database "${building}" is '${TEMPLATE_NOTE}${new Date().toISOString()}'`);
      try {
        await admin.unsafe(`alter database "${building}" rename to "${name}"`);
      } catch (error) {
        // Another run made it first (duplicate_database): theirs is as good as ours.
        if ((error as { code?: string }).code !== '42P04') throw error;
      }
    } finally {
      await admin.unsafe(`drop database if exists "${building}" with (force)`);
    }
    // Templates of other migrations once a day old, and any a stopped run left half-made (its
    // process gone). A younger one may be another checkout's run in progress, copying it now: a
    // run on a branch with a new migration once dropped the template of a run beside it.
    const others = await admin<{ datname: string; note: string | null }[]>`
      select datname, shobj_description(oid, 'pg_database') as note from pg_database
      where starts_with(datname, ${POSTGRES_TEMPLATE_PREFIX}) and datname <> ${name}`;
    for (const { datname, note } of others) {
      const builder = /^gateway_test_template_building_(\d+)_/.exec(datname);
      const stale = builder ? !processIsAlive(Number(builder[1])) : olderThanADay(note?.startsWith(TEMPLATE_NOTE) ? Date.parse(note.slice(TEMPLATE_NOTE.length)) : NaN);
      if (stale) await admin.unsafe(`drop database if exists "${datname}" with (force)`);
    }
    console.log(`[tests] PostgreSQL template database: migrated in ${((performance.now() - started) / 1000).toFixed(1)} s (${name})`);
    return name;
  } finally {
    await admin.end({ timeout: 5 });
  }
}

const TEMPLATE_NOTE = 'gateway test template, made ';
const A_DAY_MS = 24 * 60 * 60 * 1000;

/** True for a time more than a day ago, and for an unknown one (NaN: a template made before the note). */
function olderThanADay(madeAtMs: number): boolean {
  return !(Date.now() - madeAtMs <= A_DAY_MS);
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
