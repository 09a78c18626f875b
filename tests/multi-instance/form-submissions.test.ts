// A console form sent twice with the same submission key (`envio`) changes things once, whichever
// instance receives each sending (issue 30, point 2): a balancer that does not pin a browser to one
// instance sent the same Q 7.00 top-up to both, and each instance, remembering keys only in its own
// memory, credited it. Two built instances on one PostgreSQL, the key claimed with the change.
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database, db } from '@/db/client';
import { integrations, integrationTokens } from '@/db/schema';
import { createConsoleUser } from '@/lib/flows/auth/users';
import { startApp, type RunningApp } from '../support/app-server';
import { ConsoleClient } from '../support/console-client';
import { says } from '../support/verify-now';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';
import { newIntegration, requiredEnv } from './support';

let testDatabase: TestDatabase;
let instances: RunningApp[] = [];
/** One signed-in administrator, the same session cookie sent to each instance. */
let onFirst: ConsoleClient;
let onSecond: ConsoleClient;

beforeAll(async () => {
  requiredEnv('DATABASE_URL');
  testDatabase = await useTestDatabase();
  const created = await createConsoleUser({ kind: 'system', name: 'test' }, { email: 'admin-envios@example.com', name: 'Persona admin', role: 'admin', mustChangePassword: false });
  if (!created.ok) throw new Error(created.error.message);
  instances = await Promise.all([0, 1].map(() => startApp({ env: { RATE_LIMIT_SIGN_IN_PER_MINUTE: '100' } })));
  onFirst = new ConsoleClient(instances[0]!.baseUrl);
  expect(await onFirst.signIn('admin-envios@example.com', created.value.password)).toBeNull();
  onSecond = new ConsoleClient(instances[1]!.baseUrl);
  for (const [name, value] of onFirst.cookies) onSecond.cookies.set(name, value);
}, PROCESS_TEST_TIMEOUT_MS);

afterAll(async () => {
  await Promise.all(instances.map((instance) => instance.stop()));
  await testDatabase?.cleanup();
});

async function balanceAndTopUps(integrationId: number): Promise<{ balance: number; topUps: number; audits: number }> {
  const [row] = await (await database()).rows<{ balance: string | number; top_ups: string | number; audits: string | number }>(sql`
    select (select balance_centavos from integrations where id = ${integrationId}::integer) as balance,
           (select count(*) from ledger_entries where integration_id = ${integrationId}::integer and kind = 'top_up') as top_ups,
           (select count(*) from audit_log where action = 'balance.top_up' and target_id = ${String(integrationId)}) as audits`);
  return { balance: Number(row!.balance), topUps: Number(row!.top_ups), audits: Number(row!.audits) };
}

const TOP_UP_DONE = 'Recarga de Q 7.00 registrada. Saldo actual: Q 107.00.';
const ALREADY_MADE = 'Este envío ya se había procesado y no se repitió.';

