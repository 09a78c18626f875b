// Starts the built app (`node server.mjs`, as in production) on a free port for HTTP-level tests.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { inject } from 'vitest';
import { closeDatabase } from '@/db/client';
import { lockFileOf, readOwner } from '@/db/embedded-lock';
import { env as appEnv } from '@/lib/platform/settings/env';
import { childEnv, REPO_ROOT, suitePasswordCost } from './child-env';
import { scratchRoot } from './scratch';
import { freePort } from '../../scripts/free-port';
import { ensureBuild } from '../../scripts/next-build';
import { activeTestDatabase } from './test-database';
import { TEST_PERSONAL_DATA_KEYS } from './personal-data-keys';
import { TEST_CONSTANCIA_KEYS } from './constancia-keys';

const DUMMY_SECRET = 'test-secret-for-next-auth-0123456789abcdef';
const READY_TIMEOUT_MS = 60_000;
const STOP_GRACE_MS = 5_000;

export interface StartAppOptions {
  /** App settings: the database location, source URLs, limits… Undefined removes a variable. */
  env?: Record<string, string | undefined>;
  /** SEED_ON_START; false unless a test wants the demo admin and integration. */
  seed?: boolean;
  /** 'healthy' (default): until /api/health answers 200. 'responding': any answer (a broken database). */
  waitFor?: 'healthy' | 'responding';
  port?: number;
  /** How the app is launched: `node server.mjs` (npm start, the default) or plain `next start`. */
  launcher?: 'server.mjs' | 'next start';
}

export interface RunningApp {
  baseUrl: string;
  port: number;
  /** The current server process (it changes on restart). */
  readonly pid: number;
  /** Everything the server printed, across restarts. */
  logs(): string;
  /**
   * SIGTERM, then SIGKILL after 5 s. The server finishes open requests first: read every response
   * body to the end (an unread or cancelled one keeps its connection busy and costs those 5 s).
   */
  stop(): Promise<void>;
  /** How the last stopped server process ended (code 0 after a graceful SIGTERM stop). */
  lastExit(): { code: number | null; signal: NodeJS.Signals | null } | undefined;
  restart(): Promise<void>;
  /**
   * Runs `fn` while this test process may use the app's database through database(). PostgreSQL
   * shares it with the app; on PGlite (one process per directory) this process reaches it through
   * the socket the app serves it on, as the CLI does. Only an app that serves no socket is stopped
   * meanwhile and started again on the same port.
   */
  withDatabase<T>(fn: () => Promise<T>): Promise<T>;
}

export interface ExitedApp {
  code: number | null;
  signal: NodeJS.Signals | null;
  output: string;
}

/**
 * An app on PGlite runs the database's WebAssembly in its own process, and a test's app lives for
 * seconds: V8's optimizing tier compiled more of it than it ever ran. With the baseline compiler
 * alone an app took about 1.2 CPU s to become healthy instead of 1.6, and files that use it a lot
 * spent less too (docs/performance.md, "CI time"). Production and the e2e app keep both tiers.
 */
const EMBEDDED_DATABASE_NODE_FLAGS = ['--liftoff-only'];

const EXIT_WITH_PARENT = pathToFileURL(path.join(import.meta.dirname, 'exit-with-parent.mjs')).href;

// A worker that exits mid-test must not leave servers holding ports and database directories (one
// that is killed outright cannot run this: exit-with-parent.mjs covers that case). One set and one
// exit listener per process, not per file: a worker runs many files (tests/support/fresh-file.ts).
const RUNNING_APPS = Symbol.for('tests.runningApps');
const processState = globalThis as typeof globalThis & { [RUNNING_APPS]?: Set<ChildProcess> };
const running = processState[RUNNING_APPS] ?? trackRunningApps();

function trackRunningApps(): Set<ChildProcess> {
  const children = (processState[RUNNING_APPS] = new Set<ChildProcess>());
  process.on('exit', () => {
    for (const child of children) child.kill('SIGKILL');
  });
  return children;
}

