// Correcting deposit reports on a real database: the reporter (or an owner) cancels a pending
// report, audited, its reference freed and its slip kept; a cancellation racing an approval ends
// with exactly one of them (the conditional UPDATE against the approval's row lock, on
// PostgreSQL's connections); an administrator credits another amount than reported only with a
// note, and the ledger, the balance, the audit and the integrator's notice carry the approved
// amount and the note; the history lists every decision, the latest first, a page at a time.
import { and, desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/db/client';
import { alertDeliveries, auditLog, ledgerEntries, portalUsers, topUpRequests } from '@/db/schema';
import type { Actor } from '@/lib/core/audit/audit';
import { balanceAndLedgerSum } from '@/lib/core/billing/ledger';
import { verifyLedger } from '@/lib/core/billing/verify';
import { dayText } from '@/lib/platform/time/months';
import { setIntegrationDetails } from '@/lib/flows/integration-management/details-service';
import { createTestIntegration, TEST_ACTOR, type TestIntegration } from '@/tests/conformance/harness';
import { depositDaysAgo } from '@/tests/support/deposit-dates';
import { addPortalMember, portalSessionOf } from '@/tests/support/people';
import { useTestDatabase, type TestDatabase } from '@/tests/support/test-database';
import { approveTopUpRequest, cancelTopUpRequest, decidedTopUpPage, findTopUpSlip, rejectTopUpRequest, reportTopUp, TOP_UP_MESSAGES, type Reporter } from './requests';
import { subscribeReactions } from '@/lib/root/reactions';

const ADMIN: Actor = { kind: 'user', id: 9, email: 'admin@servicio.example' };
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);

let testDatabase: TestDatabase;
let integration: TestIntegration;
let other: TestIntegration;
let billing: Reporter;
let secondBilling: Reporter;
let owner: Reporter;
let otherOwner: Reporter;

async function person(of: TestIntegration, email: string, role: Reporter['role']): Promise<Reporter> {
  await addPortalMember(of, email, role);
  const [row] = await (await db()).select({ id: portalUsers.id }).from(portalUsers).where(eq(portalUsers.email, email));
  const session = portalSessionOf(of, role);
  return { id: row!.id, role, integrationId: of.id, actor: { ...session.actor, id: row!.id, email } };
}

beforeAll(async () => {
  // The approval emits; the integrator's notice checked here is what the reactions subscribed at start write.
  subscribeReactions();
  testDatabase = await useTestDatabase();
  integration = await createTestIntegration('correcciones-a', { balanceCentavos: 1_000 });
  other = await createTestIntegration('correcciones-b', { balanceCentavos: 1_000 });
  const details = await setIntegrationDetails(TEST_ACTOR, integration.id, { billingContactName: 'Fabio Facturas', billingContactEmail: 'pagos@correcciones-a.gt' });
  if (!details.ok) throw new Error(details.error.message);
  billing = await person(integration, 'pagos@correcciones-a.example', 'facturacion');
  secondBilling = await person(integration, 'caja@correcciones-a.example', 'facturacion');
  owner = await person(integration, 'duena@correcciones-a.example', 'propietario');
  otherOwner = await person(other, 'duena@correcciones-b.example', 'propietario');
});
afterAll(async () => {
  await testDatabase.cleanup();
});

const deposit = (reference: string, amountCentavos = 50_000) => ({ bank: 'BI', reference, depositDate: depositDaysAgo(7), amountCentavos });

