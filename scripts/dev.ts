// npm run dev: the upstream simulator and the app (with its console) in development mode.
// The app migrates and seeds the embedded database on start and prints the demo credentials.
// .env files count here too (PORT there is where the simulator sends payment webhooks).
import '@/lib/platform/settings/load-env-files';
import { spawn, type ChildProcess } from 'node:child_process';
import PinoPretty from 'pino-pretty';
import { developmentSimulatorEnv } from './dev-env';

const children: ChildProcess[] = [];

/** The app's JSON log lines, readable in a terminal; other lines (Next's, the seed's) pass as they are. */
function readableLogs(): NodeJS.WritableStream {
  return PinoPretty({ colorize: process.stdout.isTTY, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', sync: true });
}

function start(name: string, command: string, args: string[], pretty = false, env: NodeJS.ProcessEnv = process.env): ChildProcess {
  const child = spawn(command, args, { stdio: pretty ? ['inherit', 'pipe', 'inherit'] : 'inherit', env });
  if (pretty) child.stdout?.pipe(readableLogs());
  child.on('exit', (code, signal) => {
    if (stopping) return;
    console.log(`[dev] ${name} stopped (${signal ?? `exit ${code}`}); stopping the rest`);
    // Neither stops by itself while things are well: whatever it said, npm run dev failed.
    shutdown(code === 0 || code === null ? 1 : code);
  });
  children.push(child);
  return child;
}

let stopping = false;
function shutdown(code: number): void {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  setTimeout(() => process.exit(code), 1_000).unref();
}

process.on('SIGINT', () => shutdown(0));
process.on('SIGTERM', () => shutdown(0));

start('simulator', process.execPath, ['--import', 'tsx', 'simulator/main.ts'], false, developmentSimulatorEnv(process.env));
start('app', process.execPath, ['server.mjs', '--dev'], true);