/** Starts the app; the database defaults to the one useTestDatabase() made for this file. */
export async function startApp(options: StartAppOptions = {}): Promise<RunningApp> {
  await buildIfDeferred();
  const settings = appSettings(options);
  const usesPglite = !settings.DATABASE_URL;
  // The lock file lets one process at a time open a PGlite directory: hand it to the app.
  if (usesPglite) await closeDatabase();
  let port = options.port ?? (await freePort());
  let baseUrl = `http://127.0.0.1:${port}`;
  let log = '';
  const launchServer = async () => {
    const server = launch(port, settings, (text) => (log += text));
    await waitUntilReady(server, baseUrl, options.waitFor ?? 'healthy', () => log);
    return server;
  };
  const firstLaunch = async (): Promise<ChildProcess> => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await launchServer();
      } catch (error) {
        // Another process can take the free port between freePort() and the app's listen (seen
        // in CI while other test files start their own servers): start again on another one.
        if (options.port !== undefined || attempt === 3 || !log.includes('EADDRINUSE')) throw error;
        port = await freePort();
        baseUrl = `http://127.0.0.1:${port}`;
        log = '';
      }
    }
  };
  let server = await firstLaunch();

  return {
    baseUrl,
    port,
    get pid() {
      return server.pid!;
    },
    logs: () => log,
    async stop() {
      await stopProcess(server);
      // Every test that runs the app checks its log: only the development seed shows secrets.
      if (!options.seed) assertNoSecretsLogged(log);
    },
    lastExit: () => (hasExited(server) ? { code: server.exitCode, signal: server.signalCode } : undefined),
    async restart() {
      await stopProcess(server);
      log += '\n--- restart ---\n';
      server = await launchServer();
    },
    async withDatabase<T>(fn: () => Promise<T>): Promise<T> {
      assertSameDatabase(settings);
      if (!usesPglite) return fn();
      // The app shares its embedded database on a socket (db/embedded-share.ts): this process's
      // database() reaches it there, taking turns with the app as the CLI does, and a change it
      // announces reaches the app's listeners as on PostgreSQL. A restart cost some 5 s.
      if (servesItsDatabase(settings.PGLITE_DIR!, server.pid)) {
        try {
          return await fn();
        } finally {
          await closeDatabase();
        }
      }
      await stopProcess(server);
      try {
        return await fn();
      } finally {
        await closeDatabase();
        log += '\n--- restart after withDatabase ---\n';
        server = await launchServer();
      }
    },
  };
}

/** Starts the app expecting it to refuse to start; resolves with how it exited and what it said. */
export async function startAppExpectingExit(options: StartAppOptions = {}): Promise<ExitedApp> {
  await buildIfDeferred();
  const settings = appSettings(options);
  if (!settings.DATABASE_URL) await closeDatabase();
  let output = '';
  const port = options.port ?? (await freePort());
  const server = launch(port, settings, (text) => (output += text), options.launcher);
  // `next start` may run instrumentation on its first request rather than at boot: ask for one.
  const poke = setInterval(() => void fetch(`http://127.0.0.1:${port}/api/health`).then((r) => r.arrayBuffer(), () => {}), 500);
  const exited = await waitForExit(server, READY_TIMEOUT_MS);
  clearInterval(poke);
  if (!exited) {
    await stopProcess(server);
    throw new Error(`The app was expected to exit but kept running for ${READY_TIMEOUT_MS / 1000} s:\n${output}`);
  }
  return { code: server.exitCode, signal: server.signalCode, output };
}

let deferredBuild: Promise<void> | undefined;

/** Global setup builds when it sees a test file that starts the app; this catches any it missed. */
function buildIfDeferred(): Promise<void> {
  if (inject('appBuild') !== 'deferred') return Promise.resolve();
  deferredBuild ??= ensureBuild();
  return deferredBuild;
}

function appSettings(options: StartAppOptions): Record<string, string | undefined> {
  const given = options.env ?? {};
  const location = given.DATABASE_URL || given.PGLITE_DIR ? {} : activeTestDatabase()?.env;
  if (!location) throw new Error('startApp needs a database: call useTestDatabase() first, or pass env.DATABASE_URL or env.PGLITE_DIR');
  // Each app its own journal directory (one process per directory), kept across its restarts.
  const journal = 'RECORD_JOURNAL_DIR' in given ? {} : { RECORD_JOURNAL_DIR: fs.mkdtempSync(path.join(scratchRoot(), 'gateway-test-journal-')) };
  const settings: Record<string, string | undefined> = {
    APP_ENV: 'development',
    SEED_ON_START: options.seed ? 'true' : 'false',
    NEXTAUTH_SECRET: DUMMY_SECRET,
    ...TEST_PERSONAL_DATA_KEYS,
    ...TEST_CONSTANCIA_KEYS,
    ...location,
    ...journal,
    ...given,
  };
  // The suite's password cost (vitest.config.mts), which childEnv would not pass on by itself; an
  // app started as production hashes at production's cost, the only one it accepts.
  if (!('PASSWORD_HASH_COST' in given)) settings.PASSWORD_HASH_COST = suitePasswordCost(settings.APP_ENV);
  // Set but empty means "unset" to the app, and keeps a DATABASE_URL from any .env file away.
  return { ...settings, DATABASE_URL: settings.DATABASE_URL ?? '' };
}

