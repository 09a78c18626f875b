// Voids and credit notes of certified invoices, on a real database and against the certifier
// simulator: a void inside SAT's deadline moves the balance back once, however often it is asked;
// past the deadline it is refused with the date and a credit note (NCRE) referencing the invoice
// moves it back once instead; a balance already spent is refused before anything is sent; a void
// the certifier refuses gives the balance back once; an unclear answer is settled without a second
// void or credit note. Each change is audited with the administrator who asked for it.
import fs from 'node:fs';
import path from 'node:path';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database, db } from '@/db/client';
import { auditLog, invoiceAttempts, invoiceReversals, invoices, ledgerEntries, type Invoice, type InvoiceReversal } from '@/db/schema';
import { describeActor, type Actor } from '@/lib/core/audit/audit';
import { adjustBalance, balanceAndLedgerSum, topUp } from '@/lib/core/billing/ledger';
import { REVERSAL_MESSAGES } from '@/lib/presentation/invoice-messages';
import { isVoidable, requestCreditNote, requestReceptorCorrection, requestVoid, voidDeadlineOf } from '@/lib/core/billing/invoice-reversals';
import { booksByMonth, booksFindings } from '@/lib/core/billing/books';
import { allSettings as env } from '@/lib/root/settings';
import type { FelCertifier } from '@/lib/providers/fel/certifier';
import { startOfNextGuatemalanDay } from '@/lib/platform/time/guatemala-time';
import { createTestIntegration, type TestIntegration } from '@/tests/conformance/harness';
import { resetEnvCache, useTestDatabase, type TestDatabase } from '@/tests/support/test-database';
import { FEL_SIM_RECEPTORS } from '../../../simulator/fel';
import { startSimulator, type RunningSimulator } from '../../../simulator/server';
import { invoicesInQueue } from './queue';
import { certifierOf, issuerOf } from './settings';
import { createInvoiceWorker, type InvoiceWorker } from './worker';
import { setIntegrationReceptor } from './receptor';

const ADMIN: Actor = { kind: 'user', id: 7, email: 'admin-anulaciones@servicio.example' };

let testDatabase: TestDatabase;
let simulator: RunningSimulator;

function worker(name = 'w1', certifier?: FelCertifier): InvoiceWorker {
  const settings = env();
  return createInvoiceWorker({ certifier: certifier ?? certifierOf(settings)!, issuer: issuerOf(settings)!, name, backoffBaseMs: 20, backoffCeilingMs: 200, credentialsPauseMs: 200, leaseSeconds: 30 });
}

async function reversalsInQueue(): Promise<number> {
  return (await (await db()).select().from(invoiceReversals).where(inArray(invoiceReversals.state, ['pending', 'indeterminate']))).length;
}

