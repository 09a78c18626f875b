// FEL invoices of credited top-ups, on a real database and against the certifier simulator: a
// console top-up and an approved deposit each end with one certified invoice whose numbers are the
// simulator's; under each of the simulator's faults every top-up gets exactly one certification;
// adjustments are not invoiced; CF from Q 2,500.00 is refused before anything is credited; two
// workers never certify one invoice twice.
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/db/client';
import { integrations, invoiceAttempts, invoices, ledgerEntries, portalUsers, type Invoice } from '@/db/schema';
import type { Actor } from '@/lib/core/audit/audit';
import { adjustBalance, balanceAndLedgerSum, topUp } from '@/lib/core/billing/ledger';
import { saleAwaitsReceptor, type SaleAwaitingReceptor } from '@/lib/core/billing/events';
import { createIntegration } from '@/lib/flows/integration-management/service';
import { allSettings as env } from '@/lib/root/settings';
import { approveTopUpRequest, reportTopUp, type Reporter } from '@/lib/flows/top-ups/requests';
import { createTestIntegration, type TestIntegration } from '@/tests/conformance/harness';
import { depositDaysAgo } from '@/tests/support/deposit-dates';
import { addPortalMember, portalSessionOf } from '@/tests/support/people';
import { resetEnvCache, useTestDatabase, type TestDatabase } from '@/tests/support/test-database';
import { startSimulator, type RunningSimulator } from '../../../simulator/server';
import type { FelFault } from '../../../simulator/fel';
import { certifierCredentialsRefused } from './events';
import { invoicesInQueue } from './queue';
import { certifierOf, issuerOf } from './settings';
import { createInvoiceWorker, type InvoiceWorker } from './worker';

const ADMIN: Actor = { kind: 'user', id: 9, email: 'admin@servicio.example' };

let testDatabase: TestDatabase;
let simulator: RunningSimulator;
let integration: TestIntegration;
let billing: Reporter;

function worker(name: string): InvoiceWorker {
  const settings = env();
  return createInvoiceWorker({
    certifier: certifierOf(settings)!,
    issuer: issuerOf(settings)!,
    name,
    backoffBaseMs: 20,
    backoffCeilingMs: 200,
    credentialsPauseMs: 200,
    leaseSeconds: 30,
  });
}

/** Runs the workers until no invoice is pending or indeterminate. */
async function settleAll(workers: InvoiceWorker[], timeoutMs = 25_000): Promise<void> {
  const ends = Date.now() + timeoutMs;
  while ((await invoicesInQueue()) > 0) {
    if (Date.now() > ends) throw new Error('invoices still in the queue');
    await Promise.all(workers.map((each) => each.runOnce()));
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function invoiceOf(ledgerEntryId: number): Promise<Invoice[]> {
  return (await db()).select().from(invoices).where(eq(invoices.ledgerEntryId, ledgerEntryId));
}

async function topUpOf(amountCentavos: number, target = integration): Promise<number> {
  const result = await topUp(ADMIN, target.id, amountCentavos, 'Depósito de prueba');
  if (!result.ok) throw new Error(result.error.message);
  return result.value.entry.id;
}

function expectCertifiedOnce(invoice: Invoice): void {
  expect(invoice.state).toBe('certified');
  expect(simulator.fel.certificationCount(invoice.identifier)).toBe(1);
  const certification = simulator.fel.certification(invoice.identifier)!;
  expect({ uuid: invoice.uuid, serie: invoice.serie, numero: invoice.numero }).toEqual({ uuid: certification.uuid, serie: certification.serie, numero: certification.numero });
}

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  simulator = await startSimulator({ port: 0 });
  Object.assign(process.env, {
    FEL_ENABLED: 'true',
    FEL_CERTIFIER_BASE_URL: `${simulator.url}/fel`,
    FEL_NIT_LOOKUP_BASE_URL: `${simulator.url}/fel/receptores`,
    // Past this a certify call counts as indeterminate (the latency fault waits longer).
    FEL_CERTIFY_TIMEOUT_MS: '1000',
  });
  resetEnvCache();
  integration = await createTestIntegration('facturas-a', { balanceCentavos: 0 });
  await addPortalMember(integration, 'pagos@facturas-a.example', 'facturacion');
  const [row] = await (await db()).select({ id: portalUsers.id }).from(portalUsers).where(eq(portalUsers.email, 'pagos@facturas-a.example'));
  const session = portalSessionOf(integration, 'facturacion');
  billing = { id: row!.id, role: 'facturacion', integrationId: integration.id, actor: { ...session.actor, id: row!.id, email: 'pagos@facturas-a.example' } };
});
afterAll(async () => {
  await simulator?.close();
  await testDatabase?.cleanup();
});

