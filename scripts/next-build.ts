// The production build that the HTTP-level tests, the e2e suite and the benchmark run (`node
// server.mjs` serves it), reused while its inputs are unchanged: <dist>/BUILD_ID exists and
// <dist>/gateway-build-stamp holds the hash of every build input as it is now. Each user builds
// into its own directory (.next for the tests, .next-e2e, .next-bench), which next.config.mjs
// takes from NEXT_DIST_DIR, so their builds never replace one another under a running server.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');

// Everything in the repository is a build input except these: tests, tooling, docs and outputs.
// A deny-list means a new folder the app imports (components/, config/…) is never missed; at worst
// an unrelated change costs one extra build. The names below are skipped at the repository's root
// only: app/docs (the integrator documentation) is a route, and its edits must rebuild.
const IGNORED_DIRECTORIES = new Set([
  '.git',
  '.data',
  '.ci',
  'node_modules',
  'tests',
  'e2e',
  'docs',
  'cli',
  'scripts',
  // The image's, compose's and Kubernetes' files: they package the build, never part of it.
  'deploy',
  'bench',
  'coverage',
  'test-results',
  'playwright-report',
  'e2e-artifacts',
]);
const IGNORED_ROOT_FILES = new Set([
  // Written by `next build` itself, or not read by it.
  'next-env.d.ts',
  'tsconfig.tsbuildinfo',
  'server.mjs',
  '.gitignore',
  '.dockerignore',
  'eslint.config.mjs',
  'vitest.config.mts',
  'playwright.config.ts',
  'drizzle.config.ts',
]);
const IGNORED_FILE = /(\.test\.tsx?|\.spec\.tsx?|\.md|\.lock)$/;
/** What `npm run build` runs after `next build` on its output: a change to it rebuilds too. */
const AFTER_NEXT_BUILD = 'scripts/after-next-build.mjs';
const AFTER_NEXT_BUILD_MODULES = [AFTER_NEXT_BUILD, 'scripts/latin1-server-code.mjs', 'scripts/server-chunk-copies.mjs'];

export interface BuildOptions {
  /** Relative to the repository; defaults to NEXT_DIST_DIR, else .next. */
  distDir?: string;
  /** Build even when the directory holds a build of the current sources. */
  force?: boolean;
  /** Prefix of the progress lines: [tests], [e2e], [bench]. */
  label?: string;
}

/** Builds unless the build directory already holds a build of the current sources. */
export async function ensureBuild(options: BuildOptions = {}): Promise<void> {
  const distDir = options.distDir ?? (process.env.NEXT_DIST_DIR || '.next');
  const label = options.label ?? '[tests]';
  const release = await acquireBuildLock(distDir, label);
  try {
    const hash = hashBuildInputs();
    const stampFile = path.join(ROOT, distDir, 'gateway-build-stamp');
    if (!options.force && isBuildCurrent(distDir, stampFile, hash)) {
      console.log(`${label} next build: reused ${distDir} (inputs unchanged, ${hash.slice(0, 12)})`);
      return;
    }
    const started = performance.now();
    await runNextBuild(distDir, label);
    // The hash taken before the build: a file edited during the build triggers the next one.
    fs.writeFileSync(stampFile, `${hash}\n`);
    console.log(`${label} next build: built into ${distDir} in ${((performance.now() - started) / 1000).toFixed(1)} s (${hash.slice(0, 12)})`);
  } finally {
    release();
  }
}

/**
 * The build the image is made from, never written where a running app reads it: the checkout's
 * `.next` when it is current (as CI's suites leave it), else a build of its own into `.next-image`
 * (rebuilding `.next` under an app started from this checkout made it answer 500). Says which it did.
 */
export async function imageBuildDir(label: string): Promise<string> {
  const hash = hashBuildInputs();
  if (isBuildCurrent('.next', path.join(ROOT, '.next', 'gateway-build-stamp'), hash)) {
    console.log(`${label} next build: reused .next (inputs unchanged, ${hash.slice(0, 12)}); nothing written there`);
    return '.next';
  }
  await ensureBuild({ distDir: '.next-image', label });
  return '.next-image';
}

