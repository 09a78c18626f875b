// FEL invoices on the configuration users run: a built app with FEL on, against the certifier
// simulator. A console top-up to an integration without a registered NIT (CF) of Q 2,500.00 is
// credited, and the form's answer says its invoice waits for the NIT; a smaller one is credited and
// the app's own worker certifies its invoice once. A top-up sent twice at once with the same key (a
// double click) is credited once, and both sendings answer as the one that made it.
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/db/client';
import { ledgerEntries } from '@/db/schema';
import { INVOICE_MESSAGES } from '@/lib/presentation/invoice-messages';
import { createConsoleUser } from '@/lib/flows/auth/users';
import { createTestIntegration, type TestIntegration } from '@/tests/conformance/harness';
import { startSimulator, type RunningSimulator } from '../../simulator/server';
import { startApp, type RunningApp } from '../support/app-server';
import { runCli } from '../support/cli';
import { ConsoleClient } from '../support/console-client';
import { says } from '../support/verify-now';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';

let testDatabase: TestDatabase;
let simulator: RunningSimulator;
let app: RunningApp;
let console_: ConsoleClient;
let integration: TestIntegration;

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  simulator = await startSimulator({ port: 0 });
  const created = await testDatabase.use(async () => {
    integration = await createTestIntegration('facturas-consola', { balanceCentavos: 10_000 });
    return createConsoleUser({ kind: 'system', name: 'test' }, { email: 'admin-facturas@example.com', name: 'Persona admin', role: 'admin', mustChangePassword: false });
  });
  if (!created.ok) throw new Error(created.error.message);
  app = await startApp({
    env: {
      FEL_ENABLED: 'true',
      FEL_CERTIFIER_BASE_URL: `${simulator.url}/fel`,
      FEL_NIT_LOOKUP_BASE_URL: `${simulator.url}/fel/receptores`,
      FEL_WORKER_INTERVAL_MS: '200',
    },
  });
  console_ = new ConsoleClient(app.baseUrl);
  expect(await console_.signIn('admin-facturas@example.com', created.value.password)).toBeNull();
}, PROCESS_TEST_TIMEOUT_MS);

afterAll(async () => {
  await app?.stop();
  await simulator?.close();
  await testDatabase?.cleanup();
});

describe('a console top-up with FEL on', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('to CF of Q 2,500.00 is credited, its invoice waiting for the NIT and said so; Q 100.00 is credited and certified once by the app', async () => {
    const page = `/admin/integraciones/${integration.id}/saldo`;
    const waiting = await console_.serverAction(page, 'topUpAction', { integrationId: integration.id, monto: '2500.00', nota: 'Depósito grande', envio: randomUUID() });
    expect(says(waiting, `Recarga de Q 2,500.00 registrada. Saldo actual: Q 2,600.00. ${INVOICE_MESSAGES.awaitingReceptor}`)).toBe(true);
    const credited = await console_.serverAction(page, 'topUpAction', { integrationId: integration.id, monto: '100.00', nota: 'Depósito 9911', envio: randomUUID() });
    expect(says(credited, 'Recarga de Q 100.00 registrada. Saldo actual: Q 2,700.00.')).toBe(true);
    const ends = Date.now() + 20_000;
    while (simulator.fel.certifications().length === 0 && Date.now() < ends) await new Promise((resolve) => setTimeout(resolve, 100));
    const certifications = simulator.fel.certifications();
    // Only the Q 100.00: the one waiting for its NIT is never sent.
    expect(certifications).toHaveLength(1);
    expect(certifications[0]).toMatchObject({ receptorId: 'CF', grandTotal: '100.00' });
    expect(simulator.fel.certificationCount(certifications[0]!.identifier)).toBe(1);
  });

  it('from the CLI in a shell without the FEL settings is invoiced as the running app decides (issue 64, point 4)', async () => {
    const before = simulator.fel.certifications().length;
    // As a second terminal beside the app: none of the app's FEL settings in the CLI's environment.
    const topped = await runCli(['integrations:top-up', integration.nombre, '150', '--note', 'Depósito 6410', '--json'], testDatabase.env, { FEL_ENABLED: '' }, undefined, { lendDatabase: false });
    expect(topped.code, topped.stderr).toBe(0);
    const ends = Date.now() + 20_000;
    while (simulator.fel.certifications().length === before && Date.now() < ends) await new Promise((resolve) => setTimeout(resolve, 100));
    const certified = simulator.fel.certifications().slice(before);
    expect(certified).toHaveLength(1);
    expect(certified[0]).toMatchObject({ receptorId: 'CF', grandTotal: '150.00' });
  });

  it('sent twice at once with the same key is credited once, and neither sending shows an error', async () => {
    const page = `/admin/integraciones/${integration.id}/saldo`;
    const input = { integrationId: integration.id, monto: '10.00', nota: 'Doble clic 9912', envio: randomUUID() };
    const answers = await Promise.all([console_.serverAction(page, 'topUpAction', input), console_.serverAction(page, 'topUpAction', input)]);
    for (const answer of answers) expect(says(answer, 'Recarga de Q 10.00 registrada. Saldo actual: Q 2,860.00.')).toBe(true);
    const topUps = await app.withDatabase(async () =>
      (await db()).select().from(ledgerEntries).where(and(eq(ledgerEntries.integrationId, integration.id), eq(ledgerEntries.kind, 'top_up'))),
    );
    expect(topUps.filter((entry) => entry.amountCentavos === 1_000)).toHaveLength(1);
  });
});