describe('a credited top-up', () => {
  it('from the console queues one invoice, certified once with the simulator’s numbers and IVA included', async () => {
    const entryId = await topUpOf(11_200);
    const [queued, ...others] = await invoiceOf(entryId);
    expect(others).toEqual([]);
    expect(queued).toMatchObject({ state: 'pending', documentType: 'FACT', totalCentavos: 11_200, taxableCentavos: 10_000, taxCentavos: 1_200, receptorKind: 'cf', receptorId: 'CF', receptorName: null });
    expect(queued!.identifier).toMatch(/^[0-9a-f-]{36}$/);
    await settleAll([worker('w1')]);
    const [invoice] = await invoiceOf(entryId);
    expectCertifiedOnce(invoice!);
    // Fixed at creation, never changed by the worker.
    expect(invoice!.identifier).toBe(queued!.identifier);
    expect(invoice!.emittedAt).toEqual(queued!.emittedAt);
    expect(invoice!.certifiedXml).toContain('Certificacion');
    const attempts = await (await db()).select().from(invoiceAttempts).where(eq(invoiceAttempts.invoiceId, invoice!.id));
    expect(attempts.map((attempt) => [attempt.call, attempt.outcome])).toEqual([['certify', 'certified']]);
  });

  it('from an approved deposit queues one invoice, certified once', async () => {
    const reported = await reportTopUp(billing, { bank: 'BI', reference: 'FEL-1', depositDate: depositDaysAgo(2), amountCentavos: 50_000 });
    if (!reported.ok) throw new Error(reported.error.message);
    const approved = await approveTopUpRequest(ADMIN, reported.value.id);
    if (!approved.ok) throw new Error(approved.error.message);
    const [invoice] = await invoiceOf(approved.value.request.ledgerEntryId!);
    expect(invoice).toMatchObject({ state: 'pending', totalCentavos: 50_000, taxableCentavos: 44_643, taxCentavos: 5_357 });
    await settleAll([worker('w1')]);
    expectCertifiedOnce((await invoiceOf(approved.value.request.ledgerEntryId!))[0]!);
  });

  it("names the integration's receptor; a name SAT does not have is left to correct with the certifier's message", async () => {
    const named = await createTestIntegration('facturas-nit', { balanceCentavos: 0 });
    await (await db()).update(integrations).set({ receptorKind: 'nit', receptorId: '910000018', receptorName: 'Empresa de Prueba FEL, Sociedad Anonima' }).where(eq(integrations.id, named.id));
    const entryId = await topUpOf(300_000, named);
    await (await db()).update(integrations).set({ receptorKind: 'nit', receptorId: '910000026', receptorName: 'Otro Nombre' }).where(eq(integrations.id, named.id));
    const wrongEntryId = await topUpOf(1_000, named);
    await settleAll([worker('w1')]);
    const [invoice] = await invoiceOf(entryId);
    expect(invoice).toMatchObject({ receptorKind: 'nit', receptorId: '910000018' });
    expectCertifiedOnce(invoice!);
    const [wrong] = await invoiceOf(wrongEntryId);
    expect(wrong).toMatchObject({ state: 'to_correct', lastErrorCode: 'FEL_RCP004' });
    expect(wrong!.lastErrorMessage).toMatch(/FEL_RCP004/);
    expect(simulator.fel.certificationCount(wrong!.identifier)).toBe(0);
  });
});

