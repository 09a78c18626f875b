// The Recurrente simulator over raw HTTP: the hosted checkout page as a browser completes it, the
// API's checks, the controls for pending transfers and the clock, and how faults are chosen.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAULT_HEADER } from './faults';
import { parseRecurrenteFaultSpec, RECURRENTE_SIM_DEV_KEYS, RECURRENTE_SIM_TRANSFER_EXPIRY_MS } from './recurrente';
import { startSimulator, type RunningSimulator } from './server';

let simulator: RunningSimulator;
beforeAll(async () => {
  simulator = await startSimulator({ port: 0, populationSize: 10_000 });
});
afterAll(async () => {
  await simulator.close();
});

const keys = { 'X-PUBLIC-KEY': RECURRENTE_SIM_DEV_KEYS.publicKey, 'X-SECRET-KEY': RECURRENTE_SIM_DEV_KEYS.secretKey };
const api = (path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) =>
  fetch(`${simulator.url}/recurrente/api${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: { 'content-type': 'application/json', ...keys, ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });

async function createCheckout(overrides: Record<string, unknown> = {}) {
  const response = await api('/checkouts', {
    body: {
      items: [{ name: 'Recarga de saldo', currency: 'GTQ', amount_in_cents: 11_200, quantity: 1 }],
      success_url: 'http://127.0.0.1:9/portal/recargas/resultado',
      cancel_url: 'http://127.0.0.1:9/portal/recargas',
      metadata: { top_up_id: 'recarga-000001' },
      expires_at: new Date(simulator.recurrente.now().getTime() + 3_600_000).toISOString(),
      ...overrides,
    },
  });
  expect(response.status).toBe(201);
  return (await response.json()) as { id: string; checkout_url: string };
}

/** Submits the hosted page's form as a browser would, without following the redirect. */
const pay = (url: string, resultado: string) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ resultado }).toString(), redirect: 'manual' });

describe('the hosted checkout page', () => {
  it('shows the amount and three ways to pay; a declined card stays on the page, an approved one goes to success_url', async () => {
    const { id, checkout_url } = await createCheckout();
    const page = await fetch(checkout_url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    expect(html).toContain('Q 112.00');
    expect(html).toContain('<form method="post">');
    for (const choice of ['card_approved', 'card_declined', 'bank_transfer']) expect(html).toContain(`value="${choice}"`);
    expect(html).toContain('href="http://127.0.0.1:9/portal/recargas"');

    const declined = await pay(checkout_url, 'card_declined');
    expect(declined.status).toBe(402);
    expect(await declined.text()).toContain('role="alert"');
    expect(((await (await api(`/checkouts/${id}`)).json()) as { status: string }).status).toBe('unpaid');

    const approved = await pay(checkout_url, 'card_approved');
    expect(approved.status).toBe(303);
    expect(approved.headers.get('location')).toBe('http://127.0.0.1:9/portal/recargas/resultado');
    const checkout = (await (await api(`/checkouts/${id}`)).json()) as Record<string, unknown>;
    expect(checkout).toMatchObject({ id, status: 'paid', total_in_cents: '11200', currency: 'GTQ', metadata: { top_up_id: 'recarga-000001' }, payment_method: { type: 'card', card: { last4: '4242' } } });

    const again = await fetch(checkout_url);
    expect(again.status).toBe(409);
    expect(await again.text()).toContain('Ya pagado');
    expect((await pay(checkout_url, 'card_approved')).status).toBe(409);
  });

  it('leaves a bank transfer in progress until it is settled through the simulator’s control', async () => {
    const { id, checkout_url } = await createCheckout();
    expect((await pay(checkout_url, 'bank_transfer')).status).toBe(303);
    const pending = (await (await api(`/checkouts/${id}`)).json()) as { status: string; payment: { id: string } };
    expect(pending.status).toBe('payment_in_progress');
    expect((await fetch(checkout_url)).status).toBe(409);
    const paymentBefore = (await (await api(`/payment_intents/${pending.payment.id}`)).json()) as { status: string };
    expect(paymentBefore.status).toBe('pending');
    const settled = await fetch(`${simulator.url}/recurrente/_sim/transfers/${id}/settle`, { method: 'POST' });
    expect(settled.status).toBe(200);
    expect(((await (await api(`/payment_intents/${pending.payment.id}`)).json()) as { status: string }).status).toBe('succeeded');
    expect((await fetch(`${simulator.url}/recurrente/_sim/transfers/${id}/settle`, { method: 'POST' })).status).toBe(409);
  });

  it('fails a transfer not received within 24 hours once the clock is moved', async () => {
    const { id, checkout_url } = await createCheckout({ expires_at: new Date(simulator.recurrente.now().getTime() + 72 * 3_600_000).toISOString() });
    await pay(checkout_url, 'bank_transfer');
    const clock = await fetch(`${simulator.url}/recurrente/_sim/clock`, { method: 'POST', body: JSON.stringify({ advance_ms: RECURRENTE_SIM_TRANSFER_EXPIRY_MS }) });
    expect(clock.status).toBe(200);
    const checkout = (await (await api(`/checkouts/${id}`)).json()) as { status: string; payment: { id: string } };
    expect(checkout.status).toBe('unpaid');
    expect(((await (await api(`/payment_intents/${checkout.payment.id}`)).json()) as { status: string }).status).toBe('failed');
    const deliveries = (await (await fetch(`${simulator.url}/recurrente/_sim/webhooks`)).json()) as Array<{ eventType: string; checkoutId: string }>;
    expect(deliveries.filter((delivery) => delivery.checkoutId === id).map((delivery) => delivery.eventType)).toEqual(['bank_transfer_intent.pending', 'bank_transfer_intent.failed']);
    expect((await fetch(`${simulator.url}/recurrente/_sim/clock`, { method: 'POST', body: '{"advance_ms":-1}' })).status).toBe(422);
  });

  it('says an expired or unknown link is one, and asks for a choice', async () => {
    const { checkout_url } = await createCheckout({ expires_at: new Date(simulator.recurrente.now().getTime() + 1_000).toISOString() });
    expect((await pay(checkout_url, 'nada')).status).toBe(400);
    simulator.recurrente.advanceClock(2_000);
    const expired = await fetch(checkout_url);
    expect(expired.status).toBe(410);
    expect(await expired.text()).toContain('venció');
    expect((await fetch(`${simulator.url}/recurrente/checkout-session/ch_noexiste`)).status).toBe(404);
  });

  it('escapes what the merchant wrote in the page', async () => {
    const { checkout_url } = await createCheckout({ items: [{ name: '<script>alert(1)</script>', currency: 'GTQ', amount_in_cents: 100 }] });
    const html = await (await fetch(checkout_url)).text();
    expect(html).not.toContain('<script>');
    expect(html).toContain('&#60;script&#62;');
  });
});

describe('the API', () => {
  it('refuses wrong keys with 401 and an error, and unknown routes with 404', async () => {
    const wrong = await api('/checkouts/ch_x', { headers: { 'X-SECRET-KEY': 'sk_test_otra' } });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ error: 'Las llaves de API no son válidas' });
    expect((await api('/subscriptions')).status).toBe(404);
  });

  it('checks a checkout’s items, metadata and expiry as Recurrente documents them', async () => {
    const bad = async (body: Record<string, unknown>) => (await api('/checkouts', { body: { items: [{ name: 'Recarga', currency: 'GTQ', amount_in_cents: 100 }], ...body } })).status;
    expect(await bad({ items: [] })).toBe(422);
    expect(await bad({ items: [{ name: 'Recarga', currency: 'EUR', amount_in_cents: 100 }] })).toBe(422);
    expect(await bad({ items: [{ name: 'Recarga', currency: 'GTQ', amount_in_cents: 1.5 }] })).toBe(422);
    expect(await bad({ items: [{ name: 'Recarga', currency: 'GTQ', amount_in_cents: 100, quantity: 10 }] })).toBe(422);
    expect(await bad({ metadata: { [`k${'x'.repeat(40)}`]: 'v' } })).toBe(422);
    expect(await bad({ expires_at: 'mañana' })).toBe(422);
    expect(await bad({})).toBe(201);
  });

  it('takes a fault from the header for one request, and refuses an unknown one', async () => {
    const failed = await api('/checkouts', { body: { items: [{ name: 'Recarga', currency: 'GTQ', amount_in_cents: 100 }] }, headers: { [FAULT_HEADER]: 'server_error' } });
    expect(failed.status).toBe(500);
    expect((await api('/checkouts/ch_x', { headers: { [FAULT_HEADER]: 'slow' } })).status).toBe(400);
  });

  it('reads SIMULATOR_RECURRENTE_FAULT', () => {
    expect(parseRecurrenteFaultSpec('timeout, server_error')).toEqual([{ fault: 'timeout' }, { fault: 'server_error' }]);
    expect(parseRecurrenteFaultSpec('')).toEqual([]);
    expect(() => parseRecurrenteFaultSpec('slow')).toThrow(/SIMULATOR_RECURRENTE_FAULT/);
  });
});
