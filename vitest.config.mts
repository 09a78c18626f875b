import fs from 'node:fs';
import path from 'node:path';
import { defineConfig } from 'vitest/config';
import { filesUsingNoDatabase } from './tests/support/database-use';

/**
 * drizzle-orm, bundled once for the test processes. Node.js 24 re-reads a package's package.json for
 * every file it imports from it (nodejs/node#60397), and drizzle-orm's is 179 KB with some 200
 * files: every test file spent about a second importing it, some 130 s of `npm test`'s time. Vite's
 * dependency optimizer bundles it into a few files (node_modules/.vite) that every worker reuses.
 * Every entry point the code imports is listed, so all share one copy of drizzle's classes.
 */
export const DRIZZLE_BUNDLED_FOR_TESTS = {
  server: { deps: { inline: [/\/node_modules\/drizzle-orm\//] } },
  optimizer: {
    ssr: {
      enabled: true,
      include: [
        'drizzle-orm',
        'drizzle-orm/pg-core',
        'drizzle-orm/pglite',
        'drizzle-orm/pglite/migrator',
        'drizzle-orm/postgres-js',
        'drizzle-orm/postgres-js/migrator',
      ],
    },
  },
};

// tests/multi-instance needs real PostgreSQL and Redis servers: npm run test:multi-instance.
// .next* build directories (tests, e2e, benchmarks) hold copies of server packages, pino's tests included.
const EXCLUDED_DIRECTORIES = ['node_modules', '.git', '.next*', 'e2e', '.data', 'tests/multi-instance'];

/**
 * Which files run on which database. A file that uses the run's database (it reaches
 * tests/support/test-database.ts through its imports: useTestDatabase, the app, the CLI) runs on
 * both, PGlite and PostgreSQL. A file that never does (a pure unit test, or one that brings its own
 * database, as db/embedded-share.test.ts and the app's refused starts do) would do exactly the same
 * twice: it runs only on the embedded database, the default, so `npm test` alone still runs every
 * file and .ci/run every file at least once (tests/support/fresh-file.ts fails such a file that
 * opens a database after all). tests/README.md, "Which database runs which file".
 */
const FILES_USING_NO_DATABASE = filesUsingNoDatabase(import.meta.dirname, testFilesUnder(import.meta.dirname));
const ON_POSTGRESQL = Boolean(process.env.DATABASE_URL);

/**
 * Files that check only what the built app's pages and answers look like (headers, framing, the
 * documents and examples, where a sign-in lands), the same whichever database is behind: one
 * database is enough. With TEST_SPLIT_BY_DATABASE=1 (.ci/run, which runs both) each runs only on
 * the database named here, the longer ones on PostgreSQL, whose run is the shorter; otherwise on
 * whichever `npm test` is given. Money, records, concurrency and every data-layer file stay on both.
 */
const ONE_DATABASE_FILES: Record<string, 'pglite' | 'postgresql'> = {
  'tests/security/http-headers.test.ts': 'pglite',
  'tests/security/hsts-off.test.ts': 'pglite',
  'tests/examples/client.test.ts': 'pglite',
  // The client libraries build, pack and run against the app: their behaviour is the app's HTTP, on either database.
  'tests/clients/typescript-client.test.ts': 'pglite',
  'tests/clients/python-client.test.ts': 'postgresql',
  'tests/clients/php-client.test.ts': 'pglite',
  'tests/clients/java-client.test.ts': 'pglite',
  'tests/portal/portal-return-path.test.ts': 'postgresql',
  'tests/openapi/document.test.ts': 'postgresql',
  'tests/security/slip-headers.test.ts': 'postgresql',
  'tests/security/refused-from-headers.test.ts': 'postgresql',
  // A source's breaker opens and closes in the instance's memory; the lookups it refuses make no
  // database round trip (the file asserts it).
  'tests/operations/circuit-breaker.test.ts': 'postgresql',
  // The global per-IP limit is counted in the instance's memory.
  'tests/conformance/global-limit.test.ts': 'postgresql',
  // A password change against a stolen session and the sign-in audit: the same statements as the
  // sign-in files that run on both.
  'tests/security/console-password-change.test.ts': 'pglite',
  // The CLI's words (help, errors, confirmations, the reconciliation's verdict): the same sentences
  // whichever database; the CLI's data paths run on both in the other cli-*.test.ts files.
  'tests/foundation/cli-spanish.test.ts': 'pglite',
};
for (const file of Object.keys(ONE_DATABASE_FILES)) {
  // A file moved or renamed must be listed again, not silently run twice or lost from the split.
  if (!fs.existsSync(path.join(import.meta.dirname, file))) throw new Error(`vitest.config.mts: ONE_DATABASE_FILES lists ${file}, which does not exist`);
}
const SPLIT_BY_DATABASE = process.env.TEST_SPLIT_BY_DATABASE === '1';
const THIS_DATABASE = ON_POSTGRESQL ? 'postgresql' : 'pglite';
/** The files this run leaves to the other database's run. */
const LEFT_TO_THE_OTHER_DATABASE = [
  ...(ON_POSTGRESQL ? FILES_USING_NO_DATABASE : []),
  ...(SPLIT_BY_DATABASE ? Object.entries(ONE_DATABASE_FILES).flatMap(([file, database]) => (database === THIS_DATABASE ? [] : [file])) : []),
];

export default defineConfig({
  resolve: { alias: { '@': import.meta.dirname } },
  test: {
    server: DRIZZLE_BUNDLED_FOR_TESTS.server,
    deps: { optimizer: DRIZZLE_BUNDLED_FOR_TESTS.optimizer },
    include: ['**/*.test.ts'],
    exclude: [...EXCLUDED_DIRECTORIES.map((directory) => `${directory}/**`), ...LEFT_TO_THE_OTHER_DATABASE],
    provide: { filesUsingNoDatabase: FILES_USING_NO_DATABASE },
    // HTTP-level tests run against a production build, made once per run (or reused if current).
    globalSetup: ['tests/support/global-setup.ts'],
    pool: 'forks',
    // Each worker runs its test files one after another in one process, which keeps the loaded
    // packages and PGlite's compiled WebAssembly: the product's modules are loaded afresh for each
    // file and its globalThis state and process.env reset (tests/support/fresh-file.ts). A new
    // process per file cost about 1.5 CPU seconds per file that opens a database: the same 191
    // files took 405 s instead of 499 s on PGlite, 274 s instead of 338 s on PostgreSQL.
    isolate: false,
    setupFiles: ['tests/support/fresh-file.ts'],
    // Passwords hashed at an eighth of OWASP's cost in this suite, in its processes and in the apps
    // and CLI processes it starts (tests/support/app-server.ts, cli.ts): it creates and signs in
    // some five hundred people, and scrypt at 128 MiB was a fifth of its CPU time. The hashing
    // itself, at both costs, is tested in lib/platform/security/passwords.test.ts; the
    // multi-instance suite and the e2e suite run at the production cost. Production refuses `low`.
    env: { PASSWORD_HASH_COST: 'low' },
    // The default report, then the ten slowest files (where the suite's time goes).
    reporters: ['default', './tests/support/slowest-files-reporter.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Three workers on both databases. On PostgreSQL a worker often waits for the server's processes;
    // on PGlite, once its databases moved to memory and its apps dropped V8's optimizing tier
    // (tests/support/scratch.ts, app-server.ts), the suite left a fifth of two cores idle in waits
    // of its own, which a third worker fills: 257 files took 215 s with three, 241 s with two
    // (docs/performance.md, "CI time").
    maxWorkers: 3,
  },
});

/** The `*.test.ts` files `include` selects outside the excluded directories, relative and `/`-separated. */
function testFilesUnder(root: string, directory = ''): string[] {
  const excluded = EXCLUDED_DIRECTORIES.map((pattern) => new RegExp(`^${pattern.replace('.', '\\.').replace('*', '.*')}$`));
  return fs.readdirSync(path.join(root, directory), { withFileTypes: true }).flatMap((entry) => {
    const relative = directory ? `${directory}/${entry.name}` : entry.name;
    if (entry.isDirectory()) return excluded.some((pattern) => pattern.test(relative)) ? [] : testFilesUnder(root, relative);
    return entry.isFile() && entry.name.endsWith('.test.ts') ? [relative] : [];
  });
}
