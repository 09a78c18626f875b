// Issue 14, point 8: while the app runs on the embedded database, the CLI works on the same data
// through the app's socket (db/embedded-share.ts); when the app is not running, or crashed and
// left its files behind, the CLI opens the directory itself.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { lockFileOf, readOwner } from '@/db/embedded-lock';
import { runCli } from '../support/cli';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';
import { eventually, ROUTES, startGateway, type Gateway, type TestIntegration } from '../conformance/harness';

interface CreatedIntegration {
  id: number;
  nombre: string;
  token: string;
  balanceCentavos: number;
}

// On PostgreSQL every process (app, CLI) connects to the server on its own; on the embedded
// database the CLI goes through the app's socket. Creating an integration with the CLI while the
// app runs and calling it over HTTP must work on both; the lock file and socket checks are the
// embedded database's, and on PostgreSQL the check is that the app serves no socket at all.
const embedded = !inject('adminDatabaseUrl');

describe('the CLI beside the running app', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  let testDb: TestDatabase;
  let gateway: Gateway | undefined;
  const cli = async (...args: string[]) => {
    // This file is about the CLI and the directory itself: the test process never lends it its own.
    const result = await runCli([...args, '--json'], testDb.env, {}, undefined, { lendDatabase: false });
    if (result.code !== 0) throw new Error(`cli ${args.join(' ')} exited ${result.code}:\n${result.stdout}\n${result.stderr}`);
    return result.json();
  };
  const lockFile = () => lockFileOf(testDb.env.PGLITE_DIR!);
  // On PostgreSQL the app is given an embedded data directory too, to show it never serves it.
  const unusedEmbeddedDirectory = path.join(os.tmpdir(), `cli-beside-app-${process.pid}`, 'db');

  beforeAll(async () => {
    testDb = await useTestDatabase();
    // The contract's source ceiling (30 s), not the tests' short one: no test here waits on a slow
    // source, and on a busy CI machine a lookup queued behind the CLI's work outlasted 1.5 s.
    const contractCeiling = { SOURCE_TIMEOUT_MS: '30000' };
    gateway = await startGateway(testDb, { env: embedded ? contractCeiling : { ...contractCeiling, DATABASE_URL: testDb.env.DATABASE_URL, PGLITE_DIR: unusedEmbeddedDirectory } });
  }, PROCESS_TEST_TIMEOUT_MS);

  afterAll(async () => {
    await gateway?.stop();
    await testDb?.cleanup();
    fs.rmSync(path.dirname(unusedEmbeddedDirectory), { recursive: true, force: true });
  });

  if (!embedded) {
    it('serves no embedded database when DATABASE_URL is set: no lock file, no socket', () => {
      expect(fs.existsSync(lockFileOf(unusedEmbeddedDirectory))).toBe(false);
      expect(fs.existsSync(`${unusedEmbeddedDirectory}.sock`)).toBe(false);
    });
  }

  it('creates an integration with the CLI that the running app serves with its next credentials reload', async () => {
    const created = (await cli('integrations:create', 'acme-beside', '--tariff', '1.50', '--balance', '10', '--enable', 'all')) as CreatedIntegration;
    const acme: TestIntegration = { id: created.id, nombre: created.nombre, token: created.token };
    // The app's copy of the credentials learns of the new integration from the CLI's change
    // notification (on the embedded database before the CLI answers, on PostgreSQL moments after)
    // or at the latest with its refresh interval (2 s); until then the lookup is refused (401,
    // neither charged nor recorded).
    const answer = await eventually(
      () => gateway!.call(ROUTES.cuiNit, { as: acme, json: { nit: gateway!.sample.individual.nit } }),
      (candidate) => candidate.status !== 401,
      2 * 2_000 + 2_000,
      'the new integration is served',
    );
    expect(answer.status, answer.text).toBe(200);

    // And the other way round: the CLI reads what the app wrote.
    const records = (await cli('records:list', '--integration', 'acme-beside')) as Array<{ httpStatus: number; chargedCentavos: number }>;
    expect(records).toEqual([expect.objectContaining({ httpStatus: 200, chargedCentavos: 150 })]);
    expect(((await cli('integrations:list')) as Array<{ nombre: string }>).map((integration) => integration.nombre)).toContain('acme-beside');
  });

  it('keeps transactions whole while CLI commands and billed lookups run together', async () => {
    const created = (await cli('integrations:create', 'busy-beside', '--tariff', '1.00', '--balance', '5', '--enable', 'all')) as CreatedIntegration;
    const busy: TestIntegration = { id: created.id, nombre: created.nombre, token: created.token };
    // Once the app's credentials copy has it (an unbilled lookup, so the balance stays as created).
    await eventually(
      () => gateway!.call(ROUTES.renap, { as: busy, json: { cui: gateway!.sample.individual.cui } }),
      (answer) => answer.status !== 403,
      2 * 2_000 + 2_000,
      'the new integration is served',
    );
    const nit = gateway!.sample.individual.nit;
    const [answers, topUps] = await Promise.all([
      Promise.all(Array.from({ length: 10 }, () => gateway!.call(ROUTES.omisos, { as: busy, json: { nit } }))),
      Promise.all([1, 2, 3].map((n) => cli('integrations:top-up', 'busy-beside', '2', '--note', `Depósito ${n}`))),
    ]);
    const charged = answers.filter((answer) => answer.status === 200).length;
    // Each answer is either served and charged or refused for balance: nothing in between.
    expect(answers.filter((answer) => answer.status !== 200 && answer.status !== 402).map((answer) => `${answer.status}: ${answer.text.slice(0, 300)}`)).toEqual([]);
    expect(topUps).toHaveLength(3);
    const shown = (await cli('integrations:show', 'busy-beside')) as { balanceCentavos: number };
    expect(shown.balanceCentavos).toBe(500 + 3 * 200 - charged * 100);
    // The reconciliation finds every balance equal to its ledger.
    expect(await cli('ledger:verify')).toMatchObject({ ok: true });
  });

  if (embedded) {
    it('announces its socket in the lock file next to the data directory, reachable by its owner only', () => {
      const owner = readOwner(lockFile());
      expect(owner?.pid).toBe(gateway!.app.pid);
      expect(owner?.socket).toBe(`${testDb.env.PGLITE_DIR}.sock`);
      const socket = fs.statSync(owner!.socket!);
      expect(socket.isSocket()).toBe(true);
      expect(socket.mode & 0o077).toBe(0);
    });

    it('opens the directory itself once the app has stopped, which removed its socket and lock file', async () => {
      const socket = readOwner(lockFile())!.socket!;
      await gateway!.stop();
      gateway = undefined;
      expect(fs.existsSync(lockFile())).toBe(false);
      expect(fs.existsSync(socket)).toBe(false);
      expect(((await cli('integrations:list')) as Array<{ nombre: string }>).map((integration) => integration.nombre)).toEqual(
        expect.arrayContaining(['acme-beside', 'busy-beside']),
      );
      expect(fs.existsSync(lockFile())).toBe(false);
    });

    it('takes over from a crashed app: its lock file and socket left behind do not stop the CLI', async () => {
      gateway = await startGateway(testDb);
      const pid = gateway.app.pid;
      const socket = readOwner(lockFile())!.socket!;
      process.kill(pid, 'SIGKILL');
      await gateway.stop();
      gateway = undefined;
      expect(readOwner(lockFile())?.pid).toBe(pid);
      expect(fs.existsSync(socket)).toBe(true);

      expect(((await cli('integrations:list')) as Array<{ nombre: string }>).length).toBeGreaterThanOrEqual(2);
      expect(fs.existsSync(lockFile())).toBe(false);
      expect(fs.existsSync(socket)).toBe(false);
    });

    it('refuses, naming the process, when a live process holds the lock and does not answer on its socket', async () => {
      // A process that is alive but is not the app: a pid reused after a crash, say.
      const stranger = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
      try {
        fs.writeFileSync(lockFile(), JSON.stringify({ pid: stranger.pid, socket: `${testDb.env.PGLITE_DIR}.sock` }));
        const result = await runCli(['integrations:list'], testDb.env, {}, undefined, { lendDatabase: false });
        expect(result.code).toBe(1);
        expect(result.stderr).toContain(`está en uso por el proceso ${stranger.pid}, que no responde en su socket`);
      } finally {
        stranger.kill('SIGKILL');
        fs.rmSync(lockFile(), { force: true });
      }
    });
  }
});
