// Runs once before the e2e suite: builds the app into its own directory (reused while the sources
// are unchanged), starts the upstream simulator in this process and the built app (`node
// server.mjs`, as in production) on a fresh database with the development seed, and hands the
// tests the app's URL and the seeded admin's password (printed once by the seed, read here from
// the app's output). A local webhook receiver takes the app's alerts, so the console's "Alertas"
// page lists real deliveries. The database is a new one on the PostgreSQL server DATABASE_URL names
// (dropped afterwards), or without DATABASE_URL an embedded PGlite directory: CI runs both.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import postgres from 'postgres';
import { freePort } from '../../scripts/free-port';
import { ensureBuild } from '../../scripts/next-build';
import { startSimulator } from '../../simulator/server';
import { ConsoleClient } from '../../tests/support/console-client';
import { assertLocalDatabaseUrl } from '../../tests/support/database-guard';
import { scratchRoot } from '../../tests/support/scratch';
import { startWebhookReceiver } from '../../tests/support/webhook-receiver';
import { chromiumExecutable } from './chromium';
import { ARTIFACTS_DIR, E2E_DIST_DIR, REPO_ROOT } from './paths';

const READY_TIMEOUT_MS = 90_000;

export default async function globalSetup(): Promise<() => Promise<void>> {
  await ensureBuild({ distDir: E2E_DIST_DIR, label: '[e2e]' });

  const simulator = await startSimulator({ port: 0, host: '127.0.0.1' });
  const alertSecret = randomBytes(32).toString('base64url');
  const alertReceiver = await startWebhookReceiver(alertSecret);
  // In memory where the machine has it, as the vitest suite's databases (tests/support/scratch.ts).
  const dataDir = fs.mkdtempSync(path.join(scratchRoot(), 'gateway-e2e-'));
  const database = await freshDatabase(dataDir);
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const app = startApp(port, {
    APP_ENV: 'development',
    ...database.env,
    SEED_ON_START: 'true',
    NEXTAUTH_SECRET: randomBytes(32).toString('base64url'),
    NEXTAUTH_URL: baseUrl,
    SUPPORT_CONTACT_EMAIL: 'soporte@example.com',
    // The tests act as the one trusted proxy: their X-Forwarded-For picks the client IP, so the
    // throttling tests can sign in "from" addresses of their own without touching the others.
    TRUSTED_PROXY_HOPS: '1',
    RENAP_BASE_URL: `${simulator.url}/renap`,
    RTU_BASE_URL: `${simulator.url}/rtu`,
    CATALOG_BASE_URL: `${simulator.url}/catalog`,
    // New records reach the dashboard's rollups within half a second.
    ROLLUP_INTERVAL_MS: '500',
    // And the public status page (/estado) within a second.
    STATUS_PAGE_CACHE_SECONDS: '1',
    ALERT_WEBHOOK_URL: alertReceiver.url,
    ALERT_WEBHOOK_SECRET: alertSecret,
    RECORD_JOURNAL_DIR: path.join(dataDir, 'record-journal'),
    // A refused address reaches the integration's page within a second (the tokens spec waits for
    // it), instead of the default 30 s.
    TOKEN_LAST_USE_FLUSH_MS: '1000',
    // Every spec's API calls come from this one machine: under the default global per-IP limit
    // (100 per 15 minutes, tested in tests/conformance/global-limit.test.ts) the suite's later specs
    // met each other's 429s (the status page's and the tokens' lookups in a fresh-clone CI run).
    RATE_LIMIT_GLOBAL_MAX: '100000',
    // Every credited top-up is invoiced against the simulator's certifier, as under `npm run dev`,
    // and the worker looks for due invoices twice a second: the specs read them certified.
    FEL_ENABLED: 'true',
    FEL_CERTIFIER_BASE_URL: `${simulator.url}/fel`,
    FEL_NIT_LOOKUP_BASE_URL: `${simulator.url}/fel/receptores`,
    FEL_WORKER_INTERVAL_MS: '500',
    // Online payments against the simulator's Recurrente (its development keys), as under `npm run dev`.
    PAYMENTS_PROVIDER: 'recurrente',
    RECURRENTE_API_URL: `${simulator.url}/recurrente/api`,
  });
  simulator.recurrente.setWebhookUrl(`${baseUrl}/api/pagos/recurrente`);

  try {
    await waitUntilHealthy(baseUrl, app);
    const admin = await waitForSeededAdmin(app);
    process.env.E2E_BASE_URL = baseUrl;
    process.env.E2E_ADMIN_EMAIL = admin.email;
    process.env.E2E_ADMIN_PASSWORD = admin.password;
    process.env.E2E_ADMIN_SESSION_COOKIE = await adminSessionCookie(baseUrl, admin);
    process.env.E2E_DEMO_TOKEN = await waitForDemoToken(app);
    process.env.E2E_SIMULATOR_SEED = String(simulator.population.seed);
    process.env.E2E_DIST_DIR = E2E_DIST_DIR;
    // Tests that must hold the database mid-way (a table lock) can, on PostgreSQL only; empty on PGlite.
    process.env.E2E_DATABASE_URL = database.env.DATABASE_URL;
    // On PGlite, the socket on which the app (development) shares its embedded database, as with
    // the CLI: tests that must set up what no page can (e2e/support/database.ts).
    process.env.E2E_DATABASE_SOCKET = database.env.PGLITE_DIR ? `${database.env.PGLITE_DIR}.sock` : '';
    console.log(`[e2e] app on ${baseUrl}, simulator on ${simulator.url}, database: ${database.description}, browser: ${chromiumExecutable()}`);
  } catch (error) {
    await stop(app.child);
    await simulator.close();
    await alertReceiver.close();
    await database.drop();
    throw error;
  }

  return async () => {
    // The books close after everything the suite did (card payments, refunds, voids, corrections):
    // the same check an operator runs, on the suite's own database, before it is dropped.
    const books = await booksCheck(database.env);
    await stop(app.child);
    await simulator.close();
    await alertReceiver.close();
    await database.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (books.code !== 0) throw new Error(`[e2e] the books do not close after the suite (npm run cli -- books:verify, exit ${books.code}):\n${books.output}`);
    console.log('[e2e] books:verify after the suite: the books close.');
  };
}