/** Runs the workers until no invoice, void or credit note is pending or indeterminate. */
async function settleAll(workers: InvoiceWorker[] = [worker()], timeoutMs = 25_000): Promise<void> {
  const ends = Date.now() + timeoutMs;
  while ((await invoicesInQueue()) + (await reversalsInQueue()) > 0) {
    if (Date.now() > ends) throw new Error('still in the queue');
    await Promise.all(workers.map((each) => each.runOnce()));
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A certified invoice of a top-up of `amount` to a new integration with nothing else on its balance. */
async function certifiedInvoice(name: string, amountCentavos: number): Promise<{ integration: TestIntegration; invoice: Invoice }> {
  const integration = await createTestIntegration(name, { balanceCentavos: 0 });
  const credited = await topUp(ADMIN, integration.id, amountCentavos, 'Depósito de prueba');
  if (!credited.ok) throw new Error(credited.error.message);
  await settleAll();
  const [invoice] = await (await db()).select().from(invoices).where(eq(invoices.ledgerEntryId, credited.value.entry.id));
  expect(invoice).toMatchObject({ state: 'certified' });
  return { integration, invoice: invoice! };
}

/** What the lists show of the invoice: its void or credit note, under way or done. */
async function standingOf(invoiceId: number) {
  const [row] = await (await db()).select({ reversal: invoices.reversal }).from(invoices).where(eq(invoices.id, invoiceId));
  return row?.reversal;
}

async function reversalsOf(invoiceId: number): Promise<InvoiceReversal[]> {
  return (await db()).select().from(invoiceReversals).where(eq(invoiceReversals.invoiceId, invoiceId)).orderBy(asc(invoiceReversals.id));
}

async function adjustmentsOf(integrationId: number) {
  return (await db()).select().from(ledgerEntries).where(and(eq(ledgerEntries.integrationId, integrationId), eq(ledgerEntries.kind, 'adjustment'))).orderBy(asc(ledgerEntries.id));
}

async function balanceOf(integrationId: number): Promise<number> {
  const { balanceCentavos, ledgerSumCentavos } = await balanceAndLedgerSum(integrationId);
  expect(ledgerSumCentavos).toBe(balanceCentavos);
  return balanceCentavos;
}

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  simulator = await startSimulator({ port: 0 });
  Object.assign(process.env, {
    FEL_ENABLED: 'true',
    FEL_CERTIFIER_BASE_URL: `${simulator.url}/fel`,
    FEL_NIT_LOOKUP_BASE_URL: `${simulator.url}/fel/receptores`,
    FEL_CERTIFY_TIMEOUT_MS: '1000',
  });
  resetEnvCache();
});
afterAll(async () => {
  await simulator?.close();
  await testDatabase?.cleanup();
});

