// The operator CLI runs from one bundled file, rebuilt when its sources change.
//
// Why: on Node.js 24 an ES module import re-reads its package's package.json for every file of the
// package (modules/package_json_reader), and drizzle-orm's is 179 KB with some 200 files: importing
// drizzle-orm/pg-core alone took 1,040 ms, and with tsx resolving every file of lib/ a command
// took 2.5 s before its first statement (the CLI's test files were a third of
// `npm test`). esbuild (already in the tree for tsx and drizzle-kit) bundles cli/main.ts with the
// libraries it uses into one module in about half a second; a command then starts in a fraction of
// that. Plain JavaScript: it runs before anything compiles TypeScript.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/**
 * Where the bundle is kept: beside the installed libraries, or, where they are read-only (an image
 * built without a writable node_modules), in the system's temporary directory, one per checkout.
 */
const CACHES = [
  path.join(ROOT, 'node_modules', '.cache', 'gateway-cli'),
  path.join(os.tmpdir(), `gateway-cli-${createHash('sha256').update(ROOT).digest('hex').slice(0, 12)}`),
];
/** Errors of a directory this process may not write. */
const NOT_WRITABLE = new Set(['EACCES', 'EPERM', 'EROFS']);

/**
 * Packages left to Node.js: PGlite reads its WebAssembly and data files beside its own module, and
 * pdfkit its fonts beside its own; bundled, both would look for them in the cache.
 */
export const EXTERNAL = ['@electric-sql/pglite', 'pdfkit'];

/** What else changes the bundle besides its source files: the installed libraries and the build's settings. */
const ALWAYS_CHECKED = ['package-lock.json', 'node_modules/.package-lock.json', 'tsconfig.json', 'cli/bundle.mjs'];

// Bundled CommonJS libraries expect these; an ES module has none of them.
export const BANNER = [
  "import { createRequire as __createRequire } from 'node:module';",
  "import { fileURLToPath as __fileURLToPath } from 'node:url';",
  "import { dirname as __pathDirname } from 'node:path';",
  'const require = __createRequire(import.meta.url);',
  'const __filename = __fileURLToPath(import.meta.url);',
  'const __dirname = __pathDirname(__filename);',
].join(' ');

/** Whether the bundle in `cache` was built after the last change to any file it was built from. */
function bundleIsCurrent(cache) {
  let manifest;
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(cache, 'inputs.json'), 'utf8'));
    if (!fs.existsSync(path.join(cache, 'main.mjs'))) return false;
  } catch {
    return false;
  }
  for (const file of [...manifest.sources, ...ALWAYS_CHECKED]) {
    let modified;
    try {
      modified = fs.statSync(path.join(ROOT, file)).mtimeMs;
    } catch {
      // A source that is gone (renamed, deleted) means the sources changed; a missing lock file does not.
      if (ALWAYS_CHECKED.includes(file)) continue;
      return false;
    }
    if (modified >= manifest.startedAtMs) return false;
  }
  return true;
}

/** Builds the bundle if a source changed since the last build; its path. */
export async function ensureCliBundle() {
  for (const [index, cache] of CACHES.entries()) {
    if (bundleIsCurrent(cache)) return path.join(cache, 'main.mjs');
    try {
      return await buildInto(cache);
    } catch (error) {
      if (!NOT_WRITABLE.has(error?.code) || index === CACHES.length - 1) throw error;
    }
  }
  throw new Error('unreachable');
}

async function buildInto(cache) {
  // Taken before reading the sources: a change made during the build makes the next run build again.
  const startedAtMs = Date.now();
  fs.mkdirSync(cache, { recursive: true });
  const bundle = path.join(cache, 'main.mjs');
  // Written beside and renamed: processes started together (tests, scripts) never read half a file.
  const partial = `${bundle}.${process.pid}.tmp`;
  const { build } = await import('esbuild');
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: ['cli/main.ts'],
    outfile: partial,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    tsconfig: 'tsconfig.json',
    external: EXTERNAL,
    banner: { js: BANNER },
    metafile: true,
    logLevel: 'warning',
  });
  const sources = Object.keys(result.metafile.inputs).filter((input) => !input.startsWith('node_modules/'));
  fs.renameSync(partial, bundle);
  const manifest = path.join(cache, 'inputs.json');
  fs.writeFileSync(`${manifest}.${process.pid}.tmp`, JSON.stringify({ startedAtMs, sources }));
  fs.renameSync(`${manifest}.${process.pid}.tmp`, manifest);
  return bundle;
}
