// "Verificar ahora" over HTTP against the built app: support staff and administrators start the
// ledger reconciliation from the Panel, the start answers before the run ends, the Panel shows
// the run's progress and then its result, a second start while a run is under way (here or on
// another instance) gets the running one, and a run whose instance died reads as interrupted.
// Holding a run mid-way needs a PostgreSQL server: tests/multi-instance/verify-now-progress.test.ts.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { createTestIntegration } from '@/tests/conformance/harness';
import { createConsoleUser } from '@/lib/flows/auth/users';
import { startApp, type RunningApp } from '../support/app-server';
import { ConsoleClient } from '../support/console-client';
import { ALREADY_RUNNING, panel, panelUntil, says, STARTED, startVerification } from '../support/verify-now';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';

let testDatabase: TestDatabase;
let app: RunningApp;
let integrationId: number;
let support: ConsoleClient;
let admin: ConsoleClient;
const users: Record<'admin' | 'support', { email: string; password: string }> = {} as never;

async function newUser(email: string, role: 'admin' | 'support') {
  const created = await createConsoleUser({ kind: 'system', name: 'test' }, { email, name: `Persona ${role}`, role, mustChangePassword: false });
  if (!created.ok) throw new Error(created.error.message);
  users[role] = { email, password: created.value.password };
}

const ALL_OK = /✓ Conciliación de todas las integraciones \(iniciada por Persona support el [^)]*, [\d.,]+ s\): saldos, libro mayor y registros coinciden\./;

async function consoleRuns(): Promise<number> {
  return app.withDatabase(async () => {
    const [row] = await (await database()).rows<{ count: string | number }>(sql`select count(*) as count from ledger_verifications where trigger = 'console'`);
    return Number(row!.count);
  });
}

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  await newUser('admin-conciliacion@example.com', 'admin');
  await newUser('soporte-conciliacion@example.com', 'support');
  integrationId = (await createTestIntegration('conciliable-sa', { tariffCentavos: 100, balanceCentavos: 5_000 })).id;
  app = await startApp({ env: { RATE_LIMIT_SIGN_IN_PER_MINUTE: '100' } });
  support = new ConsoleClient(app.baseUrl);
  admin = new ConsoleClient(app.baseUrl);
  expect(await support.signIn(users.support.email, users.support.password)).toBeNull();
  expect(await admin.signIn(users.admin.email, users.admin.password)).toBeNull();
}, PROCESS_TEST_TIMEOUT_MS);

afterAll(async () => {
  await app?.stop();
  await testDatabase?.cleanup();
});

describe('Verificar ahora', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('is refused without a session, and support staff start a run over everything whose result the Panel then shows', async () => {
    const anonymous = await startVerification(new ConsoleClient(app.baseUrl));
    expect(says(anonymous, 'Su sesión terminó o ya no es válida.')).toBe(true);
    expect(await consoleRuns()).toBe(0);

    const answer = await startVerification(support);
    expect(answer.status).toBe(200);
    expect(says(answer, STARTED)).toBe(true);
    const text = await panelUntil(support, (page) => ALL_OK.test(page));
    expect(text).toMatch(ALL_OK);
    expect(text).not.toContain('Verificando…');
  });

  it('lets an administrator verify one integration chosen by its name, and says when no integration has that name', async () => {
    const unknown = await startVerification(admin, 'Nadie S.A.');
    expect(says(unknown, 'Ninguna integración se llama así')).toBe(true);

    expect(says(await startVerification(admin, 'CONCILIABLE-SA'), STARTED)).toBe(true);
    const one = new RegExp(`✓ Conciliación de la integración conciliable-sa \\(iniciada por Persona admin el [^)]*\\): saldos, libro mayor y registros coinciden\\.`);
    const text = await panelUntil(admin, (page) => one.test(page));
    expect(text).toMatch(one);
    // The latest run over everything is still reported beside it.
    expect(text).toContain('Última conciliación completa');

    // Who started each run, and over what, is in the audit log.
    const audited = await app.withDatabase(async () =>
      (await database()).rows(sql`select actor, target_type, target_id from audit_log where action = 'ledger.verify' order by id`),
    );
    expect(audited).toEqual([
      { actor: expect.stringMatching(/^user:\d+ soporte-conciliacion@example\.com$/), target_type: 'ledger', target_id: 'all' },
      { actor: expect.stringMatching(/^user:\d+ admin-conciliacion@example\.com$/), target_type: 'integration', target_id: String(integrationId) },
    ]);
  });

  it('shows the run another instance has under way instead of starting a second one, and that run as interrupted once that instance died', async () => {
    // Another instance holds the lease and is at step 3.
    await app.withDatabase(async () => {
      const handle = await database();
      await handle.rows(sql`update job_leases set holder = 'otra-instancia:1:abc', expires_at = now() + interval '10 minutes' where name = 'ledger-verify-console'`);
      await handle.rows(sql`
        insert into ledger_verifications (scope, trigger, started_by, started_at, heartbeat_at, steps_done, steps_total, step_name)
        values ('all', 'console', 'user:1 otra@example.com', now(), now(), 2, 5, 'registros cobrados más de una vez')`);
    });
    const before = await consoleRuns();
    const again = await startVerification(support);
    expect(says(again, ALREADY_RUNNING)).toBe(true);
    expect(await consoleRuns()).toBe(before);
    expect(await panel(support)).toMatch(/Verificando… paso 3 de 5 \(registros cobrados más de una vez\), \d+ s/);

    // That instance died: no sign of life for minutes, its lease expired.
    await app.withDatabase(async () => {
      const handle = await database();
      await handle.rows(sql`update job_leases set expires_at = now() - interval '1 second' where name = 'ledger-verify-console'`);
      // Minutes went by: the earlier runs are older still.
      await handle.rows(sql`update ledger_verifications set started_at = started_at - interval '10 minutes', finished_at = finished_at - interval '10 minutes' where finished_at is not null`);
      await handle.rows(sql`update ledger_verifications set started_at = now() - interval '5 minutes', heartbeat_at = now() - interval '4 minutes' where finished_at is null`);
    });
    const text = await panel(support);
    expect(text).toContain('quedó interrumpida en el paso 3 de 5');
    expect(text).not.toContain('Verificando…');
    // And a new run starts.
    expect(says(await startVerification(support), STARTED)).toBe(true);
    expect(await panelUntil(support, (page) => ALL_OK.test(page))).toMatch(ALL_OK);
  });
});

// Issue 24, defect 15: the integration page promised alerts that no channel could deliver.
describe('the low-balance alert card without an alert channel', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('says that no alert is sent, instead of promising one', async () => {
    const page = await admin.request(`/admin/integraciones/${integrationId}/saldo`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('No se envía ninguna alerta: este servicio no tiene un canal de alertas configurado');
    expect(page.text).not.toContain('Se avisa a los administradores cuando el saldo baja');
  });
});
