// Issue 64, point 5: books that verify themselves. On data whose books close, the reconciliation
// and `books:verify` say so; then each mismatch an accountant fears is put into the data as a
// broken process would leave it (a payment taken and not credited, a top-up credited without its
// invoice, a refund without its credit note): the CLI names each and exits 1, the reconciliation
// tells the administrators, and the console's Panel shows each in words.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/db/client';
import { invoices, onlinePaymentRefunds, onlinePayments, portalUsers } from '@/db/schema';
import type { Actor } from '@/lib/core/audit/audit';
import { booksDoNotClose, type BooksDoNotClose } from '@/lib/core/billing/events';
import { adjustBalance, topUp } from '@/lib/core/billing/ledger';
import { verifyLedger } from '@/lib/core/billing/verify';
import { publishInvoicingDecision } from '@/lib/core/invoices/decision';
import { LEDGER_DIFFERENCE_LABELS } from '@/lib/presentation/labels';
import { createTestIntegration, type TestIntegration } from '@/tests/conformance/harness';
import { startApp, type RunningApp } from '../support/app-server';
import { runCli } from '../support/cli';
import { addPortalMember, consoleSignedIn, newConsoleUser } from '../support/people';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';

const ADMIN: Actor = { kind: 'user', id: 1, email: 'admin@servicio.example' };

let testDatabase: TestDatabase;
let integration: TestIntegration;
let admin: { email: string; password: string };
let app: RunningApp | undefined;
const injected = { payment: `recarga-${randomUUID()}`, entryWithoutInvoice: 0, refund: 0 };

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  await testDatabase.use(async () => {
    // The service invoices (as an app instance with FEL on publishes it); no certifier is needed:
    // the books read the invoice rows, whatever their state.
    await publishInvoicingDecision(await db(), { FEL_ENABLED: true, FEL_ISSUER_AFFILIATION: 'GEN' }, 'test');
    integration = await createTestIntegration('cuentas-cuadran', { balanceCentavos: 50_000 });
    await addPortalMember(integration, 'conta-cuentas@example.com', 'facturacion');
    admin = await newConsoleUser('admin-cuentas@example.com', 'admin');
    const credited = await topUp(ADMIN, integration.id, 20_000, 'Depósito 7710');
    if (!credited.ok) throw new Error(credited.error.message);
  });
}, PROCESS_TEST_TIMEOUT_MS);

afterAll(async () => {
  await app?.stop();
  await testDatabase?.cleanup();
});

const cli = (...args: string[]) => runCli([...args], testDatabase.env);

