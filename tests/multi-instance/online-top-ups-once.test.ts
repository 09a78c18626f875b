// An online top-up is credited once whichever instance its webhooks reach (two built instances on
// one PostgreSQL and Redis): the simulator's webhook of a card payment goes to one instance, and
// the same signed delivery is then sent 5 times to each, all at once, while both instances' pollers
// read it too. The top-up's row lock and the unique provider payment id hold this
// (lib/flows/online-top-ups/payments.ts); each instance's memory plays no part.
import { randomUUID } from 'node:crypto';
import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/db/client';
import { ledgerEntries, onlinePayments, portalUsers } from '@/db/schema';
import { balanceAndLedgerSum } from '@/lib/core/billing/ledger';
import { startOnlineTopUp } from '@/lib/flows/online-top-ups/payments';
import { createRecurrenteProvider } from '@/lib/providers/payments/recurrente';
import { svixSignature } from '@/lib/providers/payments/svix-signature';
import { RECURRENTE_SIM_DEV_KEYS } from '@/simulator/recurrente';
import { startSimulator, type RunningSimulator } from '@/simulator/index';
import { startApp, type RunningApp } from '../support/app-server';
import { recurrenteSimulatorSettings } from '../support/online-payments';
import { addPortalMember } from '../support/people';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';
import { newIntegration, requiredEnv, twoInstanceEnv, type TestIntegration } from './support';

const ROUNDS = 3;
const EACH = 5;
const stamp = Date.now().toString(36);

let testDatabase: TestDatabase;
let simulator: RunningSimulator;
let instances: RunningApp[] = [];
let integration: TestIntegration;
let starterId: number;

beforeAll(async () => {
  requiredEnv('DATABASE_URL');
  testDatabase = await useTestDatabase();
  simulator = await startSimulator({ port: 0, latencyMs: 0 });
  integration = await newIntegration(1, 0);
  const email = `pagos-en-linea-${stamp}@example.com`;
  await addPortalMember({ id: integration.id, nombre: integration.headers['x-integracion-login']!, token: integration.headers['x-integracion-token']! }, email, 'facturacion');
  const [row] = await (await db()).select({ id: portalUsers.id }).from(portalUsers).where(eq(portalUsers.email, email));
  starterId = row!.id;
  const env = twoInstanceEnv(testDatabase, simulator, {
    ...recurrenteSimulatorSettings(simulator.url),
    ONLINE_TOP_UP_POLL_MS: '1000',
  });
  instances = await Promise.all([startApp({ env }), startApp({ env })]);
}, PROCESS_TEST_TIMEOUT_MS * 2);

afterAll(async () => {
  await Promise.all(instances.map((app) => app.stop()));
  await simulator?.close();
  await testDatabase?.cleanup();
});

function signed(body: Record<string, unknown>) {
  const rawBody = JSON.stringify(body);
  const messageId = `msg_${randomUUID().replaceAll('-', '')}`;
  const timestamp = Math.floor(Date.now() / 1000);
  return { rawBody, headers: { 'content-type': 'application/json', 'svix-id': messageId, 'svix-timestamp': String(timestamp), 'svix-signature': svixSignature(RECURRENTE_SIM_DEV_KEYS.webhookSecret, messageId, timestamp, rawBody) } };
}

describe('online top-ups on two instances', { timeout: PROCESS_TEST_TIMEOUT_MS * 2 }, () => {
  it('the same webhook sent 5 times to both instances at once, with both pollers reading, credits once', async () => {
    const provider = createRecurrenteProvider({ apiUrl: `${simulator.url}/recurrente/api`, ...RECURRENTE_SIM_DEV_KEYS, log: () => {} });
    for (let round = 1; round <= ROUNDS; round++) {
      const amount = 10_000 * round;
      const before = await balanceAndLedgerSum(integration.id);
      simulator.recurrente.setWebhookUrl(`${instances[round % 2]!.baseUrl}/api/pagos/recurrente`);
      const started = await startOnlineTopUp(
        provider,
        { id: starterId, role: 'facturacion', integrationId: integration.id, actor: { kind: 'integrator', id: starterId, email: 'x@example.com', integrationId: integration.id, integrationName: 'x' } },
        amount,
        { successUrl: (id) => `${instances[0]!.baseUrl}/portal/recargas?pago=${id}`, cancelUrl: `${instances[0]!.baseUrl}/portal/recargas` },
      );
      if (!started.ok) throw new Error(started.error.message);
      const [row] = await (await db()).select().from(onlinePayments).where(eq(onlinePayments.id, started.value.id));
      const checkoutId = row!.checkoutId!;
      simulator.recurrente.completeCheckout(checkoutId, 'card_approved');
      const paymentId = simulator.recurrente.checkout(checkoutId)!.paymentId!;
      const message = signed({ id: paymentId, event_type: 'payment_intent.succeeded', amount_in_cents: amount, payment: { id: paymentId }, checkout: { id: checkoutId, metadata: { top_up_id: started.value.id } } });
      const answers = await Promise.all([
        simulator.recurrente.flushWebhooks().then(() => 200),
        ...instances.flatMap((app) =>
          Array.from({ length: EACH }, () => fetch(`${app.baseUrl}/api/pagos/recurrente`, { method: 'POST', headers: message.headers, body: message.rawBody }).then(async (response) => (await response.text(), response.status))),
        ),
      ]);
      expect(answers).toEqual(answers.map(() => 200));
      const entries = await (await db()).select().from(ledgerEntries).where(like(ledgerEntries.note, `%${started.value.id}%`));
      expect(entries).toHaveLength(1);
      const after = await balanceAndLedgerSum(integration.id);
      expect(after.balanceCentavos - before.balanceCentavos).toBe(amount);
      expect(after.balanceCentavos).toBe(after.ledgerSumCentavos);
      const [credited] = await (await db()).select().from(onlinePayments).where(eq(onlinePayments.id, started.value.id));
      expect(credited).toMatchObject({ state: 'credited', providerPaymentId: paymentId, ledgerEntryId: entries[0]!.id });
    }
  });
});