describe('a void inside SAT’s deadline', () => {
  it('moves the balance back once when asked twice at once, and the certifier registers one void', async () => {
    const { integration, invoice } = await certifiedInvoice('anular-a-tiempo', 11_200);
    expect(await balanceOf(integration.id)).toBe(11_200);
    const [first, second] = await Promise.all([requestVoid(ADMIN, invoice.id, 'Recarga registrada por error'), requestVoid(ADMIN, invoice.id, 'Recarga registrada por error')]);
    expect(first.ok && second.ok).toBe(true);
    expect([first, second].map((result) => result.ok && result.value.created).sort()).toEqual([false, true]);
    expect(await balanceOf(integration.id)).toBe(0);
    await settleAll();
    expect(await standingOf(invoice.id)).toBe('voided');
    // Asked again once it is done: nothing moves.
    expect(await requestVoid(ADMIN, invoice.id, 'Otra vez')).toMatchObject({ ok: true, value: { created: false, balanceCentavos: 0 } });
    expect(await balanceOf(integration.id)).toBe(0);

    const [reversal, ...others] = await reversalsOf(invoice.id);
    expect(others).toEqual([]);
    expect(reversal).toMatchObject({ kind: 'void', state: 'done', amountCentavos: 11_200, requestedBy: describeActor(ADMIN) });
    expect(simulator.fel.voidCount(reversal!.identifier)).toBe(1);
    expect(simulator.fel.certification(invoice.identifier)?.voided).toMatchObject({ reason: 'Recarga registrada por error' });
    const adjustments = await adjustmentsOf(integration.id);
    expect(adjustments.map((entry) => [entry.amountCentavos, entry.actor])).toEqual([[-11_200, describeActor(ADMIN)]]);
    expect(adjustments[0]!.note).toBe(`Anulación de la factura ${invoice.serie}-${invoice.numero}: Recarga registrada por error`);
    expect(reversal!.ledgerEntryId).toBe(adjustments[0]!.id);

    const audits = await (await db()).select().from(auditLog).where(eq(auditLog.action, 'invoice.void'));
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ actor: describeActor(ADMIN), targetType: 'integration', targetId: String(integration.id), before: { balanceCentavos: 11_200 } });
    expect(audits[0]!.after).toMatchObject({ balanceCentavos: 0, amountCentavos: -11_200, invoiceId: invoice.id, reason: 'Recarga registrada por error' });
  });

  it('refuses a reason that is empty or longer than 255 characters, moving nothing', async () => {
    const { integration, invoice } = await certifiedInvoice('anular-motivo', 2_000);
    expect(await requestVoid(ADMIN, invoice.id, '   ')).toEqual({ ok: false, error: { code: 'invalid', why: 'reason_invalid' } });
    expect(await requestVoid(ADMIN, invoice.id, 'x'.repeat(256))).toMatchObject({ ok: false, error: { code: 'invalid' } });
    expect(await balanceOf(integration.id)).toBe(2_000);
    expect(await reversalsOf(invoice.id)).toEqual([]);
  });

  it('is refused before anything is sent when the integration already spent the balance', async () => {
    const { integration, invoice } = await certifiedInvoice('anular-gastado', 5_000);
    const spent = await adjustBalance(ADMIN, integration.id, -1, 'Consulta cobrada');
    if (!spent.ok) throw new Error(spent.error.message);
    const sentBefore = simulator.fel.certifications().length;
    expect(await requestVoid(ADMIN, invoice.id, 'Reverso')).toEqual({ ok: false, error: { code: 'balance_spent', why: 'balance_spent', balanceCentavos: 4_999, totalCentavos: 5_000 } });
    expect(await requestCreditNote(ADMIN, invoice.id, 'Reverso')).toMatchObject({ ok: false, error: { code: 'balance_spent' } });
    expect(await balanceOf(integration.id)).toBe(4_999);
    expect(await reversalsOf(invoice.id)).toEqual([]);
    await settleAll();
    expect(simulator.fel.certifications()).toHaveLength(sentBefore);
  });

  it('that the certifier refuses gives the balance back once, and a credit note can follow', async () => {
    const { integration, invoice } = await certifiedInvoice('anular-rechazada', 3_000);
    const real = certifierOf(env())!;
    const refusing: FelCertifier = { ...real, name: real.name, voidDocument: async () => ({ kind: 'rejected', errors: [{ code: 'FEL_ANU003', message: 'El plazo para anular venció.' }] }) };
    expect(await standingOf(invoice.id)).toBeNull();
    expect(await requestVoid(ADMIN, invoice.id, 'Reverso')).toMatchObject({ ok: true, value: { created: true, balanceCentavos: 0 } });
    expect(await standingOf(invoice.id)).toBe('void_pending');
    await settleAll([worker('w-refusing', refusing), worker('w-refusing-2', refusing)]);
    expect(await balanceOf(integration.id)).toBe(3_000);
    expect(await standingOf(invoice.id)).toBeNull();
    const [refused] = await reversalsOf(invoice.id);
    expect(refused).toMatchObject({ state: 'refused', lastErrorCode: 'FEL_ANU003' });
    expect((await adjustmentsOf(integration.id)).map((entry) => [entry.amountCentavos, entry.id === refused!.refundEntryId])).toEqual([
      [-3_000, false],
      [3_000, true],
    ]);
    expect(await requestCreditNote(ADMIN, invoice.id, 'Reverso por nota de crédito')).toMatchObject({ ok: true, value: { created: true } });
    expect(await standingOf(invoice.id)).toBe('credit_note_pending');
    await settleAll();
    expect(await balanceOf(integration.id)).toBe(0);
    expect(await standingOf(invoice.id)).toBe('credited');
  });

  it('left unclear (the connection dropped after the void) is sent again with its identifier: one void', async () => {
    const { integration, invoice } = await certifiedInvoice('anular-sin-respuesta', 4_000);
    simulator.fel.setFaults([{ fault: 'drop_after_certify', operations: ['void'], times: 1 }]);
    expect(await requestVoid(ADMIN, invoice.id, 'Reverso')).toMatchObject({ ok: true });
    await settleAll();
    simulator.fel.setFaults([]);
    const [reversal] = await reversalsOf(invoice.id);
    expect(reversal).toMatchObject({ state: 'done' });
    expect(simulator.fel.voidCount(reversal!.identifier)).toBe(1);
    const calls = await (await db()).select().from(invoiceAttempts).where(eq(invoiceAttempts.invoiceId, invoice.id)).orderBy(asc(invoiceAttempts.id));
    expect(calls.filter((call) => call.call === 'void').map((call) => call.outcome)).toEqual(['indeterminate', 'voided']);
    expect(await balanceOf(integration.id)).toBe(0);
  });
});

