// How the app refuses to start, and how its health check reports a database it cannot reach.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startApp, startAppExpectingExit, type RunningApp } from '../support/app-server';
import { LOG_LEVEL, logLines } from '../support/logs';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';

let scratch: string;
// The app must exit before it opens any database: this directory must never appear.
let pgliteDir: string;
let app: RunningApp | undefined;

beforeAll(() => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'gateway-startup-'));
  pgliteDir = path.join(scratch, 'db');
});

afterEach(async () => {
  await app?.stop();
  app = undefined;
});

afterAll(() => {
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

async function unreachableDatabaseUrl(): Promise<string> {
  return `postgres://postgres@127.0.0.1:${await freePort()}/gateway`;
}

describe('starting the app with a wrong environment', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it.each([
    ['APP_ENV', { APP_ENV: 'staging' }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://root@127.0.0.1/gateway' }],
    ['RATE_LIMIT_GLOBAL_MAX', { RATE_LIMIT_GLOBAL_MAX: 'lots' }],
    ['TRUSTED_PROXY_HOPS', { TRUSTED_PROXY_HOPS: '-1' }],
  ])('exits non-zero and names %s', async (name, env) => {
    const exited = await startAppExpectingExit({ env: { PGLITE_DIR: pgliteDir, ...env } });
    expect(exited.code).not.toBe(0);
    expect(fatalMessage(exited.output)).toMatch(new RegExp(`^cannot start: [\\s\\S]*\\b${name}\\b`));
    expect(fs.existsSync(pgliteDir)).toBe(false);
  });

  it('refuses an alert webhook URL that fetch would refuse (credentials in it), by name and without echoing them', async () => {
    const exited = await startAppExpectingExit({
      env: { PGLITE_DIR: pgliteDir, ALERT_WEBHOOK_URL: 'https://alertas:token-de-la-url@hooks.example.gt/recibir', ALERT_WEBHOOK_SECRET: 'a-webhook-secret-of-at-least-32-chars' },
    });
    expect(exited.code).not.toBe(0);
    expect(fatalMessage(exited.output)).toMatch(/^cannot start: [\s\S]*\bALERT_WEBHOOK_URL: must not carry a user name or password/);
    expect(exited.output).not.toContain('token-de-la-url');
    expect(fs.existsSync(pgliteDir)).toBe(false);
  });

  it('names PORT when its port is taken, and exits non-zero without a stack trace (issue 32, point 9)', async () => {
    // Someone else's server on the port; it hangs up on the harness's health checks.
    const taken = net.createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const port = (taken.address() as net.AddressInfo).port;
      // Its own directory. The port is tried before Next prepares, which opens the database: a
      // start that had opened it waited for V8's WebAssembly compile before it could exit, over a
      // minute on a busy machine (server.mjs).
      const portTakenDir = path.join(scratch, 'port-taken-db');
      const exited = await startAppExpectingExit({ port, env: { PGLITE_DIR: portTakenDir } });
      expect(exited.code).not.toBe(0);
      expect(fatalMessage(exited.output)).toBe(`cannot listen on 127.0.0.1:${port} (EADDRINUSE): set PORT to a free port, in the environment or in .env`);
      expect(exited.output).not.toMatch(/\n\s+at /);
      expect(fs.existsSync(portTakenDir)).toBe(false);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it('in production without its secrets, lists every missing one', async () => {
    const exited = await startAppExpectingExit({ env: { APP_ENV: 'production', PGLITE_DIR: pgliteDir, NEXTAUTH_SECRET: undefined, RECORD_JOURNAL_DIR: undefined, PERSONAL_DATA_KEY: undefined, PERSONAL_DATA_SEARCH_KEY: undefined } });
    expect(exited.code).not.toBe(0);
    for (const name of ['DATABASE_URL', 'NEXTAUTH_SECRET', 'NEXTAUTH_URL', 'RENAP_API_KEY', 'RTU_API_KEY', 'CATALOG_CLIENT_ID', 'CATALOG_CLIENT_SECRET', 'RECORD_JOURNAL_DIR', 'SUPPORT_CONTACT_EMAIL', 'PERSONAL_DATA_KEY', 'PERSONAL_DATA_SEARCH_KEY', 'ISSUER_LEGAL_NAME', 'ISSUER_NIT', 'ISSUER_ADDRESS']) {
      expect(fatalMessage(exited.output)).toContain(name);
    }
    expect(fs.existsSync(pgliteDir)).toBe(false);
  });
});

describe('a database the app cannot reach', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('stops the start when migrations cannot run, saying why', async () => {
    const exited = await startAppExpectingExit({ env: { DATABASE_URL: await unreachableDatabaseUrl() } });
    expect(exited.code).not.toBe(0);
    expect(fatalMessage(exited.output)).toMatch(/^cannot start: .*ECONNREFUSED/);
  });

  it('makes /api/health answer 503 when the app runs without migrating on start', async () => {
    app = await startApp({ env: { DATABASE_URL: await unreachableDatabaseUrl(), MIGRATE_ON_START: 'false' }, waitFor: 'responding' });
    const response = await fetch(`${app.baseUrl}/api/health`);
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ status: 'unavailable' });
    expect(logLines(app.logs()).find((line) => line.component === 'health')).toMatchObject({ level: LOG_LEVEL.error, msg: 'database check failed' });
  });
});

/** What the app's last words said: the message of its fatal log line. */
function fatalMessage(output: string): string {
  return logLines(output).find((line) => line.level === LOG_LEVEL.fatal)?.msg ?? `(no fatal log line in:\n${output})`;
}
