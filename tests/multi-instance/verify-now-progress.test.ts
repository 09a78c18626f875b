// "Verificar ahora" while a run takes long, on PostgreSQL with two instances: the test holds the
// run mid-way (a lock on the table of its hourly-checkpoints check, which only a database server shared with the
// app allows), and sees the start answer at once, the Panel show the progress, and two starts at
// the same moment, one on each instance, start one run between them.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database, db } from '@/db/client';
import { createConsoleUser } from '@/lib/flows/auth/users';
import { startApp, type RunningApp } from '../support/app-server';
import { ConsoleClient } from '../support/console-client';
import { ALREADY_RUNNING, panelUntil, says, STARTED, startVerification } from '../support/verify-now';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';

let testDatabase: TestDatabase;
let instances: RunningApp[] = [];
let support: ConsoleClient;
let admin: ConsoleClient;

async function newUser(email: string, role: 'admin' | 'support') {
  const created = await createConsoleUser({ kind: 'system', name: 'test' }, { email, name: `Persona ${role}`, role, mustChangePassword: false });
  if (!created.ok) throw new Error(created.error.message);
  return { email, password: created.value.password };
}


async function consoleRuns(): Promise<number> {
  const [row] = await (await database()).rows<{ count: string | number }>(sql`select count(*) as count from ledger_verifications where trigger = 'console'`);
  return Number(row!.count);
}

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  const supportUser = await newUser('soporte-progreso@example.com', 'support');
  const adminUser = await newUser('admin-progreso@example.com', 'admin');
  instances = await Promise.all([0, 1].map(() => startApp({ env: { RATE_LIMIT_SIGN_IN_PER_MINUTE: '100' } })));
  support = new ConsoleClient(instances[0]!.baseUrl);
  admin = new ConsoleClient(instances[1]!.baseUrl);
  expect(await support.signIn(supportUser.email, supportUser.password)).toBeNull();
  expect(await admin.signIn(adminUser.email, adminUser.password)).toBeNull();
}, PROCESS_TEST_TIMEOUT_MS);

afterAll(async () => {
  await Promise.all(instances.map((instance) => instance.stop()));
  await testDatabase?.cleanup();
});

describe('Verificar ahora while a run takes long', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('answers at once, shows the progress, and two starts at once, one on each instance, start one run', async () => {
    const before = await consoleRuns();
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const locked = new Promise<void>((resolve) => {
      void (async () => {
        await (await db()).transaction(async (tx) => {
          await tx.execute(sql`lock table ledger_hourly_balances in access exclusive mode`);
          resolve();
          await released;
        });
      })();
    });
    await locked;
    try {
      const [first, second] = await Promise.all([startVerification(support), startVerification(admin)]);
      const answers = [first, second];
      expect(answers.filter((answer) => says(answer, STARTED))).toHaveLength(1);
      expect(answers.filter((answer) => says(answer, ALREADY_RUNNING))).toHaveLength(1);
      const progress = await panelUntil(admin, (page) => page.includes('paso 5 de 6'));
      expect(progress).toMatch(/Verificando… paso 5 de 6 \(saldos de control por hora\), \d+ s/);
      expect(await consoleRuns()).toBe(before + 1);
    } finally {
      release();
    }
    expect(await panelUntil(admin, (page) => !page.includes('Verificando…') && /✓ Conciliación de todas las integraciones/.test(page))).toMatch(
      /✓ Conciliación de todas las integraciones/,
    );
  });
});
