// Runs once per `vitest run`, before any test file: checks where the tests' databases will live
// and makes sure a production build of the current sources exists when a test file will start
// the app (see scripts/next-build.ts). GATEWAY_TEST_BUILD=always rebuilds regardless; =skip never builds.
import fs from 'node:fs';
import type { TestProject } from 'vitest/node';
import { assertLocalDatabaseUrl } from './database-guard';
import { ensureBuild } from '../../scripts/next-build';
import { ensureCliBundle } from '../../cli/bundle.mjs';
import { ensurePgliteTemplate, ensurePostgresTemplate } from './database-template';
import { scratchRoot } from './scratch';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The PostgreSQL server the run was given (CI), or null for embedded PGlite. */
    adminDatabaseUrl: string | null;
    /** A migrated PGlite directory each test file copies (embedded runs), or null. */
    pgliteTemplateDir: string | null;
    /** A migrated database on that server each test file's database is created from, or null. */
    postgresTemplateDatabase: string | null;
    /** 'checked': built or reused for this run; 'deferred': startApp() builds if a test needs it; 'skipped'. */
    appBuild: 'checked' | 'deferred' | 'skipped';
    /** The test files that use no database, run on PGlite only (vitest.config.mts), relative to the root. */
    filesUsingNoDatabase: string[];
  }
}

// A test file that starts the app imports the harness that does it (directly, or the conformance
// harness's startGateway).
const STARTS_THE_APP = /support\/app-server|\bstart(?:App|Gateway)\b/;

export default async function setup(project: TestProject): Promise<void> {
  const adminUrl = process.env.DATABASE_URL || null;
  if (adminUrl) assertLocalDatabaseUrl(adminUrl);
  project.provide('adminDatabaseUrl', adminUrl);
  console.log(
    `[tests] database: ${adminUrl ? `PostgreSQL at ${new URL(adminUrl).host} (one fresh database per test file)` : `embedded PGlite (one directory per test file, in ${scratchRoot()})`}`,
  );

  // Built here once rather than by the first CLI processes of parallel test files (cli/bundle.mjs).
  await ensureCliBundle();

  // Migrated once (and kept while the migrations are unchanged) rather than by every test file.
  project.provide('pgliteTemplateDir', adminUrl ? null : await ensurePgliteTemplate());
  project.provide('postgresTemplateDatabase', adminUrl ? await ensurePostgresTemplate(adminUrl) : null);

  const mode = process.env.GATEWAY_TEST_BUILD ?? 'auto';
  if (mode === 'skip') {
    console.log('[tests] next build: skipped (GATEWAY_TEST_BUILD=skip); tests that start the app use whatever the build directory holds');
    project.provide('appBuild', 'skipped');
    return;
  }
  if (mode !== 'always' && !anyFileStartsTheApp(project)) {
    // Unit-test runs neither wait for a build nor fail on a tree that does not build yet.
    console.log('[tests] next build: not needed by the selected test files');
    project.provide('appBuild', 'deferred');
    return;
  }
  await ensureBuild({ force: mode === 'always' });
  project.provide('appBuild', 'checked');
}

function anyFileStartsTheApp(project: TestProject): boolean {
  // The run's files are collected before global setup runs (vitest's experimental State API); if
  // that ever stops being true, build to be safe.
  const state = (project.vitest as { state?: { getPaths?: () => string[] } }).state;
  const files = state?.getPaths?.() ?? [];
  if (files.length === 0) return true;
  return files.some((file) => {
    try {
      return STARTS_THE_APP.test(fs.readFileSync(file, 'utf8'));
    } catch {
      return true;
    }
  });
}