describe('under the certifier’s faults', () => {
  const faults: Array<[string, FelFault]> = [
    ['latency beyond the time-out', { fault: 'latency', times: 1, delayMs: 2_500 }],
    ['certify, then drop the connection', { fault: 'drop_after_certify', times: 1 }],
    ['an HTML 500', { fault: 'html_500', times: 1 }],
    ['invalid JSON after certifying', { fault: 'invalid_json', times: 1 }],
    ['FEL_GEN104 (resend)', { fault: 'retryable', times: 2 }],
    ['the daily quota', { fault: 'daily_quota', times: 1 }],
  ];
  for (const [label, fault] of faults) {
    it(`certifies each top-up exactly once: ${label}`, async () => {
      simulator.fel.setFaults([fault]);
      const entries = [await topUpOf(5_000), await topUpOf(7_500)];
      await settleAll([worker('w1')]);
      for (const entryId of entries) expectCertifiedOnce((await invoiceOf(entryId))[0]!);
      simulator.fel.setFaults([]);
    });
  }

  it('stops the queue on wrong credentials, tells whoever listens, and certifies once they are fixed', async () => {
    const told: string[] = [];
    const unsubscribe = certifierCredentialsRefused.subscribe((event) => void told.push(event.certifier));
    simulator.fel.setFaults([{ fault: 'wrong_credentials', times: 1 }]);
    const entries = [await topUpOf(5_000), await topUpOf(6_000)];
    const one = worker('w1');
    await one.runOnce();
    expect(one.pausedUntil()).not.toBeNull();
    expect(told).toEqual(['infile']);
    // The second was not sent while the queue was stopped.
    const attempts = await (await db()).select().from(invoiceAttempts).orderBy(asc(invoiceAttempts.id));
    expect(attempts.filter((attempt) => attempt.outcome === 'credentials_refused')).toHaveLength(1);
    await settleAll([one]);
    for (const entryId of entries) expectCertifiedOnce((await invoiceOf(entryId))[0]!);
    unsubscribe();
  });

  it('settles an indeterminate invoice by lookup before sending anything again', async () => {
    simulator.fel.setFaults([{ fault: 'drop_after_certify', times: 1 }]);
    const entryId = await topUpOf(8_000);
    await settleAll([worker('w1')]);
    const [invoice] = await invoiceOf(entryId);
    expectCertifiedOnce(invoice!);
    const attempts = await (await db()).select().from(invoiceAttempts).where(eq(invoiceAttempts.invoiceId, invoice!.id)).orderBy(asc(invoiceAttempts.id));
    expect(attempts.map((attempt) => [attempt.call, attempt.outcome])).toEqual([
      ['certify', 'indeterminate'],
      ['lookup', 'found'],
    ]);
  });
});

