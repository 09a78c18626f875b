// Automatic top-up on two built instances sharing PostgreSQL and Redis, both running the job
// often: an owner opts in from the portal with the card of a paid checkout; two lookups on the two
// instances take the balance under the threshold together and exactly one charge is made and
// credited; the daily maximum holds on the next crossing; a charge and its retry that fail pause
// it, the owner and billing contacts are told, and the portal and the console show the pause.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/db/client';
import { alertDeliveries, autoTopUpCharges, autoTopUps, integrations, onlinePayments, portalUsers } from '@/db/schema';
import { balanceAndLedgerSum } from '@/lib/core/billing/ledger';
import { setIntegrationDetails } from '@/lib/flows/integration-management/details-service';
import { settleByRead, startOnlineTopUp } from '@/lib/flows/online-top-ups/payments';
import { AUTO_TOP_UP_MESSAGES } from '@/lib/flows/auto-top-ups/messages';
import { createRecurrenteProvider } from '@/lib/providers/payments/recurrente';
import { RECURRENTE_SIM_DEV_KEYS } from '@/simulator/recurrente';
import { startSimulator, type RunningSimulator } from '@/simulator/index';
import { eventually } from '../conformance/harness';
import { startApp, type RunningApp } from '../support/app-server';
import { recurrenteSimulatorSettings } from '../support/online-payments';
import { addPortalMember, consoleSignedIn, newConsoleUser, portalSignedIn } from '../support/people';
import { resetEnvCache, useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';
import { newIntegration, omisosStatus, requiredEnv, TEST_ACTOR, twoInstanceEnv, type TestIntegration } from './support';

const stamp = Date.now().toString(36);
const TARIFF = 1_000;
const OWNER = `duena-automatica-${stamp}@example.com`;
const BILLING_CONTACT = `facturas-automatica-${stamp}@example.com`;

let testDatabase: TestDatabase;
let simulator: RunningSimulator;
let instances: RunningApp[] = [];
let integration: TestIntegration;
let cardPaymentId: string;

beforeAll(async () => {
  requiredEnv('DATABASE_URL');
  testDatabase = await useTestDatabase();
  simulator = await startSimulator({ port: 0, latencyMs: 0 });
  integration = await newIntegration(TARIFF, 0);
  const named = { id: integration.id, nombre: integration.headers['x-integracion-login']!, token: integration.headers['x-integracion-token']! };
  await addPortalMember(named, OWNER, 'propietario');
  const details = await setIntegrationDetails(TEST_ACTOR, integration.id, { billingContactName: 'Facturas', billingContactEmail: BILLING_CONTACT });
  if (!details.ok) throw new Error(details.error.message);
  const env = twoInstanceEnv(testDatabase, simulator, {
    ...recurrenteSimulatorSettings(simulator.url),
    ONLINE_TOP_UP_MIN_CENTAVOS: '5000',
    ONLINE_TOP_UP_POLL_MS: '3600000',
    AUTO_TOP_UP_CHECK_MS: '300',
    AUTO_TOP_UP_RETRY_AFTER_MS: '0',
  });
  instances = await Promise.all([startApp({ env }), startApp({ env })]);
  // The card: a Q 50.00 online top-up the owner paid by card on the simulator's page (the
  // instances' limits, in this process too).
  process.env.ONLINE_TOP_UP_MIN_CENTAVOS = '5000';
  resetEnvCache();
  const provider = createRecurrenteProvider({ apiUrl: `${simulator.url}/recurrente/api`, ...RECURRENTE_SIM_DEV_KEYS, log: () => {} });
  const [owner] = await (await db()).select({ id: portalUsers.id }).from(portalUsers).where(eq(portalUsers.email, OWNER));
  const started = await startOnlineTopUp(
    provider,
    { id: owner!.id, role: 'propietario', integrationId: integration.id, actor: { kind: 'integrator', id: owner!.id, email: OWNER, integrationId: integration.id, integrationName: named.nombre } },
    5_000,
    { successUrl: (id) => `${instances[0]!.baseUrl}/portal/recargas/pagos/${id}`, cancelUrl: `${instances[0]!.baseUrl}/portal/recargas` },
  );
  if (!started.ok) throw new Error(started.error.message);
  const [row] = await (await db()).select().from(onlinePayments).where(eq(onlinePayments.id, started.value.id));
  simulator.recurrente.completeCheckout(row!.checkoutId!, 'card_approved');
  expect(await settleByRead(provider, started.value.id)).toMatchObject({ kind: 'credited' });
  cardPaymentId = started.value.id;
  // The charge's webhook reaches an instance too, racing the job's own answer: credited once either way.
  simulator.recurrente.setWebhookUrl(`${instances[1]!.baseUrl}/api/pagos/recurrente`);
}, PROCESS_TEST_TIMEOUT_MS * 2);

afterAll(async () => {
  await Promise.all(instances.map((app) => app.stop()));
  await simulator?.close();
  await testDatabase?.cleanup();
});

async function balance(): Promise<number> {
  const [row] = await (await db()).select({ balance: integrations.balanceCentavos }).from(integrations).where(eq(integrations.id, integration.id));
  return row!.balance;
}

function automaticCharges() {
  return simulator.recurrente.payments().filter((payment) => payment.idempotencyKey?.startsWith('auto-'));
}

async function attempts() {
  return (await db()).select().from(autoTopUpCharges).where(eq(autoTopUpCharges.integrationId, integration.id)).orderBy(autoTopUpCharges.id);
}

/** How long the job, the provider's answer and the notices may take to show. */
const UNTIL_MS = 15_000;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('automatic top-up on two instances', { timeout: PROCESS_TEST_TIMEOUT_MS * 2 }, () => {
  it('fires once when two lookups on two instances cross the threshold together, keeps the daily maximum, and pauses after failures with the contacts told', async () => {
    const owner = await portalSignedIn(instances[0]!.baseUrl, OWNER);
    const enabled = await owner.serverAction('/portal/recargas/automatica', 'enableAutoTopUpAction', { pago: cardPaymentId, umbral: '40.00', monto: '50.00', maximo: '1' });
    expect(enabled.text).toContain(AUTO_TOP_UP_MESSAGES.enabled);
    // Above the threshold: nothing is charged yet, and the confirmation says nothing of a charge.
    expect(enabled.text).not.toContain('ya está por debajo del umbral');
    expect(await balance()).toBe(5_000);

    // Two lookups at once, one on each instance: 5,000 − 2 × 1,000 = 3,000, under the 4,000 threshold.
    expect(await Promise.all(instances.map((app) => omisosStatus(app, integration.headers)))).toEqual([200, 200]);
    const [credited] = await eventually(attempts, (rows) => rows.some((row) => row.state === 'credited'), UNTIL_MS, 'the automatic charge');
    // Both instances' jobs keep looking (every 300 ms): nothing more is charged.
    await pause(2_000);
    expect(automaticCharges()).toHaveLength(1);
    expect(await attempts()).toEqual([expect.objectContaining({ id: credited!.id, state: 'credited', attempt: 1 })]);
    expect(await balance()).toBe(3_000 + 5_000);
    const sums = await balanceAndLedgerSum(integration.id);
    expect(sums.balanceCentavos).toBe(sums.ledgerSumCentavos);

    // The next crossing today: the daily maximum (1) is reached, nothing is charged.
    for (let lookup = 0; lookup < 5; lookup++) expect(await omisosStatus(instances[lookup % 2]!, integration.headers)).toBe(200);
    expect(await balance()).toBe(3_000);
    await pause(2_000);
    expect(automaticCharges()).toHaveLength(1);
    expect(await attempts()).toHaveLength(1);

    // The owner raises the maximum; the provider refuses the charge and its retry: it pauses.
    simulator.recurrente.setApiFaults([{ fault: 'rate_limited', operations: ['charge'], times: 2 }]);
    const raised = await (await portalSignedIn(instances[1]!.baseUrl, OWNER)).serverAction('/portal/recargas/automatica', 'enableAutoTopUpAction', { pago: cardPaymentId, umbral: '40.00', monto: '50.00', maximo: '3' });
    expect(raised.text).toContain(AUTO_TOP_UP_MESSAGES.enabled);
    // Under the threshold already (issue 64, point 7): the confirmation announces the charge it sets off.
    expect(raised.text).toContain('Su saldo (Q 30.00) ya está por debajo del umbral: el primer cargo de');
    const [setting] = await eventually(async () => (await db()).select().from(autoTopUps).where(eq(autoTopUps.integrationId, integration.id)), (rows) => rows[0]?.state === 'paused', UNTIL_MS, 'the pause');
    expect(setting).toMatchObject({ state: 'paused', pausedReason: 'retry_later: rate_limited' });
    expect((await attempts()).map((row) => [row.attempt, row.state])).toEqual([
      [1, 'credited'],
      [1, 'failed'],
      [2, 'failed'],
    ]);
    await pause(1_000);
    expect(await attempts()).toHaveLength(3);
    expect(automaticCharges()).toHaveLength(1);
    expect(await balance()).toBe(3_000);
    const told = await eventually(
      async () => (await db()).select().from(alertDeliveries).where(and(eq(alertDeliveries.integrationId, integration.id), eq(alertDeliveries.condition, 'auto_top_up_paused'))),
      (rows) => rows.length >= 2,
      UNTIL_MS,
      'the pause notice',
    );
    expect(told.filter((row) => row.channel === 'email').map((row) => row.target).sort()).toEqual([BILLING_CONTACT, OWNER].sort());

    // The portal says why, to the owner; the console lists it as paused.
    const page = await owner.request('/portal/recargas/automatica');
    expect(page.status).toBe(200);
    expect(page.text).toContain('En pausa');
    expect(page.text).toContain('retry_later: rate_limited');
    const admin = await consoleSignedIn(instances[1]!.baseUrl, await newConsoleUser(`admin-automatica-${stamp}@example.com`, 'admin'));
    const recargas = await admin.request('/admin/recargas');
    expect(recargas.status).toBe(200);
    expect(recargas.text).toContain('console-auto-top-up-row');
    expect(recargas.text).toContain(integration.headers['x-integracion-login']!);
  });
});