function isBuildCurrent(distDir: string, stampFile: string, hash: string): boolean {
  if (!fs.existsSync(path.join(ROOT, distDir, 'BUILD_ID'))) return false;
  try {
    return fs.readFileSync(stampFile, 'utf8').trim() === hash;
  } catch {
    return false;
  }
}

/** SHA-256 over the path and content of every build input, plus NEXT_PUBLIC_* variables. */
export function hashBuildInputs(root = ROOT): string {
  const hash = createHash('sha256');
  for (const file of [...listBuildInputs(root), ...AFTER_NEXT_BUILD_MODULES]) {
    hash.update(`${file}\0`);
    hash.update(fs.readFileSync(path.join(root, file)));
    hash.update('\0');
  }
  for (const [name, value] of Object.entries(process.env).sort(([a], [b]) => a.localeCompare(b))) {
    if (name.startsWith('NEXT_PUBLIC_')) hash.update(`${name}=${value}\0`);
  }
  return hash.digest('hex');
}

export function listBuildInputs(root = ROOT): string[] {
  const files: string[] = [];
  const walk = (relativeDir: string) => {
    for (const entry of fs.readdirSync(path.join(root, relativeDir), { withFileTypes: true })) {
      const relative = relativeDir ? `${relativeDir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        // .next and .next-*: build outputs.
        const ignored = entry.name === 'node_modules' || (!relativeDir && (IGNORED_DIRECTORIES.has(entry.name) || entry.name.startsWith('.next')));
        if (!ignored) walk(relative);
      } else if (entry.isFile()) {
        if (IGNORED_FILE.test(entry.name)) continue;
        if (!relativeDir && IGNORED_ROOT_FILES.has(entry.name)) continue;
        files.push(relative);
      }
    }
  };
  walk('');
  return files.sort();
}

/** What `npm run build` does: `next build`, then scripts/after-next-build.mjs on its output. */
async function runNextBuild(distDir: string, label: string): Promise<void> {
  console.log(`${label} next build: sources changed since the last build, building into ${distDir}…`);
  // Vitest and Playwright set NODE_ENV; `next build` must choose its own.
  const env: Record<string, string | undefined> = { ...process.env, NEXT_DIST_DIR: distDir, NEXT_TELEMETRY_DISABLED: '1' };
  delete env.NODE_ENV;
  await runStep('next build', ['node_modules/next/dist/bin/next', 'build'], env);
  await runStep(AFTER_NEXT_BUILD, [AFTER_NEXT_BUILD, distDir], env);
}

function runStep(name: string, args: string[], env: Record<string, string | undefined>): Promise<void> {
  const child = spawn(process.execPath, args, { cwd: ROOT, env: env as NodeJS.ProcessEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`${name} failed (${signal ?? `exit ${code}`}):\n${output.slice(-8_000)}`));
    });
  });
}

/** Two runs in one checkout must not build into the same directory at once. */
async function acquireBuildLock(distDir: string, label: string): Promise<() => void> {
  // Outside the build directory, which `next build` empties when it starts.
  const lockDir = path.join(ROOT, 'node_modules', '.cache', `gateway-build-${path.basename(distDir)}.lock`);
  fs.mkdirSync(path.dirname(lockDir), { recursive: true });
  const ownerFile = path.join(lockDir, 'pid');
  let announced = false;
  for (;;) {
    try {
      fs.mkdirSync(lockDir);
      fs.writeFileSync(ownerFile, String(process.pid));
      return () => fs.rmSync(lockDir, { recursive: true, force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = Number(readOrEmpty(ownerFile));
    // A dead owner, or one that never wrote its pid (it died between the two calls above).
    if (owner ? !isAlive(owner) : ageMs(lockDir) > 10_000) {
      fs.rmSync(lockDir, { recursive: true, force: true });
      continue;
    }
    if (!announced) {
      console.log(`${label} next build: waiting for another run (pid ${owner || '?'}) to finish building ${distDir}`);
      announced = true;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

function readOrEmpty(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

function ageMs(file: string): number {
  try {
    return Date.now() - fs.statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