describe('a form sent to two instances with the same key', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('a Q 7.00 top-up sent to both at once credits Q 7.00 once; the other sending says it was already made', async () => {
    const integration = await newIntegration(100, 10_000);
    const page = `/admin/integraciones/${integration.id}/saldo`;
    const input = { integrationId: integration.id, monto: '7.00', nota: 'Depósito 4471', envio: randomUUID() };
    const answers = await Promise.all([onFirst.serverAction(page, 'topUpAction', input), onSecond.serverAction(page, 'topUpAction', input)]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    expect(await balanceAndTopUps(integration.id)).toEqual({ balance: 10_700, topUps: 2, audits: 2 });
    // One sending made it; the other says so, quoting its answer when it was already written.
    expect(answers.filter((answer) => says(answer, TOP_UP_DONE) && !says(answer, ALREADY_MADE))).toHaveLength(1);
    expect(answers.filter((answer) => says(answer, ALREADY_MADE))).toHaveLength(1);
  });

  it('sent again later to the other instance, it is not credited again, and the answer quotes the first one', async () => {
    const integration = await newIntegration(100, 10_000);
    const page = `/admin/integraciones/${integration.id}/saldo`;
    const input = { integrationId: integration.id, monto: '7.00', nota: 'Depósito 4472', envio: randomUUID() };
    expect(says(await onFirst.serverAction(page, 'topUpAction', input), TOP_UP_DONE)).toBe(true);
    const again = await onSecond.serverAction(page, 'topUpAction', input);
    expect(says(again, `${ALREADY_MADE} Su resultado: ${TOP_UP_DONE}`)).toBe(true);
    expect(await balanceAndTopUps(integration.id)).toEqual({ balance: 10_700, topUps: 2, audits: 2 });
    // A new key is a new top-up.
    expect(says(await onSecond.serverAction(page, 'topUpAction', { ...input, envio: randomUUID() }), 'Recarga de Q 7.00 registrada. Saldo actual: Q 114.00.')).toBe(true);
  });

  it('an integration, a token, a tariff, a receipt tariff and an adjustment sent to both at once are made once each', async () => {
    const nombre = `envio-doble-${Date.now()}`;
    const creation = { nombre, tarifa: '1.00', saldoInicial: '0', nota: '', envio: randomUUID() };
    await Promise.all([onFirst.serverAction('/admin/integraciones', 'createIntegrationAction', creation), onSecond.serverAction('/admin/integraciones', 'createIntegrationAction', creation)]);
    const created = await (await db()).select({ id: integrations.id }).from(integrations).where(eq(integrations.nombre, nombre));
    expect(created).toHaveLength(1);
    const id = created[0]!.id;
    const credentials = `/admin/integraciones/${id}/credenciales`;
    const page = `/admin/integraciones/${id}/saldo`;

    const token = { integrationId: id, etiqueta: 'Producción', envio: randomUUID() };
    await Promise.all([onFirst.serverAction(credentials, 'createTokenAction', token), onSecond.serverAction(credentials, 'createTokenAction', token)]);
    const tokens = await (await db()).select({ label: integrationTokens.label }).from(integrationTokens).where(eq(integrationTokens.integrationId, id));
    expect(tokens.filter((row) => row.label === 'Producción')).toHaveLength(1);

    const adjustment = { integrationId: id, monto: '+2.50', nota: 'Bonificación', envio: randomUUID() };
    await Promise.all([onFirst.serverAction(page, 'adjustBalanceAction', adjustment), onSecond.serverAction(page, 'adjustBalanceAction', adjustment)]);
    const tariff = { integrationId: id, tarifa: '2.00', envio: randomUUID() };
    await Promise.all([onFirst.serverAction(page, 'setTariffAction', tariff), onSecond.serverAction(page, 'setTariffAction', tariff)]);
    const receiptTariff = { integrationId: id, tarifa: '0.50', envio: randomUUID() };
    await Promise.all([onFirst.serverAction(page, 'setConstanciaTariffAction', receiptTariff), onSecond.serverAction(page, 'setConstanciaTariffAction', receiptTariff)]);
    const [money] = await (await database()).rows<{ balance: string | number; adjustments: string | number; tariff_changes: string | number; receipt_tariff: string | number; receipt_tariff_changes: string | number }>(sql`
      select (select balance_centavos from integrations where id = ${id}::integer) as balance,
             (select count(*) from ledger_entries where integration_id = ${id}::integer and kind = 'adjustment') as adjustments,
             (select count(*) from audit_log where action = 'integration.set_tariff' and target_id = ${String(id)}) as tariff_changes,
             (select constancia_tariff_centavos from integrations where id = ${id}::integer) as receipt_tariff,
             (select count(*) from audit_log where action = 'integration.set_constancia_tariff' and target_id = ${String(id)}) as receipt_tariff_changes`);
    expect({
      balance: Number(money!.balance),
      adjustments: Number(money!.adjustments),
      tariffChanges: Number(money!.tariff_changes),
      receiptTariff: Number(money!.receipt_tariff),
      receiptTariffChanges: Number(money!.receipt_tariff_changes),
    }).toEqual({
      balance: 250,
      adjustments: 1,
      tariffChanges: 1,
      receiptTariff: 50,
      receiptTariffChanges: 1,
    });
  });
});