describe('past SAT’s deadline', () => {
  it('a void is refused with the date; a credit note referencing the invoice moves the balance back once; then no void', async () => {
    const { integration, invoice } = await certifiedInvoice('anular-tarde', 7_500);
    const deadline = voidDeadlineOf(invoice.emittedAt);
    const dayAfter = startOfNextGuatemalanDay(deadline);
    expect(isVoidable(invoice.emittedAt, new Date(dayAfter.getTime() - 1))).toBe(true);
    expect(await requestVoid(ADMIN, invoice.id, 'Reverso', dayAfter)).toEqual({ ok: false, error: { code: 'past_deadline', why: 'past_deadline', deadline } });
    const [year, month, day] = deadline.split('-');
    expect(REVERSAL_MESSAGES.pastDeadline(deadline)).toContain(`venció el ${day}/${month}/${year}`);
    expect(await balanceOf(integration.id)).toBe(7_500);
    expect(await reversalsOf(invoice.id)).toEqual([]);

    // The certifier's answer to the credit note is lost once: settled by lookup, never certified twice.
    simulator.fel.setFaults([{ fault: 'drop_after_certify', times: 1 }]);
    const [first, second] = await Promise.all([requestCreditNote(ADMIN, invoice.id, 'Devolución de la recarga'), requestCreditNote(ADMIN, invoice.id, 'Devolución de la recarga')]);
    expect([first, second].map((result) => result.ok && result.value.created).sort()).toEqual([false, true]);
    await settleAll();
    simulator.fel.setFaults([]);
    expect(await balanceOf(integration.id)).toBe(0);
    const [note, ...others] = await reversalsOf(invoice.id);
    expect(others).toEqual([]);
    expect(note).toMatchObject({ kind: 'credit_note', state: 'done' });
    expect(simulator.fel.certificationCount(note!.identifier)).toBe(1);
    expect(simulator.fel.certification(note!.identifier)).toMatchObject({ type: 'NCRE', references: invoice.uuid, grandTotal: '75.00', uuid: note!.uuid });
    expect((await adjustmentsOf(integration.id)).map((entry) => entry.amountCentavos)).toEqual([-7_500]);
    const audits = await (await db()).select().from(auditLog).where(and(eq(auditLog.action, 'invoice.credit_note'), eq(auditLog.targetId, String(integration.id))));
    expect(audits.map((audit) => audit.actor)).toEqual([describeActor(ADMIN)]);

    // A void is refused while a credit note references the invoice (here, even inside the deadline).
    expect(await requestVoid(ADMIN, invoice.id, 'Reverso')).toEqual({ ok: false, error: { code: 'credit_note_exists', why: 'credit_note_exists' } });
    expect(await balanceOf(integration.id)).toBe(0);
  });
});

