// Voids and credit notes from an invoice's console page, on the configuration users run: a built
// app with FEL on, against the certifier simulator. An administrator sees SAT's deadline beside
// "Anular", voids with a reason and the app's worker voids once, the balance moving back once
// however often it is sent; support staff see the deadline and are refused by the server. Past
// the deadline the void is refused with the date and the page offers a credit note instead, which
// references the invoice and moves the balance back once.
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/db/client';
import { auditLog, invoices, type Invoice } from '@/db/schema';
import { balanceAndLedgerSum } from '@/lib/core/billing/ledger';
import { calendarDayText, REVERSAL_MESSAGES } from '@/lib/presentation/invoice-messages';
import { voidDeadlineOf } from '@/lib/core/billing/invoice-reversals';
import { ACTION_MESSAGES } from '@/lib/flows/auth/action';
import { createConsoleUser } from '@/lib/flows/auth/users';
import { formatNit } from '@/lib/flows/integration-management/details-display';
import { RECEPTOR_MESSAGES } from '@/lib/flows/invoicing/receptor';
import { guatemalanToday } from '@/lib/platform/time/guatemala-time';
import { felDateTime } from '@/lib/providers/fel/document';
import { createTestIntegration, type TestIntegration } from '@/tests/conformance/harness';
import { FEL_SIM_RECEPTORS } from '../../simulator/fel';
import { startSimulator, type RunningSimulator } from '../../simulator/server';
import { startApp, type RunningApp } from '../support/app-server';
import { ConsoleClient } from '../support/console-client';
import { says } from '../support/verify-now';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';

let testDatabase: TestDatabase;
let simulator: RunningSimulator;
let app: RunningApp;
let admin: ConsoleClient;
let support: ConsoleClient;
let adminId: number;
let integration: TestIntegration;

async function until<T>(what: string, probe: () => Promise<T | undefined | null | false>, timeoutMs = 20_000): Promise<T> {
  const ends = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > ends) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

/** A console top-up of `monto`, and its invoice once the app's worker certified it. */
async function certifiedTopUp(monto: string): Promise<Invoice> {
  const before = simulator.fel.certifications().length;
  const credited = await admin.serverAction(`/admin/integraciones/${integration.id}/saldo`, 'topUpAction', { integrationId: integration.id, monto, nota: 'Depósito de prueba', envio: randomUUID() });
  expect(says(credited, `Recarga de Q ${monto} registrada.`)).toBe(true);
  await until('the certification', async () => simulator.fel.certifications().length > before);
  return until('the certified invoice', () =>
    app.withDatabase(async () => {
      const rows = await (await db()).select().from(invoices).where(and(eq(invoices.integrationId, integration.id), eq(invoices.state, 'certified')));
      return rows.find((row) => row.totalCentavos === Math.round(Number(monto) * 100));
    }),
  );
}

const balance = () => app.withDatabase(() => balanceAndLedgerSum(integration.id));
const invoicePage = (client: ConsoleClient, invoice: Invoice) => client.request(`/admin/facturas/${invoice.id}`).then((answer) => answer.text);

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  simulator = await startSimulator({ port: 0 });
  const [adminUser, supportUser] = await testDatabase.use(async () => {
    integration = await createTestIntegration('facturas-anular', { balanceCentavos: 0 });
    return [
      await createConsoleUser({ kind: 'system', name: 'test' }, { email: 'admin-anular@example.com', name: 'Persona admin', role: 'admin', mustChangePassword: false }),
      await createConsoleUser({ kind: 'system', name: 'test' }, { email: 'soporte-anular@example.com', name: 'Persona soporte', role: 'support', mustChangePassword: false }),
    ];
  });
  if (!adminUser.ok || !supportUser.ok) throw new Error('console users not created');
  adminId = adminUser.value.user.id;
  app = await startApp({
    env: { FEL_ENABLED: 'true', FEL_CERTIFIER_BASE_URL: `${simulator.url}/fel`, FEL_NIT_LOOKUP_BASE_URL: `${simulator.url}/fel/receptores`, FEL_WORKER_INTERVAL_MS: '200' },
  });
  admin = new ConsoleClient(app.baseUrl);
  support = new ConsoleClient(app.baseUrl);
  expect(await admin.signIn('admin-anular@example.com', adminUser.value.password)).toBeNull();
  expect(await support.signIn('soporte-anular@example.com', supportUser.value.password)).toBeNull();
}, PROCESS_TEST_TIMEOUT_MS);

