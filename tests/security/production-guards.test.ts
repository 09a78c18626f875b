// How a half-configured production start ends: it does not.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppExpectingExit } from '../support/app-server';
import { LOG_LEVEL, logLines } from '../support/logs';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';

let scratch: string;
let pgliteDir: string;

beforeAll(() => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'gateway-guards-'));
  pgliteDir = path.join(scratch, 'db');
});

afterAll(() => {
  fs.rmSync(scratch, { recursive: true, force: true });
});

describe('a built app started without APP_ENV', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('is production: refuses to start without its secrets, seeds nothing and prints no credential', async () => {
    const exited = await startAppExpectingExit({
      env: { APP_ENV: undefined, SEED_ON_START: undefined, NEXTAUTH_SECRET: undefined, PGLITE_DIR: pgliteDir },
    });
    expect(exited.code).not.toBe(0);
    const fatal = logLines(exited.output).find((line) => line.level === LOG_LEVEL.fatal);
    expect(fatal?.msg).toMatch(/^cannot start: Invalid environment/);
    for (const name of ['DATABASE_URL', 'NEXTAUTH_SECRET', 'NEXTAUTH_URL', 'RENAP_API_KEY', 'RENAP_BASE_URL']) expect(fatal?.msg).toContain(name);
    expect(exited.output).not.toMatch(/password:|x-integracion-token|tlk_/);
    expect(fs.existsSync(pgliteDir)).toBe(false);
  });
});

describe('a built app started with `next start` instead of server.mjs', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('refuses to start: nothing would stop clients from choosing their own IP for the limits', async () => {
    const exited = await startAppExpectingExit({ launcher: 'next start', env: { PGLITE_DIR: pgliteDir } });
    expect(exited.code).not.toBe(0);
    const fatal = logLines(exited.output).find((line) => line.level === LOG_LEVEL.fatal);
    expect(fatal?.msg).toContain('npm start');
    expect(fs.existsSync(pgliteDir)).toBe(false);
  });
});
