import path from 'node:path';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
/** The e2e build's own directory (never .next, which other builds and tests use). */
export const E2E_DIST_DIR = process.env.E2E_NEXT_DIST_DIR ?? '.next-e2e';
/**
 * Which database the run uses: a fresh database on the PostgreSQL server DATABASE_URL names, or
 * (without it) a fresh embedded PGlite directory. CI runs the suite once with each.
 */
export const E2E_DATABASE_KIND = process.env.DATABASE_URL ? 'postgresql' : 'pglite';
/**
 * Screenshots, the report and the app's output, one folder per run (its spec group in CI, else its
 * database) so that the runs side by side keep theirs.
 */
export const ARTIFACTS_DIR = path.join(REPO_ROOT, 'e2e-artifacts', process.env.E2E_SPEC_GROUP ?? E2E_DATABASE_KIND);
export const SCREENSHOTS_DIR = path.join(ARTIFACTS_DIR, 'screenshots');
