import fs from 'node:fs';
import path from 'node:path';
import { ensurePrivateDirectory } from '@/lib/platform/files/private-directory';

/**
 * Who has the embedded database open. PGlite has no lock across processes, and two processes on
 * one data directory corrupt it, so the process that opens it writes this file next to the
 * directory (`.data/pglite.lock`): its pid and, once it serves the database to other processes
 * (db/embedded-share.ts), the path of its socket. Others read it to connect instead of opening.
 */
export interface EmbeddedOwner {
  pid: number;
  socket?: string;
}

export type DirectoryClaim =
  | { claimed: true; announce(socket: string): void; release(): void }
  | { claimed: false; owner: EmbeddedOwner };

export function lockFileOf(dataDir: string): string {
  return `${dataDir}.lock`;
}

/**
 * Takes the directory for this process, or says which live process has it. A file left by a
 * process that is gone (a crash, a kill -9) is removed, with the socket it names, and taken over.
 */
export function claimDirectory(dataDir: string): DirectoryClaim {
  const lockFile = lockFileOf(dataDir);
  ensurePrivateDirectory(path.dirname(lockFile));
  for (let attempt = 0; attempt < 3; attempt++) {
    if (createExclusively(lockFile, { pid: process.pid })) return ownClaim(lockFile);
    const owner = readOwner(lockFile);
    if (!owner) continue;
    if (owner.pid !== process.pid && isAlive(owner.pid)) return { claimed: false, owner };
    removeStale(lockFile, owner);
  }
  throw new Error(`Could not lock the embedded database ${dataDir}`);
}

function ownClaim(lockFile: string): DirectoryClaim {
  let socket: string | undefined;
  const release = () => {
    process.removeListener('exit', release);
    if (readOwner(lockFile)?.pid === process.pid) fs.rmSync(lockFile, { force: true });
    if (socket) fs.rmSync(socket, { force: true });
  };
  process.on('exit', release);
  return {
    claimed: true,
    release,
    announce(socketPath) {
      socket = socketPath;
      replace(lockFile, { pid: process.pid, socket: socketPath });
    },
  };
}

/** Written whole or not at all (a link cannot replace an existing file): readers never see half. */
function createExclusively(lockFile: string, owner: EmbeddedOwner): boolean {
  const draft = `${lockFile}.${process.pid}.tmp`;
  fs.writeFileSync(draft, JSON.stringify(owner), { mode: 0o600 });
  try {
    fs.linkSync(draft, lockFile);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return false;
  } finally {
    fs.rmSync(draft, { force: true });
  }
}

function replace(lockFile: string, owner: EmbeddedOwner): void {
  const draft = `${lockFile}.${process.pid}.tmp`;
  fs.writeFileSync(draft, JSON.stringify(owner), { mode: 0o600 });
  fs.renameSync(draft, lockFile);
}

/** The file's owner; undefined when there is no file. */
export function readOwner(lockFile: string): EmbeddedOwner | undefined {
  let text: string;
  try {
    text = fs.readFileSync(lockFile, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    // Before the file named a socket it held the bare pid, which JSON.parse reads as a number.
    const owner = typeof parsed === 'number' ? { pid: parsed } : (parsed as EmbeddedOwner);
    if (Number.isInteger(owner.pid) && owner.pid > 0) return { pid: owner.pid, socket: typeof owner.socket === 'string' ? owner.socket : undefined };
  } catch {
    // Not ours, or damaged: treated as stale below.
  }
  return { pid: 0 };
}

function removeStale(lockFile: string, stale: EmbeddedOwner): void {
  // Another process may have replaced the stale file meanwhile: leave a fresh owner's file alone.
  const current = readOwner(lockFile);
  if (current && (current.pid !== stale.pid || current.socket !== stale.socket)) return;
  if (stale.socket) fs.rmSync(stale.socket, { force: true });
  fs.rmSync(lockFile, { force: true });
}

export function isAlive(pid: number): boolean {
  if (pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Waits up to `timeoutMs` for `pid` to exit; true when it has. */
export async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isAlive(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}