afterAll(async () => {
  await app?.stop();
  await simulator?.close();
  await testDatabase?.cleanup();
});

describe('an invoice’s void from the console', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('within the deadline shown beside the button: administrators only, voided once, the balance moved back once', async () => {
    const invoice = await certifiedTopUp('112.00');
    const page = `/admin/facturas/${invoice.id}`;
    const deadline = REVERSAL_MESSAGES.voidableUntil(voidDeadlineOf(invoice.emittedAt));
    const adminPage = await invoicePage(admin, invoice);
    expect(adminPage).toContain(deadline);
    expect(adminPage).toContain('>Anular</button>');
    const supportPage = await invoicePage(support, invoice);
    expect(supportPage).toContain(`${deadline} Solo un administrador puede anularla.`);
    expect(supportPage).not.toContain('>Anular</button>');

    const send = (client: ConsoleClient, motivo: string) => client.serverAction(page, 'voidInvoiceAction', { invoiceId: invoice.id, motivo, envio: randomUUID() });
    expect(says(await send(support, 'Recarga duplicada'), ACTION_MESSAGES.forbidden)).toBe(true);
    expect(says(await send(admin, ''), REVERSAL_MESSAGES.reasonInvalid)).toBe(true);
    expect(says(await send(admin, 'x'.repeat(256)), REVERSAL_MESSAGES.reasonInvalid)).toBe(true);
    expect(await balance()).toEqual({ balanceCentavos: 11_200, ledgerSumCentavos: 11_200 });

    expect(says(await send(admin, 'Recarga duplicada'), REVERSAL_MESSAGES.voidRequested(11_200))).toBe(true);
    expect(says(await send(admin, 'Recarga duplicada'), REVERSAL_MESSAGES.alreadyRequested)).toBe(true);
    await until('the void', async () => simulator.fel.certification(invoice.identifier)?.voided);
    expect(await balance()).toEqual({ balanceCentavos: 0, ledgerSumCentavos: 0 });
    expect(await until('the page to say it', async () => (await invoicePage(admin, invoice)).includes('Anulada ante SAT el'))).toBe(true);
    const audits = await app.withDatabase(async () => (await db()).select().from(auditLog).where(eq(auditLog.action, 'invoice.void')));
    expect(audits.map((audit) => audit.actor)).toEqual([`user:${adminId} admin-anular@example.com`]);
  });

  it('past the deadline is refused with the date; the page offers a credit note that references the invoice and moves the balance back once', async () => {
    const invoice = await certifiedTopUp('50.00');
    // As if it had been issued three months ago: in the app's database and in the certifier's record.
    const issued = new Date(Date.now() - 95 * 86_400_000);
    await app.withDatabase(async () => (await db()).update(invoices).set({ emittedAt: issued }).where(eq(invoices.id, invoice.id)));
    Object.assign(simulator.fel.certification(invoice.identifier)!, { emittedAt: felDateTime(issued), emittedOn: guatemalanToday(issued) });
    const deadline = voidDeadlineOf(issued);
    const page = `/admin/facturas/${invoice.id}`;
    const shown = await invoicePage(admin, invoice);
    expect(shown).toContain(`El plazo para anularla venció el ${calendarDayText(deadline)}`);
    expect(shown).toContain('>Emitir nota de crédito</button>');
    expect(shown).not.toContain('>Anular</button>');

    expect(says(await admin.serverAction(page, 'voidInvoiceAction', { invoiceId: invoice.id, motivo: 'Tarde', envio: randomUUID() }), REVERSAL_MESSAGES.pastDeadline(deadline))).toBe(true);
    expect(await balance()).toEqual({ balanceCentavos: 5_000, ledgerSumCentavos: 5_000 });
    const note = { invoiceId: invoice.id, motivo: 'Devolución de la recarga' };
    expect(says(await support.serverAction(page, 'creditNoteAction', { ...note, envio: randomUUID() }), ACTION_MESSAGES.forbidden)).toBe(true);
    expect(says(await admin.serverAction(page, 'creditNoteAction', { ...note, envio: randomUUID() }), REVERSAL_MESSAGES.creditNoteRequested(5_000))).toBe(true);
    expect(says(await admin.serverAction(page, 'creditNoteAction', { ...note, envio: randomUUID() }), REVERSAL_MESSAGES.alreadyRequested)).toBe(true);
    const certified = await until('the credit note', async () => simulator.fel.certifications().find((each) => each.type === 'NCRE' && each.references === invoice.uuid));
    expect(simulator.fel.certificationCount(certified.identifier)).toBe(1);
    expect(certified.grandTotal).toBe('50.00');
    expect(await balance()).toEqual({ balanceCentavos: 0, ledgerSumCentavos: 0 });
    expect(await until('the page to say it', async () => (await invoicePage(admin, invoice)).includes(`Nota de crédito ${certified.serie}-${certified.numero}`))).toBe(true);
    expect(says(await admin.serverAction(page, 'voidInvoiceAction', { invoiceId: invoice.id, motivo: 'Otra vez', envio: randomUUID() }), REVERSAL_MESSAGES.pastDeadline(deadline))).toBe(true);
  });
});