async function reported(by: Reporter, reference: string, amountCentavos?: number, slip?: Uint8Array) {
  const result = await reportTopUp(by, { ...deposit(reference, amountCentavos), slip });
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

const requestRow = async (id: number) => (await (await db()).select().from(topUpRequests).where(eq(topUpRequests.id, id)))[0]!;
const auditOf = async (action: string) =>
  (await db()).select().from(auditLog).where(and(eq(auditLog.action, action), eq(auditLog.targetId, String(integration.id)))).orderBy(desc(auditLog.id));

describe('cancelling a pending report', () => {
  it('its reporter cancels it: audited, no money, the reference free again, the slip kept, and an approval afterwards finds it decided', async () => {
    const request = await reported(billing, 'CAN-1', 50_000, PNG);
    const before = await balanceAndLedgerSum(integration.id);
    const cancelled = await cancelTopUpRequest(billing, request.id);
    expect(cancelled).toMatchObject({ ok: true, value: { state: 'cancelled', decidedBy: expect.stringContaining(`integrator:${billing.id} `) } });
    expect((await requestRow(request.id)).decidedAt).toBeInstanceOf(Date);
    const [audit] = await auditOf('top_up_request.cancel');
    expect(audit).toMatchObject({ actor: expect.stringContaining('pagos@correcciones-a.example'), before: { requestId: request.id, state: 'pending' }, after: { requestId: request.id, state: 'cancelled' } });

    expect(await approveTopUpRequest(ADMIN, request.id)).toMatchObject({ ok: false, error: { code: 'decided', message: TOP_UP_MESSAGES.decided } });
    expect(await rejectTopUpRequest(ADMIN, request.id, 'Ya no corresponde.')).toMatchObject({ ok: false, error: { code: 'decided' } });
    expect(await cancelTopUpRequest(billing, request.id)).toMatchObject({ ok: false, error: { code: 'decided', message: TOP_UP_MESSAGES.notPending } });
    expect(await balanceAndLedgerSum(integration.id)).toEqual(before);
    expect((await requestRow(request.id)).state).toBe('cancelled');
    // As a rejected report's: the slip stays with the request, and the reference may be reported again, corrected.
    expect(Buffer.from((await findTopUpSlip(request.id, integration.id))!.content)).toEqual(Buffer.from(PNG));
    expect((await reportTopUp(billing, deposit('CAN 1', 45_000))).ok).toBe(true);
  });

  it('another billing person may not cancel it, an owner of the integration may, and another integration’s owner finds no such request', async () => {
    const request = await reported(billing, 'CAN-2');
    expect(await cancelTopUpRequest(secondBilling, request.id)).toMatchObject({ ok: false, error: { code: 'forbidden', message: TOP_UP_MESSAGES.notYours } });
    expect(await cancelTopUpRequest(otherOwner, request.id)).toMatchObject({ ok: false, error: { code: 'not_found', message: TOP_UP_MESSAGES.notFound } });
    expect(await cancelTopUpRequest(otherOwner, 999_999)).toMatchObject({ ok: false, error: { code: 'not_found', message: TOP_UP_MESSAGES.notFound } });
    expect((await requestRow(request.id)).state).toBe('pending');
    expect(await cancelTopUpRequest(owner, request.id)).toMatchObject({ ok: true, value: { state: 'cancelled', decidedBy: expect.stringContaining('duena@correcciones-a.example') } });
  });

  it('a developer cancels nothing', async () => {
    const request = await reported(billing, 'CAN-3');
    expect(await cancelTopUpRequest({ ...billing, role: 'desarrollador' }, request.id)).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect((await requestRow(request.id)).state).toBe('pending');
  });

  it('racing an approval, ends with exactly one of them, every time, and the ledger reconciles', async () => {
    const outcomes = { approved: 0, cancelled: 0 };
    for (let round = 0; round < 12; round++) {
      const request = await reported(billing, `CARRERA-${round}`, 1_000 + round);
      const before = await balanceAndLedgerSum(integration.id);
      // Half the rounds start the cancellation first, half the approval.
      const [approval, cancellation] =
        round % 2 === 0
          ? await Promise.all([approveTopUpRequest(ADMIN, request.id), cancelTopUpRequest(billing, request.id)])
          : (await Promise.all([cancelTopUpRequest(billing, request.id), approveTopUpRequest(ADMIN, request.id)])).reverse() as [Awaited<ReturnType<typeof approveTopUpRequest>>, Awaited<ReturnType<typeof cancelTopUpRequest>>];
      expect([approval.ok, cancellation.ok].filter(Boolean), `round ${round}`).toHaveLength(1);
      const row = await requestRow(request.id);
      const after = await balanceAndLedgerSum(integration.id);
      if (approval.ok) {
        outcomes.approved++;
        expect(row.state).toBe('approved');
        expect(cancellation).toMatchObject({ ok: false, error: { code: 'decided', message: TOP_UP_MESSAGES.notPending } });
        expect(after.balanceCentavos).toBe(before.balanceCentavos + 1_000 + round);
      } else {
        outcomes.cancelled++;
        expect(row.state).toBe('cancelled');
        expect(approval).toMatchObject({ ok: false, error: { code: 'decided', message: TOP_UP_MESSAGES.decided } });
        expect(after).toEqual(before);
      }
    }
    expect(outcomes.approved + outcomes.cancelled).toBe(12);
    expect((await verifyLedger({ trigger: 'cli', sweepAfterSeconds: 60 })).ok).toBe(true);
  });
});

describe('approving another amount than reported', () => {
  it('needs a note, and moves nothing without it', async () => {
    const request = await reported(billing, 'MONTO-1', 125_050);
    const before = await balanceAndLedgerSum(integration.id);
    for (const note of [undefined, '', '   ', 'ok']) {
      const refused = await approveTopUpRequest(ADMIN, request.id, { amountCentavos: 120_000, note });
      expect(refused, String(note)).toMatchObject({ ok: false, error: { code: 'invalid' }, fieldErrors: { nota: expect.any(String) } });
    }
    expect(await approveTopUpRequest(ADMIN, request.id, { amountCentavos: 0, note: 'Comisión bancaria' })).toMatchObject({ ok: false, error: { code: 'invalid' }, fieldErrors: { monto: expect.any(String) } });
    expect(await approveTopUpRequest(ADMIN, request.id, { amountCentavos: 120_000, note: 'x'.repeat(301) })).toMatchObject({ ok: false, error: { message: TOP_UP_MESSAGES.approvalNote } });
    expect(await balanceAndLedgerSum(integration.id)).toEqual(before);
    expect((await requestRow(request.id)).state).toBe('pending');
  });

  it('credits the approved amount with the note: ledger, balance, request, audit and the integrator’s notice carry both', async () => {
    const request = await reported(billing, 'MONTO-2', 125_050);
    const before = await balanceAndLedgerSum(integration.id);
    const approved = await approveTopUpRequest(ADMIN, request.id, { amountCentavos: 120_000, note: 'El banco acreditó Q 1,200.00: comisión de transferencia' });
    expect(approved).toMatchObject({ ok: true, value: { balanceCentavos: before.balanceCentavos + 120_000 } });
    expect(await balanceAndLedgerSum(integration.id)).toEqual({ balanceCentavos: before.balanceCentavos + 120_000, ledgerSumCentavos: before.balanceCentavos + 120_000 });
    const row = await requestRow(request.id);
    expect(row).toMatchObject({ state: 'approved', amountCentavos: 125_050, approvedAmountCentavos: 120_000, approvalNote: 'El banco acreditó Q 1,200.00: comisión de transferencia' });
    const [entry] = await (await db()).select().from(ledgerEntries).where(eq(ledgerEntries.id, row.ledgerEntryId!));
    expect(entry).toMatchObject({ kind: 'top_up', amountCentavos: 120_000 });
    expect(entry!.note).toBe(
      `Depósito Banco Industrial, referencia MONTO-2, del ${dayText(request.depositDate)}; reportado Q 1,250.50, acreditado Q 1,200.00: El banco acreditó Q 1,200.00: comisión de transferencia`,
    );
    const [audit] = await auditOf('top_up_request.approve');
    expect(audit!.after).toMatchObject({ requestId: request.id, amountCentavos: 120_000, reportedAmountCentavos: 125_050, note: 'El banco acreditó Q 1,200.00: comisión de transferencia' });
    const notices = await (await db()).select().from(alertDeliveries).where(and(eq(alertDeliveries.integrationId, integration.id), eq(alertDeliveries.condition, 'top_up_approved')));
    const notice = notices.map((delivery) => JSON.parse(delivery.payload) as { mensaje: string; datos: Record<string, unknown> }).find((payload) => payload.datos.solicitud_id === request.id);
    expect(notice?.mensaje).toContain('Acreditamos Q 1,200.00');
    expect(notice?.mensaje).toContain('Se había reportado Q 1,250.50.');
    expect(notice?.mensaje).toContain('Nota de la administración: El banco acreditó Q 1,200.00: comisión de transferencia.');
    expect(notice?.datos).toMatchObject({ monto_centavos: 120_000, monto_reportado_centavos: 125_050, nota: 'El banco acreditó Q 1,200.00: comisión de transferencia' });
    // Still once: a second approval finds it decided and credits nothing more.
    expect(await approveTopUpRequest(ADMIN, request.id, { amountCentavos: 120_000, note: 'Otra vez' })).toMatchObject({ ok: false, error: { code: 'decided' } });
    expect((await verifyLedger({ trigger: 'cli', sweepAfterSeconds: 60 })).ok).toBe(true);
  });

  it('the reported amount typed as it is needs no note, and credits it', async () => {
    const request = await reported(billing, 'MONTO-3', 7_500);
    expect(await approveTopUpRequest(ADMIN, request.id, { amountCentavos: 7_500 })).toMatchObject({ ok: true });
    expect(await requestRow(request.id)).toMatchObject({ approvedAmountCentavos: 7_500, approvalNote: null });
  });
});

describe('the history of decided requests', () => {
  it('lists approved, rejected and cancelled ones, the latest decision first, each once across pages, never a pending one', async () => {
    const pending = await reported(billing, 'HIST-PEND');
    const rejected = await reported(billing, 'HIST-REJ');
    expect((await rejectTopUpRequest(ADMIN, rejected.id, 'No aparece en el banco.')).ok).toBe(true);
    const seen: number[] = [];
    let pages = 0;
    for (let after: string | undefined; ; pages++) {
      const page = await decidedTopUpPage(after, 3);
      seen.push(...page.rows.map((row) => row.id));
      for (const row of page.rows) expect(row.state).not.toBe('pending');
      if (!page.next) break;
      after = page.next;
    }
    expect(seen).not.toContain(pending.id);
    expect(new Set(seen).size).toBe(seen.length);
    // Every decided request, in PostgreSQL's order of its microseconds.
    const expected = await (await db())
      .select({ id: topUpRequests.id })
      .from(topUpRequests)
      .where(sql`${topUpRequests.decidedAt} is not null`)
      .orderBy(desc(topUpRequests.decidedAt), desc(topUpRequests.id));
    expect(seen).toEqual(expected.map((row) => row.id));
    expect(seen[0]).toBe(rejected.id);
    expect(pages).toBeGreaterThan(3);
    const [first] = (await decidedTopUpPage(undefined, 1)).rows;
    expect(first).toMatchObject({ state: 'rejected', decidedBy: 'user:9 admin@servicio.example', integrationName: 'correcciones-a', reporterEmail: 'pagos@correcciones-a.example' });
  });
});
