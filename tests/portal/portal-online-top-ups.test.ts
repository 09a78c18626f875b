// "Pagar en línea" in the portal's Recargas, through the built app with the Recurrente simulator:
// a billing person sees the fee and the total before paying, the confirmed payment sends them to
// the simulator's checkout, paying there like a browser (its form posted) credits the balance once
// from the webhook, and the return page says so from our own row; a payment whose webhook never
// comes is credited by the return page's server-side read; a developer neither sees nor posts;
// support reads every payment and its events in the console's Recargas.
import { topUpGuidance } from '@/lib/presentation/top-up-guidance';
import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/db/client';
import { integrations, ledgerEntries, onlinePayments } from '@/db/schema';
import { ONLINE_PAYMENT_STANDING_EXPLANATIONS, ONLINE_PAYMENT_STANDING_LABELS, ONLINE_PAYMENT_STATE_EXPLANATIONS, ONLINE_PAYMENT_STATE_LABELS } from '@/lib/flows/online-top-ups/labels';
import { ONLINE_TOP_UP_MESSAGES, onlineTopUpQuoteMessage } from '@/lib/flows/online-top-ups/messages';
import { TOP_UP_REPORTERS } from '@/lib/flows/portal-identity/roles';
import { formatQuetzales } from '@/lib/platform/money';
import { PORTAL_ACTION_MESSAGES } from '@/lib/surfaces/portal/action';
import { startSimulator, type RunningSimulator } from '@/simulator/server';
import { createTestIntegration, type TestIntegration } from '@/tests/conformance/harness';
import { startApp, type RunningApp } from '../support/app-server';
import { payByCard, recurrenteSimulatorSettings } from '../support/online-payments';
import { addPortalMember, consoleSignedIn, newConsoleUser, portalSignedIn } from '../support/people';
import { expectPortalRefusal, says, type PortalClient } from '../support/portal-client';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';
import { CERTIFIER_STATE_LABELS } from '@/lib/presentation/invoice-labels';

const people = { billing: 'conta-en-linea@example.com', developer: 'dev-en-linea@example.com' } as const;
/** 4.5 % + Q 2.00: Q 150.00 pays Q 8.75 of fee, Q 158.75 in all. */
const FEE = { ONLINE_TOP_UP_FEE_BASIS_POINTS: '450', ONLINE_TOP_UP_FEE_FIXED_CENTAVOS: '200' };

let testDatabase: TestDatabase;
let simulator: RunningSimulator;
let app: RunningApp;
let integration: TestIntegration;
let support: { email: string; password: string };
let billing: PortalClient;

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  simulator = await startSimulator({ port: 0, populationSize: 1_000 });
  await testDatabase.use(async () => {
    integration = await createTestIntegration('pagos-portal', { balanceCentavos: 1_000 });
    await addPortalMember(integration, people.billing, 'facturacion');
    await addPortalMember(integration, people.developer, 'desarrollador');
    support = await newConsoleUser('soporte-pagos@example.com', 'support');
  });
  app = await startApp({
    env: {
      ...recurrenteSimulatorSettings(simulator.url),
      // The poller stays out of the way: what credits here is the webhook or the return page's read.
      ONLINE_TOP_UP_POLL_MS: '3600000',
      RATE_LIMIT_SIGN_IN_PER_MINUTE: '500',
      ...FEE,
    },
  });
  simulator.recurrente.setWebhookUrl(`${app.baseUrl}/api/pagos/recurrente`);
  billing = await portalSignedIn(app.baseUrl, people.billing);
}, PROCESS_TEST_TIMEOUT_MS);

afterAll(async () => {
  await app?.stop();
  await simulator?.close();
  await testDatabase?.cleanup();
});

const pay = (person: PortalClient, action: 'quoteOnlineTopUpAction' | 'startOnlineTopUpAction', monto: string) =>
  person.serverAction('/portal/recargas', action, { monto, envio: crypto.randomUUID() });

/** Starts a payment as the confirmation step does; the checkout's address the browser is sent to. */
async function started(monto: string): Promise<{ checkoutUrl: string; checkoutId: string; id: string }> {
  const answer = await pay(billing, 'startOnlineTopUpAction', monto);
  expect(answer.status).toBe(200);
  const checkoutUrl = new RegExp(`${simulator.url}/recurrente/checkout-session/[A-Za-z0-9_]+`).exec(answer.text)?.[0];
  expect(checkoutUrl, answer.text.slice(0, 500)).toBeDefined();
  const checkoutId = checkoutUrl!.split('/').at(-1)!;
  const [row] = await app.withDatabase(async () => (await db()).select().from(onlinePayments).where(eq(onlinePayments.checkoutId, checkoutId)));
  return { checkoutUrl: checkoutUrl!, checkoutId, id: row!.id };
}