describe('a worker that dies mid-certification', () => {
  it('leaves the invoice to be settled by lookup once its lease runs out, never certified twice', async () => {
    const settings = env();
    const real = certifierOf(settings)!;
    // Sends, then dies before it can write the answer (as a kill -9 would).
    const dying = createInvoiceWorker({
      certifier: { ...real, name: real.name, certify: async (document, identifier) => {
        await real.certify(document, identifier);
        throw new Error('killed');
      } },
      issuer: issuerOf(settings)!,
      name: 'dying',
      leaseSeconds: 1,
    });
    const entryId = await topUpOf(9_000);
    await dying.runOnce();
    const [left] = await invoiceOf(entryId);
    expect(left).toMatchObject({ state: 'indeterminate', leaseHolder: expect.stringMatching(/^dying\//) });
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await settleAll([worker('w1')]);
    const [invoice] = await invoiceOf(entryId);
    expectCertifiedOnce(invoice!);
    const attempts = await (await db()).select().from(invoiceAttempts).where(eq(invoiceAttempts.invoiceId, invoice!.id)).orderBy(asc(invoiceAttempts.id));
    expect(attempts.map((attempt) => [attempt.call, attempt.outcome])).toEqual([['lookup', 'found']]);
  });
});

describe('what is not invoiced', () => {
  it('an adjustment makes no invoice', async () => {
    const adjusted = await adjustBalance(ADMIN, integration.id, 1_000, 'Corrección de prueba');
    if (!adjusted.ok) throw new Error(adjusted.error.message);
    expect(await invoiceOf(adjusted.value.entry.id)).toEqual([]);
  });

  it('credits a CF top-up of Q 2,500.00 at once, from the console and on approval, its invoice waiting for the NIT and never sent (issue 64, point 2)', async () => {
    const told: SaleAwaitingReceptor[] = [];
    const stop = saleAwaitsReceptor.subscribe((sale) => void told.push(sale));
    try {
      const before = await balanceAndLedgerSum(integration.id);
      const credited = await topUp(ADMIN, integration.id, 250_000, 'Depósito grande');
      expect(credited).toMatchObject({ ok: true, value: { invoiceAwaitsReceptor: true } });
      const reported = await reportTopUp(billing, { bank: 'BI', reference: 'FEL-GRANDE', depositDate: depositDaysAgo(1), amountCentavos: 300_000 });
      if (!reported.ok) throw new Error(reported.error.message);
      expect(await approveTopUpRequest(ADMIN, reported.value.id)).toMatchObject({ ok: true, value: { invoiceAwaitsReceptor: true } });
      expect(await balanceAndLedgerSum(integration.id)).toEqual({ balanceCentavos: before.balanceCentavos + 550_000, ledgerSumCentavos: before.ledgerSumCentavos + 550_000 });
      const waiting = (await (await db()).select().from(invoices).where(eq(invoices.integrationId, integration.id))).filter((invoice) => invoice.state === 'awaiting_receptor');
      expect(waiting.map((invoice) => invoice.totalCentavos).sort()).toEqual([250_000, 300_000]);
      expect(told.map((sale) => sale.amountCentavos).sort()).toEqual([250_000, 300_000]);
      // Just under the limit is invoiced to CF.
      expect((await invoiceOf(await topUpOf(249_999)))[0]).toMatchObject({ receptorKind: 'cf', state: 'pending' });
      await settleAll([worker('w1')]);
      // The worker never sends one that waits for its receptor.
      for (const invoice of waiting) {
        expect((await invoiceOf(invoice.ledgerEntryId))[0]!.state).toBe('awaiting_receptor');
        expect(simulator.fel.certification(invoice.identifier)).toBeUndefined();
      }
    } finally {
      stop();
    }
  });
});

describe('an initial balance', () => {
  it('is a sale: invoiced like a top-up; to CF from Q 2,500.00 its invoice waits for the NIT', async () => {
    const large = await createIntegration(ADMIN, { nombre: 'saldo-inicial-grande', initialBalanceCentavos: 250_000 });
    if (!large.ok) throw new Error(large.error.message);
    const [largeEntry] = await (await db()).select().from(ledgerEntries).where(eq(ledgerEntries.integrationId, large.value.integration.id));
    expect((await invoiceOf(largeEntry!.id))[0]).toMatchObject({ totalCentavos: 250_000, state: 'awaiting_receptor' });

    const created = await createIntegration(ADMIN, { nombre: 'saldo-inicial', initialBalanceCentavos: 10_000 });
    if (!created.ok) throw new Error(created.error.message);
    const [entry] = await (await db()).select().from(ledgerEntries).where(eq(ledgerEntries.integrationId, created.value.integration.id));
    const [invoice] = await invoiceOf(entry!.id);
    expect(invoice).toMatchObject({ totalCentavos: 10_000, receptorKind: 'cf' });
    await settleAll([worker('w1')]);
    expectCertifiedOnce((await invoiceOf(entry!.id))[0]!);
  });
});

describe('two workers', () => {
  it('never certify the same invoice twice', async () => {
    const entries: number[] = [];
    for (let index = 0; index < 12; index += 1) entries.push(await topUpOf(1_000 + index));
    await settleAll([worker('w1'), worker('w2')]);
    const rows = await (await db()).select().from(invoiceAttempts);
    const holders = new Set<string>();
    for (const entryId of entries) {
      const [invoice] = await invoiceOf(entryId);
      expectCertifiedOnce(invoice!);
      const sent = rows.filter((attempt) => attempt.invoiceId === invoice!.id && attempt.call === 'certify');
      expect(sent).toHaveLength(1);
      holders.add(sent[0]!.holder);
    }
    // Both took a share, each invoice its own.
    expect([...holders].sort()).toEqual(['w1', 'w2']);
  });
});