describe('an invoice’s standing', () => {
  it('is what the migration’s backfill derives from its reversals, pending ones included', async () => {
    // A void and a credit note still pending, beside the voided, refused-then-credited and credited ones above.
    const { invoice } = await certifiedInvoice('anular-pendiente', 1_500);
    const { invoice: noted } = await certifiedInvoice('nota-pendiente', 1_600);
    expect(await requestVoid(ADMIN, invoice.id, 'Reverso')).toMatchObject({ ok: true });
    expect(await requestCreditNote(ADMIN, noted.id, 'Reverso')).toMatchObject({ ok: true });
    const standings = async () => (await (await db()).select({ id: invoices.id, reversal: invoices.reversal }).from(invoices).orderBy(asc(invoices.id))).map((row) => [row.id, row.reversal]);
    const written = await standings();
    expect(new Set(written.map(([, reversal]) => reversal))).toEqual(new Set([null, 'voided', 'credited', 'void_pending', 'credit_note_pending']));

    // The migration's backfill, run again over the same reversals, gives the same standings.
    await (await db()).update(invoices).set({ reversal: null });
    const migrations = path.join(process.cwd(), 'db', 'migrations');
    const migration = fs.readFileSync(path.join(migrations, fs.readdirSync(migrations).find((name) => name.endsWith('_invoice_reversal_standing.sql'))!), 'utf8');
    const backfill = migration.split('--> statement-breakpoint').find((statement) => /update "invoices"/i.test(statement));
    if (!backfill) throw new Error('the migration has no backfill of invoices');
    await (await db()).execute(sql.raw(backfill));
    expect(await standings()).toEqual(written);
  });
});