describe('the books check', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('on books that close: the reconciliation finds nothing and books:verify says the books close, month by month', async () => {
    const run = await testDatabase.use(() => verifyLedger({ trigger: 'cli', sweepAfterSeconds: 60 }));
    expect(run.differences).toEqual([]);
    const clean = await cli('books:verify');
    expect(clean.code, clean.stderr).toBe(0);
    expect(clean.stdout).toContain('«cuentas-cuadran»: recargas Q 700.00 = facturado Q 700.00; certificado Q 0.00 (2 en cola del certificador)');
    expect(clean.stdout).toContain('Las cuentas cuadran');
    // The invoices themselves, as an operator lists and shows them.
    const listed = await cli('invoices:list', '--integration', 'cuentas-cuadran');
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/^Factura #2 «cuentas-cuadran» FACT sin número todavía: Pendiente, Q 200\.00, emitida el .*; receptor Consumidor final; recarga #\d+$/m);
    expect(listed.stdout).toMatch(/^Factura #1 «cuentas-cuadran» FACT sin número todavía: Pendiente, Q 500\.00/m);
    const shown = await cli('invoices:show', '1', '--json');
    expect(shown.json<{ id: number; totalCentavos: number; certifiedXml?: string }>()).toMatchObject({ id: 1, totalCentavos: 50_000 });
    expect(shown.json<object>()).not.toHaveProperty('certifiedXml');
    expect((await cli('invoices:list', '--estado', 'pagada')).stderr).toContain('--estado admite awaiting_receptor, pending, indeterminate, certified, to_correct');
    expect((await cli('invoices:show', '999')).stderr).toContain('no existe la factura «999»');
  });

  it('names a payment taken and not credited, a top-up without its invoice and a refund without its credit note, and tells the administrators', async () => {
    const told: BooksDoNotClose[] = [];
    const stop = booksDoNotClose.subscribe((books) => void told.push(books));
    try {
      await testDatabase.use(async () => {
        const handle = await db();
        const [billing] = await handle.select({ id: portalUsers.id }).from(portalUsers).where(eq(portalUsers.email, 'conta-cuentas@example.com'));
        // A payment the provider took (another amount than its checkout's), not in the balance.
        await handle.insert(onlinePayments).values({ id: injected.payment, integrationId: integration.id, startedBy: billing!.id, amountCentavos: 30_000, provider: 'recurrente', state: 'indeterminate', detail: 'amount_mismatch', expiresAt: new Date() });
        // A top-up whose invoice row is gone, as a process that credited without invoicing leaves it.
        const credited = await topUp(ADMIN, integration.id, 15_000, 'Depósito 7711');
        if (!credited.ok) throw new Error(credited.error.message);
        injected.entryWithoutInvoice = credited.value.entry.id;
        await handle.delete(invoices).where(eq(invoices.ledgerEntryId, credited.value.entry.id));
        // A card payment credited, then refunded by the provider, whose credit note was never written.
        const paid = await topUp(ADMIN, integration.id, 10_000, 'Pago en línea (tarjeta)');
        if (!paid.ok) throw new Error(paid.error.message);
        const payment = `recarga-${randomUUID()}`;
        await handle.insert(onlinePayments).values({ id: payment, integrationId: integration.id, startedBy: billing!.id, amountCentavos: 10_000, provider: 'recurrente', state: 'credited', ledgerEntryId: paid.value.entry.id, expiresAt: new Date() });
        const taken = await adjustBalance(ADMIN, integration.id, -10_000, 'Reembolso del pago en línea');
        if (!taken.ok) throw new Error(taken.error.message);
        const [refund] = await handle
          .insert(onlinePaymentRefunds)
          .values({ onlinePaymentId: payment, integrationId: integration.id, amountCentavos: 10_000, state: 'done', reason: 'Pago duplicado', requestedBy: 'admin', ledgerEntryId: taken.value.entry.id })
          .returning({ id: onlinePaymentRefunds.id });
        injected.refund = refund!.id;
      });

      const run = await testDatabase.use(() => verifyLedger({ trigger: 'job', sweepAfterSeconds: 60 }));
      const found = (run.differences as Array<{ kind: string; integrationId: number; sample: unknown[] }>).map(({ kind, integrationId, sample }) => ({ kind, integrationId, sample }));
      expect(found).toEqual([
        { kind: 'payment_not_credited', integrationId: integration.id, sample: [injected.payment] },
        { kind: 'credit_without_invoice', integrationId: integration.id, sample: [injected.entryWithoutInvoice] },
        { kind: 'refund_without_credit_note', integrationId: integration.id, sample: [injected.refund] },
      ]);
      expect(told.map((books) => books.findings.map((finding) => finding.kind))).toEqual([['payment_not_credited', 'credit_without_invoice', 'refund_without_credit_note']]);
    } finally {
      stop();
    }

    const books = await cli('books:verify', '--integration', 'cuentas-cuadran');
    expect(books.code).toBe(1);
    expect(books.stdout).toContain('Las cuentas no cuadran (3 diferencias):');
    expect(books.stdout).toContain(`${LEDGER_DIFFERENCE_LABELS.payment_not_credited} (pagos en línea que el proveedor cobró y que no están en el saldo); para empezar a revisar: ${injected.payment}`);
    expect(books.stdout).toContain(`${LEDGER_DIFFERENCE_LABELS.credit_without_invoice} (recargas acreditadas sin factura y sin motivo (la facturación estaba encendida)); para empezar a revisar: ${injected.entryWithoutInvoice}`);
    expect(books.stdout).toContain(`${LEDGER_DIFFERENCE_LABELS.refund_without_credit_note} (reembolsos hechos por el proveedor sin su nota de crédito); para empezar a revisar: ${injected.refund}`);
    const json = await cli('books:verify', '--json');
    expect(json.code).toBe(1);
    expect(json.json<{ findings: Array<{ kind: string }> }>().findings.map((finding) => finding.kind)).toEqual(['payment_not_credited', 'credit_without_invoice', 'refund_without_credit_note']);
    expect((await cli('books:verify', '--mes', 'noviembre')).stderr).toContain('--mes se escribe AAAA-MM');
  });

  it('the Panel shows each in words', async () => {
    app = await startApp();
    const console_ = await consoleSignedIn(app.baseUrl, admin);
    const panel = await console_.request('/admin');
    expect(panel.status).toBe(200);
    // What a person reads: the page without its scripts and tags.
    const visible = panel.text.replace(/<script[\s\S]*?<\/script>/g, '').replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
    for (const kind of ['payment_not_credited', 'credit_without_invoice', 'refund_without_credit_note'] as const) {
      expect(visible).toContain(`cuentas-cuadran : ${LEDGER_DIFFERENCE_LABELS[kind]} ( 1 )`);
    }
    expect(visible).toContain('encontró diferencias');
    // Nothing of it reads as an internal code.
    for (const code of ['credit_without_invoice', 'payment_not_credited', 'amount_mismatch', 'Integración 1']) expect(visible).not.toContain(code);
  });
});
