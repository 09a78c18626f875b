// POST /api/pagos/recurrente on the built app, with the Recurrente simulator sending its webhooks
// there: a card payment is credited once by the app; the same signed webhook sent 5 times, and 5
// at once, credits nothing more; a bad signature answers 400, changes nothing and leaves a log line
// without the customer's data; a payment whose webhook never comes is credited by the app's poller;
// the route has its own per-address limit.
import { randomUUID } from 'node:crypto';
import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/db/client';
import { integrations, ledgerEntries, onlinePayments } from '@/db/schema';
import { startOnlineTopUp } from '@/lib/flows/online-top-ups/payments';
import type { Reporter } from '@/lib/flows/top-ups/requests';
import { createRecurrenteProvider } from '@/lib/providers/payments/recurrente';
import { svixSignature } from '@/lib/providers/payments/svix-signature';
import { RECURRENTE_SIM_CUSTOMER, RECURRENTE_SIM_DEV_KEYS } from '@/simulator/recurrente';
import { startSimulator, type RunningSimulator } from '@/simulator/server';
import { createTestIntegration, type TestIntegration } from '@/tests/conformance/harness';
import { startApp, type RunningApp } from '../support/app-server';
import { recurrenteSimulatorSettings } from '../support/online-payments';
import { logLines } from '../support/logs';
import { portalReporter } from '../support/people';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';

const WEBHOOK_LIMIT = 40;

let testDatabase: TestDatabase;
let simulator: RunningSimulator;
let app: RunningApp;
let integration: TestIntegration;
let billing: Reporter;

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  simulator = await startSimulator({ port: 0, populationSize: 1_000 });
  await testDatabase.use(async () => {
    integration = await createTestIntegration('pagos-http', { balanceCentavos: 0 });
    billing = await portalReporter(integration, 'pagos@pagos-http.example', 'facturacion');
  });
  app = await startApp({
    env: {
      ...recurrenteSimulatorSettings(simulator.url),
      RATE_LIMIT_PAYMENT_WEBHOOKS_PER_MINUTE: String(WEBHOOK_LIMIT),
      ONLINE_TOP_UP_POLL_MS: '1000',
    },
  });
  simulator.recurrente.setWebhookUrl(`${app.baseUrl}/api/pagos/recurrente`);
}, PROCESS_TEST_TIMEOUT_MS);

afterAll(async () => {
  await app?.stop();
  await simulator?.close();
  await testDatabase?.cleanup();
});

const provider = () => createRecurrenteProvider({ apiUrl: `${simulator.url}/recurrente/api`, ...RECURRENTE_SIM_DEV_KEYS, log: () => {} });

async function started(amountCentavos: number): Promise<{ id: string; checkoutId: string }> {
  return app.withDatabase(async () => {
    const result = await startOnlineTopUp(provider(), billing, amountCentavos, { successUrl: (id) => `${app.baseUrl}/portal/recargas?pago=${id}`, cancelUrl: `${app.baseUrl}/portal/recargas` });
    if (!result.ok) throw new Error(result.error.message);
    const [row] = await (await db()).select().from(onlinePayments).where(eq(onlinePayments.id, result.value.id));
    return { id: result.value.id, checkoutId: row!.checkoutId! };
  });
}

async function facts(id: string): Promise<{ balance: number; entries: number; state: string }> {
  return app.withDatabase(async () => {
    const handle = await db();
    const [row] = await handle.select({ balance: integrations.balanceCentavos }).from(integrations).where(eq(integrations.id, integration.id));
    const entries = await handle.select().from(ledgerEntries).where(like(ledgerEntries.note, `%${id}%`));
    const [payment] = await handle.select().from(onlinePayments).where(eq(onlinePayments.id, id));
    return { balance: row!.balance, entries: entries.length, state: payment!.state };
  });
}

/** A webhook as Recurrente signs it (Svix's scheme), for a paid checkout. */
function signedWebhook(body: Record<string, unknown>, secret: string = RECURRENTE_SIM_DEV_KEYS.webhookSecret) {
  const rawBody = JSON.stringify(body);
  const messageId = `msg_${randomUUID().replaceAll('-', '')}`;
  const timestamp = Math.floor(Date.now() / 1000);
  return {
    rawBody,
    headers: { 'content-type': 'application/json', 'svix-id': messageId, 'svix-timestamp': String(timestamp), 'svix-signature': svixSignature(secret, messageId, timestamp, rawBody) },
  };
}

const post = (message: { rawBody: string; headers: Record<string, string> }) =>
  fetch(`${app.baseUrl}/api/pagos/recurrente`, { method: 'POST', headers: message.headers, body: message.rawBody }).then(async (response) => ({ status: response.status, body: await response.text() }));

