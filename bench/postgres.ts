// A throwaway PostgreSQL 15 cluster for the benchmark when DATABASE_URL is not given. initdb
// refuses to run as root, so as root the cluster belongs to the postgres user.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const POSTGRES_BIN = process.env.POSTGRES_BIN ?? '/usr/lib/postgresql/15/bin';

export interface ThrowawayPostgres {
  url: string;
  stop(): void;
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

export function startThrowawayPostgres(port: number): ThrowawayPostgres {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'gateway-bench-pg-'));
  if (process.getuid?.() === 0) execFileSync('chown', ['postgres:postgres', directory]);
  fs.chmodSync(directory, 0o700);
  const data = path.join(directory, 'data');
  runAsOwner(path.join(POSTGRES_BIN, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8']);
  runAsOwner(path.join(POSTGRES_BIN, 'pg_ctl'), [
    '-D',
    data,
    '-o',
    `-p ${port} -k ${directory} -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=off`,
    '-l',
    path.join(directory, 'log.txt'),
    '-w',
    'start',
  ]);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop() {
      runAsOwner(path.join(POSTGRES_BIN, 'pg_ctl'), ['-D', data, '-m', 'fast', 'stop']);
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
