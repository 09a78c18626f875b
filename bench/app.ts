// The built app (`node server.mjs`, as in production) started by a benchmark, ready when
// /api/health answers 200.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { freePort } from '../scripts/free-port';

const ROOT = path.resolve(import.meta.dirname, '..');
const READY_TIMEOUT_MS = 120_000;

export interface BenchApp {
  baseUrl: string;
  pid: number;
  /** SIGTERM; resolves once the process exited. */
  stop(): Promise<void>;
}

/** Starts the app with the benchmark's environment plus `env`, on a free port of 127.0.0.1. */
export async function startBenchApp(env: Record<string, string>): Promise<BenchApp> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const app = spawn(process.execPath, ['server.mjs'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
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
