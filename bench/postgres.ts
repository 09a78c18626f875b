// A throwaway PostgreSQL 15 cluster for the benchmarks when DATABASE_URL is not given. initdb
// refuses to run as root, so as root the cluster belongs to the postgres user.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const POSTGRES_BIN = process.env.POSTGRES_BIN ?? '/usr/lib/postgresql/15/bin';

export interface ThrowawayPostgres {
  url: string;
  /** The cluster's directory (data/, log.txt and, with a log directory setting, its logs). */
  directory: string;
  /** Stops the server; deletes the cluster unless it was asked to be kept. */
  stop(): void;
}

export interface ThrowawayPostgresOptions {
  /** Server settings on top of the defaults below (`-c name=value`). */
  settings?: Record<string, string>;
  /** Keep the cluster here across runs: reused when it exists, never deleted. */
  keepIn?: string;
}

function runAsOwner(command: string, args: string[]): void {
  const isRoot = process.getuid?.() === 0;
  if (!isRoot) {
    execFileSync(command, args, { stdio: 'pipe' });
    return;
  }
  const quoted = [command, ...args].map((part) => `'${part.replaceAll("'", "'\\''")}'`).join(' ');
  execFileSync('su', ['postgres', '-c', quoted], { stdio: 'pipe' });
}

export function startThrowawayPostgres(port: number, options: ThrowawayPostgresOptions = {}): ThrowawayPostgres {
  const directory = options.keepIn ? path.resolve(options.keepIn) : fs.mkdtempSync(path.join(os.tmpdir(), 'gateway-bench-pg-'));
  const data = path.join(directory, 'data');
  if (!fs.existsSync(path.join(data, 'PG_VERSION'))) {
    fs.mkdirSync(directory, { recursive: true });
    if (process.getuid?.() === 0) execFileSync('chown', ['postgres:postgres', directory]);
    fs.chmodSync(directory, 0o700);
    runAsOwner(path.join(POSTGRES_BIN, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8']);
  }
  const settings = { listen_addresses: '127.0.0.1', max_connections: '200', fsync: 'off', ...options.settings };
  const serverOptions = [`-p ${port}`, `-k ${directory}`, ...Object.entries(settings).map(([name, value]) => `-c ${name}=${value}`)].join(' ');
  runAsOwner(path.join(POSTGRES_BIN, 'pg_ctl'), ['-D', data, '-o', serverOptions, '-l', path.join(directory, 'log.txt'), '-w', '-t', '300', 'start']);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    directory,
    stop() {
      runAsOwner(path.join(POSTGRES_BIN, 'pg_ctl'), ['-D', data, '-m', 'fast', 'stop']);
      if (!options.keepIn) fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