describe('POST /api/pagos/recurrente', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('credits a card payment once from the simulator’s webhook; the same webhook 5 times and 5 at once credit nothing more', async () => {
    const { id, checkoutId } = await started(15_000);
    simulator.recurrente.setWebhookFaults([{ fault: 'duplicate' }]);
    expect(simulator.recurrente.completeCheckout(checkoutId, 'card_approved')).toMatchObject({ ok: true });
    await simulator.recurrente.flushWebhooks();
    simulator.recurrente.setWebhookFaults([]);
    const sent = simulator.recurrente.deliveries().filter((delivery) => delivery.checkoutId === checkoutId);
    expect(sent.map((delivery) => delivery.status)).toEqual([200, 200]);
    expect(await facts(id)).toEqual({ balance: 15_000, entries: 1, state: 'credited' });

    const paymentId = simulator.recurrente.checkout(checkoutId)!.paymentId!;
    const body = { id: paymentId, event_type: 'payment_intent.succeeded', amount_in_cents: 15_000, payment: { id: paymentId }, checkout: { id: checkoutId, metadata: { top_up_id: id } }, customer: RECURRENTE_SIM_CUSTOMER };
    const message = signedWebhook(body);
    for (let i = 0; i < 5; i++) expect((await post(message)).status).toBe(200);
    const together = await Promise.all(Array.from({ length: 5 }, () => post(message)));
    expect(together.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    expect(await facts(id)).toEqual({ balance: 15_000, entries: 1, state: 'credited' });
  });

  it('a webhook with a bad signature answers 400, changes nothing, and is logged without the customer’s data', async () => {
    const { id, checkoutId } = await started(25_000);
    const forged = await post(
      signedWebhook(
        { event_type: 'payment_intent.succeeded', amount_in_cents: 25_000, payment: { id: 'pa_falso1' }, checkout: { id: checkoutId, metadata: { top_up_id: id } }, customer: RECURRENTE_SIM_CUSTOMER },
        `whsec_${Buffer.alloc(24, 9).toString('base64')}`,
      ),
    );
    expect(forged.status).toBe(400);
    expect(JSON.parse(forged.body)).toEqual({ error: 'Firma no válida.' });
    expect(await facts(id)).toMatchObject({ balance: 15_000, entries: 0, state: 'checkout_open' });
    const refusals = logLines(app.logs()).filter((line) => line.msg === 'payment webhook refused');
    expect(refusals).toHaveLength(1);
    expect(refusals[0]).toMatchObject({ reason: 'bad_signature' });
    expect(app.logs()).not.toContain(RECURRENTE_SIM_CUSTOMER.email);
    expect(app.logs()).not.toContain(RECURRENTE_SIM_CUSTOMER.full_name);
  });

  it('a payment whose webhook never comes is credited once by the app’s poller', async () => {
    const { id, checkoutId } = await started(35_000);
    simulator.recurrente.setWebhookFaults([{ fault: 'never_sent' }]);
    simulator.recurrente.completeCheckout(checkoutId, 'card_approved');
    await simulator.recurrente.flushWebhooks();
    simulator.recurrente.setWebhookFaults([]);
    const ends = Date.now() + 20_000;
    while ((await facts(id)).state !== 'credited' && Date.now() < ends) await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await facts(id)).toEqual({ balance: 50_000, entries: 1, state: 'credited' });
  });

  it('a body streamed past 256 KB without a length is refused 413 once it passes, not read to its end', async () => {
    const chunk = new Uint8Array(64 * 1024).fill(0x20);
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        // 64 MB at most, a chunk every 5 ms: about 5 s to send it all.
        if (++pulled > 1_000) return controller.close();
        await new Promise((resolve) => setTimeout(resolve, 5));
        controller.enqueue(chunk);
      },
    });
    const response = await fetch(`${app.baseUrl}/api/pagos/recurrente`, { method: 'POST', headers: { 'content-type': 'application/json' }, body, duplex: 'half' } as RequestInit & { duplex: 'half' });
    const pulledWhenAnswered = pulled;
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: 'Cuerpo demasiado grande.' });
    // Answered after about 256 KB (and what the sockets buffer), long before the 64 MB.
    expect(pulledWhenAnswered).toBeLessThan(100);
  });

  it('an unreadable or unsigned body is a 400, and the route has its own per-address limit', async () => {
    const unsigned = await fetch(`${app.baseUrl}/api/pagos/recurrente`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"event_type":' });
    expect(unsigned.status).toBe(400);
    await unsigned.text();
    const answers: number[] = [];
    for (let i = 0; i < WEBHOOK_LIMIT + 5 && !answers.includes(429); i++) {
      const response = await fetch(`${app.baseUrl}/api/pagos/recurrente`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      answers.push(response.status);
      await response.text();
    }
    expect(answers.at(-1)).toBe(429);
    expect(answers.slice(0, -1).every((status) => status === 400)).toBe(true);
  });
});