async function facts(id: string): Promise<{ balance: number; entries: number }> {
  return app.withDatabase(async () => {
    const handle = await db();
    const [row] = await handle.select({ balance: integrations.balanceCentavos }).from(integrations).where(eq(integrations.id, integration.id));
    return { balance: row!.balance, entries: (await handle.select().from(ledgerEntries).where(like(ledgerEntries.note, `%${id}%`))).length };
  });
}

describe('Pagar en línea in the portal’s Recargas', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('shows the fee and the total before paying, sends the browser to the checkout, and a card paid there is credited once and shown as acreditado', async () => {
    const page = await billing.request('/portal/recargas');
    expect(page.status).toBe(200);
    expect(page.text).toContain('Pagar en línea');
    // With online payments on, Inicio says so too (issue 64, point 10).
    expect((await billing.request('/portal')).text).toContain(topUpGuidance({ paysOnline: true }));
    const docs = await (await fetch(`${app.baseUrl}/docs`)).text();
    expect(docs).toContain('Pagar en línea y recarga automática');
    expect(docs).toContain('Sus facturas (FEL)');

    const quote = await pay(billing, 'quoteOnlineTopUpAction', '150.00');
    expect(says(quote, onlineTopUpQuoteMessage({ amountCentavos: 15_000, feeCentavos: 875, totalCentavos: 15_875 })), quote.text.slice(0, 500)).toBe(true);
    expect(says(quote, formatQuetzales(875))).toBe(true);
    const tooSmall = await pay(billing, 'quoteOnlineTopUpAction', '5.00');
    expect(says(tooSmall, 'El monto debe estar entre')).toBe(true);

    const { checkoutUrl, id } = await started('150.00');
    // The simulator's hosted page, paid as a browser does: its form posted, the redirect not followed.
    const checkoutPage = await fetch(checkoutUrl);
    expect(await checkoutPage.text()).toContain(formatQuetzales(15_875));
    const paid = await payByCard(checkoutUrl);
    const returnUrl = paid.headers.get('location')!;
    expect(returnUrl).toBe(`${app.baseUrl}/portal/recargas/pagos/${id}`);
    await simulator.recurrente.flushWebhooks();
    expect(await facts(id)).toEqual({ balance: 1_000 + 15_000, entries: 1 });

    const returned = await billing.request(new URL(returnUrl).pathname);
    expect(returned.status).toBe(200);
    expect(returned.text).toContain(ONLINE_PAYMENT_STATE_LABELS.credited);
    expect(returned.text).toContain(ONLINE_PAYMENT_STATE_EXPLANATIONS.credited);
    // Opening it again, as a reload does, credits nothing more.
    await billing.request(new URL(returnUrl).pathname);
    expect(await facts(id)).toEqual({ balance: 16_000, entries: 1 });

    const listed = await billing.request('/portal/recargas');
    expect(listed.text).toContain(`/portal/recargas/pagos/${id}`);
    expect(listed.text).toContain(ONLINE_PAYMENT_STATE_LABELS.credited);
  });

  it('a payment whose webhook never comes is credited by the return page’s own read at the provider, once', async () => {
    const { checkoutUrl, id } = await started('200.00');
    simulator.recurrente.setWebhookFaults([{ fault: 'never_sent' }]);
    await payByCard(checkoutUrl);
    await simulator.recurrente.flushWebhooks();
    simulator.recurrente.setWebhookFaults([]);
    expect(await facts(id)).toEqual({ balance: 16_000, entries: 0 });
    const returned = await billing.request(`/portal/recargas/pagos/${id}`);
    expect(returned.text).toContain(ONLINE_PAYMENT_STATE_LABELS.credited);
    expect(await facts(id)).toEqual({ balance: 36_000, entries: 1 });
  });

  it('a transfer in progress reads as pending, and a return without paying says nothing was charged', async () => {
    const transfer = await started('120.00');
    const paid = await fetch(transfer.checkoutUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'resultado=bank_transfer', redirect: 'manual' });
    expect(paid.status).toBe(303);
    await simulator.recurrente.flushWebhooks();
    const pending = await billing.request(`/portal/recargas/pagos/${transfer.id}`);
    expect(pending.text).toContain(ONLINE_PAYMENT_STATE_LABELS.pending_transfer);

    const unpaid = await started('130.00');
    const returned = await billing.request(`/portal/recargas/pagos/${unpaid.id}?cancelado=1`);
    expect(returned.text).toContain('Volvió sin pagar: no se cobró nada. Puede pagarlo más tarde desde Recargas mientras el enlace esté vigente, o cancelarlo aquí.');
    // Only that: nothing about a payment that may have just been made (issue 64, point 7).
    expect(returned.text).not.toContain(ONLINE_PAYMENT_STATE_EXPLANATIONS.checkout_open);
    expect(returned.text).toContain(ONLINE_PAYMENT_STATE_LABELS.checkout_open);
    expect(returned.text).toContain('Cancelar este pago');
    expect(await facts(unpaid.id)).toEqual({ balance: 36_000, entries: 0 });

    // A pending one can be cancelled, once; it then reads cancelled, in the list too.
    const cancel = () => billing.serverAction(`/portal/recargas/pagos/${unpaid.id}`, 'cancelOnlineTopUpAction', { pago: unpaid.id, envio: crypto.randomUUID() });
    expect(says(await cancel(), ONLINE_TOP_UP_MESSAGES.cancelled)).toBe(true);
    expect(says(await cancel(), ONLINE_TOP_UP_MESSAGES.notCancellable)).toBe(true);
    const closed = await billing.request(`/portal/recargas/pagos/${unpaid.id}`);
    expect(closed.text).toContain(ONLINE_PAYMENT_STANDING_LABELS.cancelled);
    expect(closed.text).toContain(ONLINE_PAYMENT_STANDING_EXPLANATIONS.cancelled);
    expect(closed.text).not.toContain('Cancelar este pago');
    expect((await billing.request('/portal/recargas')).text).toMatch(/data-testid="online-payment-state"[^>]*>Cancelado</);
    // A transfer in progress is past cancelling.
    expect(says(await billing.serverAction(`/portal/recargas/pagos/${transfer.id}`, 'cancelOnlineTopUpAction', { pago: transfer.id, envio: crypto.randomUUID() }), ONLINE_TOP_UP_MESSAGES.notCancellable)).toBe(true);
  });

  it('a developer neither sees Recargas nor may quote, start or open a payment', async () => {
    const developer = await portalSignedIn(app.baseUrl, people.developer);
    expectPortalRefusal(await developer.request('/portal/recargas'), TOP_UP_REPORTERS);
    const before = await app.withDatabase(async () => (await db()).select().from(onlinePayments));
    for (const action of ['quoteOnlineTopUpAction', 'startOnlineTopUpAction'] as const) {
      expect(says(await pay(developer, action, '150.00'), PORTAL_ACTION_MESSAGES.forbidden), action).toBe(true);
    }
    expect(await app.withDatabase(async () => (await db()).select().from(onlinePayments))).toHaveLength(before.length);
    expectPortalRefusal(await developer.request(`/portal/recargas/pagos/${before[0]!.id}`), TOP_UP_REPORTERS);
  });

  it('support reads every online payment in the console’s Recargas, with the provider’s payment id, and one payment’s events by its id', async () => {
    const staff = await consoleSignedIn(app.baseUrl, support);
    const [credited] = await app.withDatabase(async () => (await db()).select().from(onlinePayments).where(eq(onlinePayments.state, 'credited')).orderBy(onlinePayments.createdAt));
    const list = await staff.request('/admin/recargas');
    expect(list.status).toBe(200);
    expect(list.text).toContain('Pagos en línea');
    expect(list.text).toContain(credited!.id);
    expect(list.text).toContain(credited!.providerPaymentId!);
    expect(list.text).toContain(ONLINE_PAYMENT_STATE_LABELS.pending_transfer);
    expect(list.text).toContain(ONLINE_PAYMENT_STANDING_LABELS.cancelled);

    // The provider beside the sources (issue 64, point 6): its last word to us and what is open.
    const sources = (await staff.request('/admin/fuentes')).text.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
    expect(sources).toContain('Proveedor de pagos en línea: Recurrente');
    // Whether it answers, from the calls every instance wrote down (the checkouts and reads above).
    expect(sources).toContain(`Proveedor de pagos en línea: Recurrente ${CERTIFIER_STATE_LABELS.up}`);
    expect(sources).toMatch(/Último aviso recibido del proveedor: \d\d\/\d\d\/\d{4}/);
    expect(sources).toMatch(/(Un pago abierto|\d+ pagos abiertos) \(esperando al cliente o una transferencia\)\./);

    const one = await staff.request(`/admin/recargas/pagos/${credited!.id}`);
    expect(one.status).toBe(200);
    const events = [...one.text.matchAll(/<tr data-testid="console-online-payment-event">([\s\S]*?)<\/tr>/g)].map((row) => row[1]!);
    expect(events.map((row) => Object.values(ONLINE_PAYMENT_STATE_LABELS).find((label) => row.includes(`>${label}<`)))).toEqual([
      ONLINE_PAYMENT_STATE_LABELS.created,
      ONLINE_PAYMENT_STATE_LABELS.checkout_open,
      ONLINE_PAYMENT_STATE_LABELS.credited,
    ]);
    expect(one.text).toContain('Aviso del proveedor (webhook)');
    // Recargas streams (its loading state), so an unknown id is the console's not-found page under a 200.
    const unknown = await staff.request('/admin/recargas/pagos/recarga-00000000-0000-4000-8000-000000000000');
    expect(unknown.text).toContain('No encontramos esta página');
    expect(unknown.text).not.toContain('Historial de estados');
  });
});
