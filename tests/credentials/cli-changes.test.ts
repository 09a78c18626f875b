// A token revoked or an address taken off an allow-list with the CLI is refused by the app once the
// CLI has answered, on the embedded database too (issue 32, point 9). There the CLI reaches PGlite
// through the app's socket, and the notification its change raises stayed on the CLI's connection:
// the app took the change with its next periodic reload, and a revoked token still answered 200
// (charged) 1–5 s later. This process plays the app: it has the database open, lends it to the CLI
// on its socket as `npm run dev` does, and authenticates from its copy of the credentials
// (lib/core/integrations/directory.ts), as every lookup does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { integrationDirectory, type Authentication } from '@/lib/core/integrations/directory';
import { runCli } from '../support/cli';
import { resetEnvCache, useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';

/** The periodic reload, as long as it may be: a change seen sooner came with its notification. */
const REFRESH_MS = 10_000;
/** On PostgreSQL the notification reaches this process beside the CLI's answer, not before it. */
const POSTGRES_NOTIFICATION_MS = 1_000;

let testDb: TestDatabase;

beforeAll(async () => {
  process.env.INTEGRATION_CACHE_REFRESH_MS = String(REFRESH_MS);
  testDb = await useTestDatabase();
  resetEnvCache();
});

afterAll(async () => {
  delete process.env.INTEGRATION_CACHE_REFRESH_MS;
  await testDb?.cleanup();
});

async function cliJson<T>(...args: string[]): Promise<T> {
  const result = await runCli([...args, '--json'], testDb.env);
  if (result.code !== 0) throw new Error(`cli ${args.join(' ')} exited ${result.code}:\n${result.stdout}\n${result.stderr}`);
  return result.json<T>();
}

/**
 * What the app answers `attempt` with, right after the CLI answered: on the embedded database at
 * once; on PostgreSQL the last answer within a notification's time.
 */
async function answerAfterTheCli(attempt: () => Promise<Authentication>, expected: Authentication['status']): Promise<Authentication['status']> {
  const deadline = Date.now() + (testDb.kind === 'pglite' ? 0 : POSTGRES_NOTIFICATION_MS);
  let answer = (await attempt()).status;
  while (answer !== expected && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    answer = (await attempt()).status;
  }
  return answer;
}

describe('changes made with the CLI reach the app once the CLI has answered', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('refuses a token revoked with the CLI, while the integration\'s other token keeps working', async () => {
    const created = await cliJson<{ nombre: string; token: string }>('integrations:create', 'revocada-por-cli');
    const second = await cliJson<{ id: number; token: string }>('integrations:token-create', created.nombre, '--label', 'Segundo');
    const directory = integrationDirectory();
    await directory.start();
    expect((await directory.authenticate(created.nombre, second.token)).status).toBe('authenticated');

    await cliJson('integrations:token-revoke', created.nombre, String(second.id));
    expect(await answerAfterTheCli(() => directory.authenticate(created.nombre, second.token), 'unknown')).toBe('unknown');
    expect((await directory.authenticate(created.nombre, created.token)).status).toBe('authenticated');
  });

  it('refuses an address taken off the allow-list with the CLI, and serves the one left on it', async () => {
    const created = await cliJson<{ nombre: string; token: string }>('integrations:create', 'lista-por-cli');
    const directory = integrationDirectory();
    await directory.start();
    expect((await directory.authenticate(created.nombre, created.token, '198.51.100.7')).status).toBe('authenticated');

    await cliJson('integrations:allowed-ips', created.nombre, '--set', '203.0.113.7');
    expect(await answerAfterTheCli(() => directory.authenticate(created.nombre, created.token, '198.51.100.7'), 'address_refused')).toBe('address_refused');
    expect((await directory.authenticate(created.nombre, created.token, '203.0.113.7')).status).toBe('authenticated');
  });
});