function launch(
  port: number,
  settings: Record<string, string | undefined>,
  onOutput: (text: string) => void,
  launcher: StartAppOptions['launcher'] = 'server.mjs',
): ChildProcess {
  const command = launcher === 'next start' ? ['node_modules/next/dist/bin/next', 'start', '-p', String(port), '-H', '127.0.0.1'] : ['server.mjs'];
  const child = spawn(process.execPath, [...(settings.DATABASE_URL ? [] : EMBEDDED_DATABASE_NODE_FLAGS), '--import', EXIT_WITH_PARENT, ...command], {
    cwd: REPO_ROOT,
    env: childEnv({ ...settings, PORT: String(port), HOST: '127.0.0.1' }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  child.on('exit', () => running.delete(child));
  child.stdout!.on('data', (chunk: Buffer) => onOutput(chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => onOutput(chunk.toString()));
  return child;
}

async function waitUntilReady(server: ChildProcess, baseUrl: string, waitFor: 'healthy' | 'responding', log: () => string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let lastAnswer = 'no answer yet';
  while (Date.now() < deadline) {
    if (server.exitCode !== null || server.signalCode !== null) {
      throw new Error(`The app exited (${server.signalCode ?? `code ${server.exitCode}`}) before it was ready. Its output:\n${log()}`);
    }
    // Next reports a port already taken and keeps running: it will never answer on it.
    if (log().includes('EADDRINUSE')) {
      await stopProcess(server);
      throw new Error(`The app could not listen on its port (EADDRINUSE). Its output:\n${log()}`);
    }
    try {
      const response = await fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(5_000) });
      // Read to the end: a cancelled or unread body leaves the connection busy, and the server's
      // graceful stop would wait for it.
      await response.arrayBuffer();
      if (waitFor === 'responding' || response.status === 200) return;
      lastAnswer = `HTTP ${response.status}`;
    } catch (error) {
      lastAnswer = (error as Error).message;
    }
    await sleep(100);
  }
  await stopProcess(server);
  throw new Error(`The app did not become ready within ${READY_TIMEOUT_MS / 1000} s (last health check: ${lastAnswer}). Its output:\n${log()}`);
}

/** SIGTERM, then SIGKILL if it is still running after a grace period; resolves once it exited. */
async function stopProcess(server: ChildProcess): Promise<void> {
  if (hasExited(server)) return;
  signal(server, 'SIGTERM');
  if (await waitForExit(server, STOP_GRACE_MS)) return;
  signal(server, 'SIGKILL');
  await waitForExit(server, STOP_GRACE_MS);
}

function signal(server: ChildProcess, name: NodeJS.Signals): void {
  try {
    process.kill(server.pid!, name);
  } catch (error) {
    // It exited between the check and the signal.
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

function waitForExit(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  if (hasExited(child)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.removeListener('exit', onExit);
      resolve(false);
    }, timeoutMs);
    const onExit = () => {
      clearTimeout(timer);
      resolve(true);
    };
    child.once('exit', onExit);
  });
}

function assertSameDatabase(settings: Record<string, string | undefined>): void {
  const mine = appEnv();
  const same = settings.DATABASE_URL
    ? mine.DATABASE_URL === settings.DATABASE_URL
    : !mine.DATABASE_URL && path.resolve(mine.PGLITE_DIR) === path.resolve(settings.PGLITE_DIR ?? '.data/pglite');
  if (!same) throw new Error("withDatabase: this test process's database is not the app's; start the app on useTestDatabase()'s database");
}

export { freePort };

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Shapes that are always secrets: integration tokens and password hashes. */
const LOGGED_SECRET_SHAPES = [/tlk_[A-Za-z0-9_-]{20,}/, /scrypt\$\d+\$/];

function assertNoSecretsLogged(log: string): void {
  for (const shape of LOGGED_SECRET_SHAPES) {
    const found = shape.exec(log);
    if (found) throw new Error(`The app logged a secret (${shape}):\n${log.slice(Math.max(0, found.index - 500), found.index + 200)}`);
  }
}

/** True when the app process `pid` has the embedded database `dataDir` open and serves it on its socket. */
function servesItsDatabase(dataDir: string, pid: number | undefined): boolean {
  const owner = readOwner(lockFileOf(dataDir));
  return owner !== undefined && owner.pid === pid && Boolean(owner.socket) && fs.existsSync(owner.socket!);
}
