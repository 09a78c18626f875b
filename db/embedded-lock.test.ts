// The embedded database's lock file (db/embedded-lock.ts): one owner at a time, its socket
// announced to others, and whatever a dead process left behind taken over.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claimDirectory, lockFileOf, readOwner } from './embedded-lock';

let directory: string;
let dataDir: string;

beforeEach(() => {
  directory = fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-lock-'));
  dataDir = path.join(directory, 'db');
});

afterEach(() => {
  fs.rmSync(directory, { recursive: true, force: true });
});

/** The pid of a process that has already exited. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '']).pid!;
}

describe('the embedded database lock file', () => {
  it('names its owner, then its socket, and goes away on release', () => {
    const claim = claimDirectory(dataDir);
    if (!claim.claimed) throw new Error('expected to claim a fresh directory');
    expect(readOwner(lockFileOf(dataDir))).toEqual({ pid: process.pid, socket: undefined });
    claim.announce(`${dataDir}.sock`);
    expect(readOwner(lockFileOf(dataDir))).toEqual({ pid: process.pid, socket: `${dataDir}.sock` });
    claim.release();
    expect(fs.existsSync(lockFileOf(dataDir))).toBe(false);
  });

  it('tells another claimant who owns it, in the current and in the older (bare pid) format', () => {
    const parent = process.ppid;
    fs.writeFileSync(lockFileOf(dataDir), JSON.stringify({ pid: parent, socket: '/tmp/owner.sock' }));
    expect(claimDirectory(dataDir)).toEqual({ claimed: false, owner: { pid: parent, socket: '/tmp/owner.sock' } });
    fs.writeFileSync(lockFileOf(dataDir), String(parent));
    expect(claimDirectory(dataDir)).toEqual({ claimed: false, owner: { pid: parent, socket: undefined } });
  });

  it('takes over from a dead owner, removing the socket it left', () => {
    const socket = `${dataDir}.sock`;
    fs.writeFileSync(socket, '');
    fs.writeFileSync(lockFileOf(dataDir), JSON.stringify({ pid: deadPid(), socket }));
    const claim = claimDirectory(dataDir);
    expect(claim.claimed).toBe(true);
    expect(fs.existsSync(socket)).toBe(false);
    expect(readOwner(lockFileOf(dataDir))?.pid).toBe(process.pid);
  });

  it('takes over a damaged lock file', () => {
    fs.writeFileSync(lockFileOf(dataDir), '{"pid":');
    expect(claimDirectory(dataDir).claimed).toBe(true);
  });
});
