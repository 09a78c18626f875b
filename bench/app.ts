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
  const words = startScriptWords(checkout);
  return words.slice(words.indexOf('node') + 1, words.indexOf('server.mjs')).filter((word) => word.startsWith('--'));
}

/** The environment `npm start` sets before node (`env NAME=value ... node`): the allocator's settings. */
export function productionStartEnv(checkout = ROOT): Record<string, string> {
  const words = startScriptWords(checkout);
  const assignments = words.slice(0, Math.max(0, words.indexOf('node'))).filter((word) => /^[A-Z_][A-Z0-9_]*=/.test(word));
  return Object.fromEntries(assignments.map((word) => [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)]));
}

function startScriptWords(checkout: string): string[] {
  const start = (JSON.parse(fs.readFileSync(path.join(checkout, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.start ?? '';
  return start.split(/\s+/);
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
    env: { ...process.env, ...productionStartEnv(cwd), NEXTAUTH_URL: baseUrl, ...env, PORT: String(port), HOST: '127.0.0.1' },
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
    // The instance's own memory figures (V8's heap spaces) are read from its metrics.
    METRICS_TOKEN: BENCH_METRICS_TOKEN,
    RECORD_JOURNAL_DIR: path.join(scratch, 'record-journal'),
  };
}

const BENCH_METRICS_TOKEN = 'bench-metrics-token-bench-metrics';

/**
 * What an instance's resident memory is made of: the kernel's split (anonymous memory, mapped
 * files such as the node binary and its libraries) and V8's own figures from its metrics (the heap
 * by space, memory outside it); undefined parts when the instance does not answer.
 */
export async function memoryBreakdown(pid: number, baseUrl: string): Promise<string> {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const mib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN) / 1024;
  const kernel = `RSS ${mib('VmRSS').toFixed(0)} MiB: anonymous ${mib('RssAnon').toFixed(0)}, files ${mib('RssFile').toFixed(0)} (the node binary, libraries, code read), shared ${mib('RssShmem').toFixed(0)}`;
  let text: string;
  try {
    const response = await fetch(`${baseUrl}/api/metrics`, { headers: { authorization: `Bearer ${BENCH_METRICS_TOKEN}` } });
    text = response.ok ? await response.text() : '';
  } catch {
    text = '';
  }
  const value = (name: string, label = '') => Number(new RegExp(`^gateway_${name}${label ? `\\{[^}]*${label}[^}]*\\}` : ''} ([0-9.e+]+)$`, 'm').exec(text)?.[1] ?? Number.NaN) / 1_048_576;
  if (!text) return kernel;
  const spaces = ['new', 'old', 'code', 'large_object', 'trusted', 'shared']
    .map((space) => [space, value('nodejs_heap_space_size_used_bytes', `space="${space}"`)] as const)
    .filter(([, used]) => used > 0.5)
    .map(([space, used]) => `${space} ${used.toFixed(0)}`)
    .join(', ');
  return (
    `${kernel}; V8 heap ${value('nodejs_heap_size_used_bytes').toFixed(0)} MiB used of ${value('nodejs_heap_size_total_bytes').toFixed(0)} (${spaces}), ` +
    `outside it ${value('nodejs_external_memory_bytes').toFixed(0)} MiB (buffers, strings handed to native code)`
  );
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
  return statCpuMs(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
}

/** The user + system time (ms) of a /proc `stat` line, a process's or one of its threads'. */
function statCpuMs(stat: string): number {
  // Fields after the command name (which may hold spaces, hence the last ')'); utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 1).trim().split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
}

/** A process's threads, by what runs on them, as Node names them. */
export const THREAD_KINDS = ['main', 'V8 workers', 'libuv pool', 'other'] as const;
export type ThreadCpu = Record<(typeof THREAD_KINDS)[number], number>;

function threadKind(name: string): (typeof THREAD_KINDS)[number] {
  if (name === 'MainThread' || name === 'node') return 'main';
  if (name === 'V8Worker') return 'V8 workers';
  if (name === 'libuv-worker') return 'libuv pool';
  return 'other';
}

/**
 * CPU time (ms) a process has used so far on each kind of thread: the main thread runs the
 * JavaScript; V8's workers collect garbage beside it and compile; libuv's pool runs file writes,
 * crypto and zlib handed to it. A thread that ended since is not counted (Node keeps these).
 */
export function cpuByThreadMs(pid: number): ThreadCpu {
  const totals: ThreadCpu = { main: 0, 'V8 workers': 0, 'libuv pool': 0, other: 0 };
  for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8');
      totals[threadKind(stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')))] += statCpuMs(stat);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return totals;
}

/** USER_HZ: 100 on every Linux this runs on (getconf CLK_TCK). */
const CLOCK_TICKS_PER_SECOND = 100;