/** `npm run cli -- books:verify` against the suite's database, beside the running app (PGlite: through the app's shared socket). */
function booksCheck(env: E2eDatabase['env']): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(REPO_ROOT, 'cli', 'run.mjs'), 'books:verify'], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...(env.PGLITE_DIR ? { PGLITE_DIR: env.PGLITE_DIR, DATABASE_URL: '' } : { DATABASE_URL: env.DATABASE_URL }), APP_ENV: 'development', LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('close', (code) => resolve({ code, output }));
  });
}

interface E2eDatabase {
  env: { DATABASE_URL: string; PGLITE_DIR?: string };
  description: string;
  drop(): Promise<void>;
}

/** A new database on the PostgreSQL server DATABASE_URL names, or a new PGlite directory. */
async function freshDatabase(dataDir: string): Promise<E2eDatabase> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    const directory = path.join(dataDir, 'pglite');
    return { env: { DATABASE_URL: '', PGLITE_DIR: directory }, description: `embedded PGlite in ${directory}`, drop: async () => {} };
  }
  const url = assertLocalDatabaseUrl(serverUrl);
  const name = `gateway_e2e_${process.pid}_${randomBytes(3).toString('hex')}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database "${name}"`);
  } finally {
    await admin.end({ timeout: 5 });
  }
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString() },
    description: `PostgreSQL database ${name} on ${url.host}`,
    async drop() {
      const cleanup = postgres(serverUrl, { max: 1, onnotice: () => {} });
      try {
        await cleanup.unsafe(`drop database if exists "${name}" with (force)`);
      } finally {
        await cleanup.end({ timeout: 5 });
      }
    },
  };
}

interface RunningApp {
  child: ChildProcess;
  output: () => string;
}

function startApp(port: number, settings: Record<string, string>): RunningApp {
  const env: NodeJS.ProcessEnv = { ...process.env, ...settings, PORT: String(port), HOST: '127.0.0.1', NEXT_DIST_DIR: E2E_DIST_DIR, NODE_ENV: 'production' };
  const child = spawn(process.execPath, ['server.mjs'], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const logFile = path.join(ARTIFACTS_DIR, 'app-output.log');
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const log = fs.createWriteStream(logFile);
  const capture = (chunk: Buffer) => {
    output += chunk.toString();
    log.write(chunk);
  };
  child.stdout!.on('data', capture);
  child.stderr!.on('data', capture);
  child.on('exit', () => log.end());
  return { child, output: () => output };
}

async function waitUntilHealthy(baseUrl: string, app: RunningApp): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (app.child.exitCode !== null) throw new Error(`The app exited before it was ready:\n${app.output()}`);
    try {
      const response = await fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(5_000) });
      await response.body?.cancel();
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await sleep(200);
  }
  throw new Error(`The app was not healthy within ${READY_TIMEOUT_MS / 1000} s:\n${app.output()}`);
}

/** The seed prints "email: admin@example.com   password: …" once, on the first start. */
async function waitForSeededAdmin(app: RunningApp): Promise<{ email: string; password: string }> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const match = /email: (\S+)\s+password: (\S+)/.exec(app.output());
    if (match) return { email: match[1]!, password: match[2]! };
    await sleep(100);
  }
  throw new Error(`The app did not print the seeded admin's password:\n${app.output()}`);
}

/**
 * The seeded admin's session cookie ("name=value"), signed in once over HTTP as the form does it:
 * the tests that do not test signing in open the console with it (e2e/support/console.ts,
 * openConsoleAsAdmin) instead of hashing the password at 128 MiB again each time.
 */
async function adminSessionCookie(baseUrl: string, admin: { email: string; password: string }): Promise<string> {
  const client = new ConsoleClient(baseUrl);
  const refused = await client.signIn(admin.email, admin.password);
  if (refused !== null) throw new Error(`The seeded admin could not sign in: ${refused}`);
  const session = [...client.cookies].find(([name]) => name.endsWith('next-auth.session-token'));
  if (!session) throw new Error('The seeded admin signed in without a session cookie');
  return `${session[0]}=${session[1]}`;
}

/** The seed prints the demo integration's token once ("x-integracion-token: tlk_…"). */
async function waitForDemoToken(app: RunningApp): Promise<string> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const match = /x-integracion-token: (\S+)/.exec(app.output());
    if (match) return match[1]!;
    await sleep(100);
  }
  throw new Error(`The app did not print the demo integration's token:\n${app.output()}`);
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}
