// vitest runs several test files in turn in one process (isolate: false, vitest.config.mts), which
// keeps the loaded packages and the compiled embedded database between them. Before each file this
// setup file puts the process back as a new one would have it: the product's modules are loaded
// afresh, the state they keep on globalThis is gone and process.env is the worker's own again;
// after each file, what it left open (its database) is closed.
import path from 'node:path';
import { afterAll, expect, inject, vi } from 'vitest';
import { SERVER_BRIDGES } from '@/lib/platform/runtime/server-bridges.mjs';

interface WorkerBaseline {
  env: Record<string, string | undefined>;
  globals: Set<PropertyKey>;
  setInterval: typeof setInterval;
}

const BASELINE_KEY = '__testWorkerBaseline';
const holder = globalThis as typeof globalThis & { [BASELINE_KEY]?: WorkerBaseline };
const baseline = (holder[BASELINE_KEY] ??= { env: { ...process.env }, globals: new Set([...Reflect.ownKeys(globalThis), BASELINE_KEY]), setInterval: globalThis.setInterval });

for (const key of Reflect.ownKeys(globalThis)) {
  if (!baseline.globals.has(key) && isProductState(key)) Reflect.deleteProperty(globalThis, key);
}
for (const name of Object.keys(process.env)) {
  if (!(name in baseline.env)) delete process.env[name];
}
Object.assign(process.env, baseline.env);
vi.useRealTimers();
vi.resetModules();

// A file's intervals end with it. A job loop a file started and did not stop went on ticking in the
// next file run in this process, through its own (old) copy of db/client, which opened the next
// file's embedded database as this process's: the app that file then started found the database
// in use and could not start (tests/security/log-hygiene.test.ts, once in CI).
const fileIntervals = new Set<ReturnType<typeof setInterval>>();
globalThis.setInterval = ((...args: Parameters<typeof setInterval>) => {
  const interval = baseline.setInterval(...args);
  fileIntervals.add(interval);
  return interval;
}) as typeof setInterval;

/**
 * What the product keeps on globalThis (so that Next's copies of a module share it): `__name` keys
 * and `Symbol.for('gateway.…')`. Packages' own globals (undici's dispatcher) stay, as they would
 * in a process that had loaded them.
 */
function isProductState(key: PropertyKey): boolean {
  return typeof key === 'string' ? key.startsWith('__') : typeof key === 'symbol' && (key.description ?? '').startsWith('gateway.');
}

afterAll(async () => {
  for (const interval of fileIntervals) clearInterval(interval);
  assertUsedNoDatabaseIfListed(expect.getState().testPath);
  const { closeDatabase } = await import('@/db/client');
  await closeDatabase();
});

/**
 * A file vitest.config.mts found using no database runs on PGlite only: it must not open one (through
 * the product's database(), which would open the default location, not a test database). Read
 * before db/client is imported below, which would make its state.
 */
function assertUsedNoDatabaseIfListed(filepath: string | undefined): void {
  if (!filepath) throw new Error('fresh-file: vitest named no test file');
  const relative = path.relative(path.resolve(import.meta.dirname, '..', '..'), filepath).split(path.sep).join('/');
  if (!inject('filesUsingNoDatabase').includes(relative)) return;
  const state = (globalThis as { [key: symbol]: Map<string, { handle?: unknown }> | undefined })[SERVER_BRIDGES.processState];
  if (state?.get('database')?.handle) {
    throw new Error(`${relative} opened a database, but it reaches no tests/support/test-database.ts through its imports, so it runs on the embedded database only (vitest.config.mts): get the database from useTestDatabase()`);
  }
}
