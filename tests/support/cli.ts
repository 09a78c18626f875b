// Runs the operator CLI as an operator would: a separate process, configured by its environment.
import { spawn } from 'node:child_process';
import { closeDatabase, database, shareEmbeddedDatabase } from '@/db/client';
import { childEnv, REPO_ROOT, suitePasswordCost } from './child-env';
import { TEST_PERSONAL_DATA_KEYS } from './personal-data-keys';
import { TEST_CONSTANCIA_KEYS } from './constancia-keys';
import type { DatabaseLocation } from './test-database';

const CLI_TIMEOUT_MS = 30_000;

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON (commands run with --json). */
  json<T = unknown>(): T;
}

/** `node cli/run.mjs ...args` (what `npm run cli` runs: the bundled CLI) against the given database. */
export async function runCli(
  args: string[],
  location: DatabaseLocation,
  extraEnv: Record<string, string> = {},
  input?: string,
  /** false: this process lets an embedded database go, so the CLI opens the directory itself (or meets whoever holds it). */
  { lendDatabase = true }: { lendDatabase?: boolean } = {},
): Promise<CliResult> {
  if (!location.DATABASE_URL) {
    if (lendDatabase) await lendEmbeddedDatabase(location);
    else await closeDatabase();
  }
  const child = spawn(process.execPath, ['cli/run.mjs', ...args], {
    cwd: REPO_ROOT,
    // An empty DATABASE_URL means PGlite to the CLI, and keeps one from any .env file away.
    env: childEnv({ PASSWORD_HASH_COST: suitePasswordCost(extraEnv.APP_ENV), ...TEST_PERSONAL_DATA_KEYS, ...TEST_CONSTANCIA_KEYS, ...location, DATABASE_URL: location.DATABASE_URL ?? '', ...extraEnv }),
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

/**
 * One process at a time opens a PGlite directory. When it is this file's database, this process
 * keeps it open and serves it on its socket, as the app does in development (db/embedded-share.ts):
 * the CLI connects instead of starting PGlite for each command, which cost seconds a command.
 * When the app has it, the CLI goes through the app's socket; any other directory is let go.
 */
async function lendEmbeddedDatabase(location: DatabaseLocation): Promise<void> {
  if (location.PGLITE_DIR === undefined || location.PGLITE_DIR !== process.env.PGLITE_DIR) {
    await closeDatabase();
    return;
  }
  const handle = await database();
  if (handle.servedBy !== undefined) {
    // Reached through the app's socket: the CLI will be too; this process lets its turn go.
    await closeDatabase();
    return;
  }
  if ((await shareEmbeddedDatabase()) === undefined) await closeDatabase();
}
