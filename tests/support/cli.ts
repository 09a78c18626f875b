// Runs the operator CLI as an operator would: a separate process, configured by its environment.
import { spawn } from 'node:child_process';
import { closeDatabase } from '@/db/client';
import { childEnv, REPO_ROOT } from './child-env';
import { TEST_PERSONAL_DATA_KEYS } from './personal-data-keys';
import type { DatabaseLocation } from './test-database';

const CLI_TIMEOUT_MS = 30_000;

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON (commands run with --json). */
  json<T = unknown>(): T;
}

/** `node --import tsx cli/main.ts ...args` against the given database. */
export async function runCli(args: string[], location: DatabaseLocation, extraEnv: Record<string, string> = {}, input?: string): Promise<CliResult> {
  // One process at a time on a PGlite directory: this one lets go before the CLI opens it.
  if (!location.DATABASE_URL) await closeDatabase();
  const child = spawn(process.execPath, ['--import', 'tsx', 'cli/main.ts', ...args], {
    cwd: REPO_ROOT,
    // An empty DATABASE_URL means PGlite to the CLI, and keeps one from any .env file away.
    env: childEnv({ ...TEST_PERSONAL_DATA_KEYS, ...location, DATABASE_URL: location.DATABASE_URL ?? '', ...extraEnv }),
    stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  if (input !== undefined) child.stdin!.end(input);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), CLI_TIMEOUT_MS);
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (exitCode) => resolve(exitCode));
  }).finally(() => clearTimeout(timer));
  return {
    code,
    stdout,
    stderr,
    json<T>() {
      try {
        return JSON.parse(stdout) as T;
      } catch {
        throw new Error(`cli ${args.join(' ')} did not print JSON (exit ${code}):\n${stdout}\n${stderr}`);
      }
    },
  };
}
