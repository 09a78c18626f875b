// The receptor of an integration's invoices and "Por corregir", over HTTP against the built app with
// FEL on and the certifier simulator. An integration whose stored receptor names a NIT with a name
// SAT does not have gets a console top-up: the certifier refuses its invoice, which Facturas lists
// under "Por corregir" with the certifier's message. The administrator sets the receptor in two
// steps (a NIT with a wrong check character refused in Spanish; a good one looked up, its name as
// SAT has it shown, then saved), and retries the invoice: the same identifier, certified once.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/db/client';
import { integrations } from '@/db/schema';
import { ACTION_MESSAGES } from '@/lib/flows/auth/action';
import { createConsoleUser } from '@/lib/flows/auth/users';
import { CORRECTION_MESSAGES } from '@/lib/flows/invoicing/corrections';
import { RECEPTOR_MESSAGES } from '@/lib/flows/invoicing/receptor';
import { createTestIntegration, type TestIntegration } from '@/tests/conformance/harness';
import { FEL_SIM_RECEPTORS } from '../../simulator/fel';
import { startSimulator, type RunningSimulator } from '../../simulator/server';
import { startApp, type RunningApp } from '../support/app-server';
import { ConsoleClient } from '../support/console-client';
import { says } from '../support/verify-now';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';

const PERSONA = FEL_SIM_RECEPTORS[1];
const REFUSAL = 'El nombre del receptor no coincide con el registrado para su NIT.';

let testDatabase: TestDatabase;
let simulator: RunningSimulator;
let app: RunningApp;
let admin: ConsoleClient;
let support: ConsoleClient;
let integration: TestIntegration;

/** The page's text as a reader sees it: no tags, one space between words. */
function text(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/&nbsp;|\u00a0/g, ' ')
    .replace(/\s+/g, ' ');
}

/** The rows of a Facturas list as text, and the invoice ids they link to. */
async function listed(client: ConsoleClient, path: string): Promise<{ rows: string[]; ids: number[] }> {
  const answer = await client.request(path);
  expect(answer.status, path).toBe(200);
  const rows = [...answer.text.matchAll(/<tr[^>]*data-testid="invoice-row"[^>]*>([\s\S]*?)<\/tr>/g)].map((match) => match[1]!);
  return { rows: rows.map((row) => text(row).trim()), ids: rows.map((row) => Number(/href="\/admin\/facturas\/(\d+)"/.exec(row)![1])) };
}

