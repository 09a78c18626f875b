import path from 'node:path';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
/** The e2e build's own directory (never .next, which other builds and tests use). */
export const E2E_DIST_DIR = process.env.E2E_NEXT_DIST_DIR ?? '.next-e2e';
export const SCREENSHOTS_DIR = path.join(REPO_ROOT, 'e2e-artifacts', 'screenshots');
