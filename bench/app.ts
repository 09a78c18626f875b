// The built app (`node server.mjs`, as in production) started by a benchmark, ready when
// /api/health answers 200.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { freePort } from '../scripts/free-port';

const ROOT = path.resolve(import.meta.dirname, '..');
const READY_TIMEOUT_MS = 120_000;

/**
 * The node flags `npm start` gives server.mjs (the checkout's package.json), so the benchmark
 * measures the instance as production starts it (its heap sizes, above all); --compare starts
 * each commit with its own.
 */
export function productionNodeFlags(checkout = ROOT): string[] {
  const start = (JSON.parse(fs.readFileSync(path.join(checkout, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.start ?? '';
  const words = start.split(/\s+/);
  return words.slice(words.indexOf('node') + 1, words.indexOf('server.mjs')).filter((word) => word.startsWith('--'));
}

export interface BenchApp {
  baseUrl: string;
  pid: number;
  /** SIGTERM; resolves once the process exited. */
  stop(): Promise<void>;
}

/**
 * Starts the app with the benchmark's environment plus `env`, on a free port of 127.0.0.1;
 * `nodeArgs` go to node before server.mjs (--cpu-prof), after the flags `npm start` uses; `cwd`
 * is the checkout whose server.mjs and build run (another commit's for --compare).
 */
export async function startBenchApp(env: Record<string, string>, nodeArgs: string[] = [], logFile?: string, cwd = ROOT): Promise<BenchApp> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const app = spawn(process.execPath, [...productionNodeFlags(cwd), ...nodeArgs, 'server.mjs'], {
    // Another checkout's server.mjs and build for --compare.
    cwd,
    // The log (one JSON line per lookup) is kept only when asked for: its stage timings split the
    // gateway's time into Next's part and the handler's own (--stages).
    stdio: ['ignore', logFile ? fs.openSync(logFile, 'a') : 'ignore', 'inherit'],
    env: { ...process.env, NEXTAUTH_URL: baseUrl, ...env, PORT: String(port), HOST: '127.0.0.1' },
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (app.exitCode !== null || app.signalCode !== null) return resolve();
      app.once('exit', () => resolve());
      app.kill('SIGTERM');
    });
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (app.exitCode !== null) throw new Error(`the app exited with code ${app.exitCode}`);
    try {
      const response = await fetch(`${baseUrl}/api/health`);
      await response.arrayBuffer();
      if (response.ok) return { baseUrl, pid: app.pid!, stop };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await stop();
  throw new Error(`the app did not become healthy in ${READY_TIMEOUT_MS / 1000} s`);
}

const UNLIMITED = '1000000000';

/**
 * The environment every benchmark instance runs with: development settings, the simulator as all
 * three sources, no rate limit in the way; `scratch` holds its bare answers and its journal.
 */
export function benchAppEnv(simulatorUrl: string, databaseUrl: string, scratch: string): Record<string, string> {
  return {
    APP_ENV: 'development',
    SEED_ON_START: 'false',
    NEXTAUTH_SECRET: 'bench-secret-bench-secret-bench-secret!!',
    DATABASE_URL: databaseUrl,
    RENAP_BASE_URL: `${simulatorUrl}/renap`,
    RTU_BASE_URL: `${simulatorUrl}/rtu`,
    CATALOG_BASE_URL: `${simulatorUrl}/catalog`,
    RATE_LIMIT_GLOBAL_MAX: UNLIMITED,
    RATE_LIMIT_RENAP_PER_MINUTE: UNLIMITED,
    RATE_LIMIT_RTU_PER_MINUTE: UNLIMITED,
    RATE_LIMIT_CATALOG_PER_MINUTE: UNLIMITED,
    // The bulk phase follows its jobs through GET /api/lotes/{id} four times a second.
    BULK_API_PER_MINUTE: UNLIMITED,
    DATABASE_POOL_MAX: '20',
    BENCH_BARE_RESPONSES_FILE: path.join(scratch, 'bare-responses.json'),
    RECORD_JOURNAL_DIR: path.join(scratch, 'record-journal'),
  };
}

/** A process's resident memory now and at its peak, in MiB (Linux /proc). */
export function residentMemory(pid: number): { rssMiB: number; peakMiB: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { rssMiB: kib('VmRSS') / 1024, peakMiB: kib('VmHWM') / 1024 };
}

/**
 * CPU time (user + system) a process has used so far, in ms (Linux /proc; 10 ms ticks). Read
 * around a run and divided by its calls it gives the app's CPU per request, which other processes
 * on the machine barely disturb, unlike latency.
 */
export function cpuTimeMs(pid: number): number {
  // Fields after the command name (which may hold spaces, hence the last ')'); utime and stime are the 12th and 13th.
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(')').at(-1)!.trim().split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
}

/** USER_HZ: 100 on every Linux this runs on (getconf CLK_TCK). */
const CLOCK_TICKS_PER_SECOND = 100;