async function until(condition: () => Promise<boolean> | boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const ends = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > ends) throw new Error(`${what}: not after ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const datos = () => `/admin/integraciones/${integration.id}/datos`;
const receptorForm = (fields: Record<string, string>) => ({ integrationId: integration.id, envio: randomUUID(), ...fields });

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  simulator = await startSimulator({ port: 0 });
  const passwords = await testDatabase.use(async () => {
    integration = await createTestIntegration('receptor-consola', { balanceCentavos: 10_000 });
    // Stored before the form checked names: SAT's registry writes this NIT's name otherwise.
    await (await db()).update(integrations).set({ receptorKind: 'nit', receptorId: PERSONA.nit, receptorName: 'Juan Carlos Pérez' }).where(eq(integrations.id, integration.id));
    const system = { kind: 'system', name: 'test' } as const;
    const createdAdmin = await createConsoleUser(system, { email: 'admin-receptor@example.com', name: 'Admin', role: 'admin', mustChangePassword: false });
    const createdSupport = await createConsoleUser(system, { email: 'soporte-receptor@example.com', name: 'Soporte', role: 'support', mustChangePassword: false });
    if (!createdAdmin.ok || !createdSupport.ok) throw new Error('createConsoleUser failed');
    return { admin: createdAdmin.value.password, support: createdSupport.value.password };
  });
  app = await startApp({
    env: {
      FEL_ENABLED: 'true',
      FEL_CERTIFIER_BASE_URL: `${simulator.url}/fel`,
      FEL_NIT_LOOKUP_BASE_URL: `${simulator.url}/fel/receptores`,
      FEL_WORKER_INTERVAL_MS: '200',
    },
  });
  admin = new ConsoleClient(app.baseUrl);
  support = new ConsoleClient(app.baseUrl);
  expect(await admin.signIn('admin-receptor@example.com', passwords.admin)).toBeNull();
  expect(await support.signIn('soporte-receptor@example.com', passwords.support)).toBeNull();
  const credited = await admin.serverAction(`/admin/integraciones/${integration.id}/saldo`, 'topUpAction', { integrationId: integration.id, monto: '100.00', nota: 'Depósito 5120', envio: randomUUID() });
  expect(says(credited, 'Recarga de Q 100.00 registrada. Saldo actual: Q 200.00.')).toBe(true);
  await until(async () => (await listed(support, '/admin/facturas?estado=to_correct')).rows.length === 1, 'the refused invoice in Por corregir');
}, PROCESS_TEST_TIMEOUT_MS);

afterAll(async () => {
  await app?.stop();
  await simulator?.close();
  await testDatabase?.cleanup();
});

describe('Por corregir and the receptor', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it("lists the invoice the certifier refused with the certifier's message, and says so on Facturas", async () => {
    const toCorrect = await listed(support, '/admin/facturas?estado=to_correct');
    expect(toCorrect.rows[0]).toContain('Por corregir');
    expect(toCorrect.rows[0]).toContain(REFUSAL);
    expect(text((await support.request('/admin/facturas')).text)).toContain('Una factura está por corregir');
    expect(simulator.fel.certifications()).toEqual([]);
  });

  it("sets the receptor in two steps: a wrong check character refused, SAT's name shown before saving, saved only as shown", async () => {
    expect(says(await admin.serverAction(datos(), 'lookUpReceptorAction', receptorForm({ tipo: 'nit', identificador: '91000002-7' })), RECEPTOR_MESSAGES.nitInvalid)).toBe(true);
    const looked = await admin.serverAction(datos(), 'lookUpReceptorAction', receptorForm({ tipo: 'nit', identificador: '91000002-6' }));
    expect(looked.status).toBe(200);
    expect(says(looked, PERSONA.name)).toBe(true);
    // Support reads the receptor but cannot look one up or save it.
    expect(says(await support.serverAction(datos(), 'lookUpReceptorAction', receptorForm({ tipo: 'nit', identificador: PERSONA.nit })), ACTION_MESSAGES.forbidden)).toBe(true);
    // A name other than SAT's is never saved, whatever the browser sends.
    expect(says(await admin.serverAction(datos(), 'saveReceptorAction', receptorForm({ tipo: 'nit', identificador: PERSONA.nit, nombreMostrado: 'Juan Carlos Pérez' })), RECEPTOR_MESSAGES.nameChanged)).toBe(true);
    expect(says(await admin.serverAction(datos(), 'saveReceptorAction', receptorForm({ tipo: 'nit', identificador: PERSONA.nit, nombreMostrado: PERSONA.name })), RECEPTOR_MESSAGES.saved)).toBe(true);
    const page = text((await support.request(datos())).text);
    expect(page).toContain(`Receptor de las facturas NIT 91000002-6 · ${PERSONA.name}`);
    expect(page).not.toContain('Tipo de receptor');
    // Administrators get the form's first step.
    const form = text((await admin.request(datos())).text);
    expect(form).toContain('Tipo de receptor');
    expect(form).toContain('Consultar');
  });

  it('retries the refused invoice with the same identifier, once however often it is clicked, and it is certified once', async () => {
    const [invoiceId] = (await listed(support, '/admin/facturas?estado=to_correct')).ids;
    const before = text((await admin.request(`/admin/facturas/${invoiceId}`)).text);
    expect(before).toContain(`el receptor que la integración tiene ahora: NIT 91000002-6 · ${PERSONA.name}`);
    expect(before).toContain('Reintentar con el mismo identificador');
    expect(text((await support.request(`/admin/facturas/${invoiceId}`)).text)).not.toContain('Reintentar con el mismo identificador');
    const identifier = /Identificador del documento ([0-9a-f-]{36})/.exec(before)![1]!;

    const retry = { invoiceId, envio: randomUUID() };
    const page = `/admin/facturas/${invoiceId}`;
    const [first, again] = await Promise.all([admin.serverAction(page, 'retryInvoiceAction', retry), admin.serverAction(page, 'retryInvoiceAction', retry)]);
    // The same sending twice (a double click): one change, both told it was made.
    expect(says(first, CORRECTION_MESSAGES.queued)).toBe(true);
    expect(says(again, CORRECTION_MESSAGES.queued)).toBe(true);
    expect(says(await support.serverAction(page, 'retryInvoiceAction', { invoiceId, envio: randomUUID() }), ACTION_MESSAGES.forbidden)).toBe(true);

    await until(() => simulator.fel.certifications().length === 1, 'the certification');
    await until(async () => text((await support.request(page)).text).includes('Está certificada ante SAT'), 'the invoice certified in the console');
    expect(simulator.fel.certificationCount(identifier)).toBe(1);
    expect(simulator.fel.certification(identifier)).toMatchObject({ receptorId: PERSONA.nit, grandTotal: '100.00' });
    // A later click finds nothing to correct.
    expect(says(await admin.serverAction(page, 'retryInvoiceAction', { invoiceId, envio: randomUUID() }), CORRECTION_MESSAGES.notToCorrect)).toBe(true);
    expect((await listed(support, '/admin/facturas?estado=to_correct')).rows).toEqual([]);
    // The NIT and the names went to the certifier and the pages, never to the app's log.
    expect(app.logs()).not.toContain(PERSONA.nit);
    expect(app.logs()).not.toContain('PEREZ,LOPEZ');
    expect(app.logs()).not.toContain('Juan Carlos');
  });
});