describe('«Corregir receptor» from the console', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('reissues to the integration’s receptor once, sent four times at once; administrators only; the balance never moves; each page links the other', async () => {
    const invoice = await certifiedTopUp('80.00');
    const page = `/admin/facturas/${invoice.id}`;
    expect(await invoicePage(admin, invoice)).toContain('Para corregir a quién nombra, cambie primero el receptor de la integración');
    const motivo = 'Factura emitida a consumidor final por error';
    const send = (client: ConsoleClient) => client.serverAction(page, 'correctReceptorAction', { invoiceId: invoice.id, motivo, envio: randomUUID() });
    expect(says(await send(admin), REVERSAL_MESSAGES.receptorUnchanged)).toBe(true);

    const [EMPRESA] = FEL_SIM_RECEPTORS;
    const datos = `/admin/integraciones/${integration.id}/datos`;
    const saved = await admin.serverAction(datos, 'saveReceptorAction', { integrationId: integration.id, envio: randomUUID(), tipo: 'nit', identificador: EMPRESA!.nit, nombreMostrado: EMPRESA!.name });
    expect(says(saved, RECEPTOR_MESSAGES.saved)).toBe(true);
    const receptor = `NIT ${formatNit(EMPRESA!.nit)} · ${EMPRESA!.name}`;
    expect(await invoicePage(admin, invoice)).toContain(`La integración tiene registrado otro receptor: ${receptor}.`);
    expect(await invoicePage(support, invoice)).not.toContain('>Corregir receptor</button>');
    expect(says(await send(support), ACTION_MESSAGES.forbidden)).toBe(true);

    const before = await balance();
    const answers = await Promise.all([send(admin), send(admin), send(admin), send(admin)]);
    expect(answers.filter((answer) => says(answer, REVERSAL_MESSAGES.correctionRequested('void', receptor)))).toHaveLength(1);
    expect(answers.filter((answer) => says(answer, REVERSAL_MESSAGES.correctionAlreadyRequested))).toHaveLength(3);
    const replacement = await until('the replacing invoice', () =>
      app.withDatabase(async () => (await (await db()).select().from(invoices).where(and(eq(invoices.correctsInvoiceId, invoice.id), eq(invoices.state, 'certified'))))[0]),
    );
    expect(simulator.fel.certification(invoice.identifier)?.voided).toMatchObject({ reason: motivo });
    expect(replacement).toMatchObject({ ledgerEntryId: invoice.ledgerEntryId, receptorId: EMPRESA!.nit, totalCentavos: 8_000 });
    expect(simulator.fel.certificationCount(replacement.identifier)).toBe(1);
    expect(await balance()).toEqual(before);

    const original = await invoicePage(admin, invoice);
    expect(original).toContain('Corregida: reemplazada por otra factura');
    expect(original).toContain(`href="/admin/facturas/${replacement.id}"`);
    const reissued = await admin.request(`/admin/facturas/${replacement.id}`).then((answer) => answer.text);
    expect(reissued).toContain(`href="/admin/facturas/${invoice.id}"`);
    expect(reissued).toContain(receptor);
  });
});