describe('«Corregir receptor»', () => {
  const [EMPRESA] = FEL_SIM_RECEPTORS;

  async function namingTheCompany(integrationId: number): Promise<void> {
    const set = await setIntegrationReceptor(ADMIN, integrationId, { kind: 'nit', identifier: EMPRESA!.nit, shownName: EMPRESA!.name });
    expect(set).toMatchObject({ ok: true, value: { changed: true } });
  }

  it('in time: voids and reissues to the corrected receptor once, asked four times at once by two workers; the balance never moves', async () => {
    const { integration, invoice } = await certifiedInvoice('corregir-a-tiempo', 12_000);
    expect(invoice).toMatchObject({ receptorKind: 'cf' });
    // Nothing to correct while the integration names whom the invoice names.
    expect(await requestReceptorCorrection(ADMIN, invoice.id, 'NIT equivocado')).toEqual({ ok: false, error: { code: 'receptor_unchanged', why: 'receptor_unchanged' } });
    await namingTheCompany(integration.id);

    const asked = await Promise.all(Array.from({ length: 4 }, () => requestReceptorCorrection(ADMIN, invoice.id, 'Factura emitida a CF por error')));
    expect(asked.map((result) => result.ok && result.value.created).sort()).toEqual([false, false, false, true]);
    expect(await balanceOf(integration.id)).toBe(12_000);
    expect(await standingOf(invoice.id)).toBe('correction_pending');
    // No void nor credit note of the console while it is under way.
    expect(await requestVoid(ADMIN, invoice.id, 'Reverso')).toEqual({ ok: false, error: { code: 'already_voided', why: 'correction_under_way' } });

    await settleAll([worker('w-corrige-1'), worker('w-corrige-2')]);
    expect(await balanceOf(integration.id)).toBe(12_000);
    expect(await adjustmentsOf(integration.id)).toEqual([]);
    expect(await standingOf(invoice.id)).toBe('corrected');
    const [reversal, ...others] = await reversalsOf(invoice.id);
    expect(others).toEqual([]);
    expect(reversal).toMatchObject({ kind: 'void', state: 'done', ledgerEntryId: null, correctionReceptorKind: 'nit', correctionReceptorId: EMPRESA!.nit });
    expect(simulator.fel.voidCount(reversal!.identifier)).toBe(1);

    const sale = await (await db()).select().from(invoices).where(eq(invoices.ledgerEntryId, invoice.ledgerEntryId)).orderBy(asc(invoices.id));
    expect(sale.map((row) => row.id)).toEqual([invoice.id, reversal!.replacementInvoiceId]);
    const replacement = sale[1]!;
    expect(replacement).toMatchObject({ state: 'certified', correctsInvoiceId: invoice.id, receptorKind: 'nit', receptorId: EMPRESA!.nit, receptorName: EMPRESA!.name, totalCentavos: 12_000, reversal: null });
    expect(replacement.identifier).not.toBe(invoice.identifier);
    expect(simulator.fel.certificationCount(replacement.identifier)).toBe(1);
    expect(simulator.fel.certification(replacement.identifier)).toMatchObject({ grandTotal: '120.00' });

    // Asked again once done: the invoice was replaced; the replacement stands on its own.
    expect(await requestReceptorCorrection(ADMIN, invoice.id, 'Otra vez')).toMatchObject({ ok: true, value: { created: false } });
    expect(await requestVoid(ADMIN, invoice.id, 'Reverso')).toEqual({ ok: false, error: { code: 'already_voided', why: 'replaced' } });
    expect(await requestReceptorCorrection(ADMIN, replacement.id, 'Otra vez')).toMatchObject({ ok: false, error: { code: 'receptor_unchanged' } });
    const audits = await (await db()).select().from(auditLog).where(and(eq(auditLog.targetId, String(integration.id)), inArray(auditLog.action, ['invoice.correct_receptor', 'invoice.reissued'])));
    expect(audits.map((audit) => audit.action).sort()).toEqual(['invoice.correct_receptor', 'invoice.reissued']);
    expect(await booksFindings(await database(), integration.id)).toEqual([]);
    expect(await booksByMonth(await database(), { integrationId: integration.id })).toMatchObject([{ topUpsCentavos: 12_000, invoicedCentavos: 12_000, certifiedCentavos: 12_000, voidedCentavos: 0, creditedBackCentavos: 0 }]);
  });

  it('past the deadline: a credit note that references it, then the new invoice; refused by the certifier, the invoice stands and nothing moves', async () => {
    const { integration, invoice } = await certifiedInvoice('corregir-tarde', 9_000);
    await namingTheCompany(integration.id);
    const dayAfter = startOfNextGuatemalanDay(voidDeadlineOf(invoice.emittedAt));

    const real = certifierOf(env())!;
    const refusing: FelCertifier = { ...real, name: real.name, certify: async () => ({ kind: 'rejected', errors: [{ code: 'FEL_NCRE01', message: 'Documento de referencia inválido.' }] }) };
    expect(await requestReceptorCorrection(ADMIN, invoice.id, 'Receptor equivocado', dayAfter)).toMatchObject({ ok: true, value: { created: true, reversal: { kind: 'credit_note' } } });
    await settleAll([worker('w-rechaza', refusing)]);
    expect(await standingOf(invoice.id)).toBeNull();
    expect(await reversalsOf(invoice.id)).toMatchObject([{ state: 'refused', lastErrorCode: 'FEL_NCRE01' }]);
    expect(await balanceOf(integration.id)).toBe(9_000);
    expect(await adjustmentsOf(integration.id)).toEqual([]);

    const again = await requestReceptorCorrection(ADMIN, invoice.id, 'Receptor equivocado', dayAfter);
    expect(again).toMatchObject({ ok: true, value: { created: true, reversal: { kind: 'credit_note' } } });
    // The simulator's clock is today's: the credit note is dated now, as it would be on that later day.
    await (await db()).update(invoiceReversals).set({ requestedAt: new Date() }).where(eq(invoiceReversals.id, again.ok ? again.value.reversal.id : 0));
    await settleAll();
    const [, note] = await reversalsOf(invoice.id);
    expect(note).toMatchObject({ kind: 'credit_note', state: 'done' });
    expect(simulator.fel.certification(note!.identifier)).toMatchObject({ type: 'NCRE', references: invoice.uuid, grandTotal: '90.00' });
    const [replacement] = await (await db()).select().from(invoices).where(eq(invoices.correctsInvoiceId, invoice.id));
    expect(replacement).toMatchObject({ state: 'certified', receptorId: EMPRESA!.nit, totalCentavos: 9_000 });
    expect(await standingOf(invoice.id)).toBe('corrected');
    expect(await balanceOf(integration.id)).toBe(9_000);
    expect(await booksFindings(await database(), integration.id)).toEqual([]);
  });
});
