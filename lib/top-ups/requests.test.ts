// Top-up requests on a real database (issue 34, point 3): a report moves no money, the same bank
// reference is refused while pending or approved, ten approvals at once credit once and the ledger
// reconciles, a rejection needs a reason and moves nothing, and a developer reports nothing.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/db/client';
import { ledgerEntries, portalUsers } from '@/db/schema';
import type { Actor } from '@/lib/audit/audit';
import { balanceAndLedgerSum } from '@/lib/billing/ledger';
import { verifyLedger } from '@/lib/billing/verify';
import { createTestIntegration, type TestIntegration } from '@/tests/conformance/harness';
import { addPortalMember, portalSessionOf } from '@/tests/support/people';
import { useTestDatabase, type TestDatabase } from '@/tests/support/test-database';
import {
  approveTopUpRequest,
  findTopUpSlip,
  integrationTopUpPage,
  normalizeReference,
  pendingTopUpCount,
  pendingTopUpPage,
  rejectTopUpRequest,
  reportTopUp,
  TOP_UP_MESSAGES,
  type Reporter,
} from './requests';
import { SLIP_MESSAGES } from './slips';

const ADMIN: Actor = { kind: 'user', id: 9, email: 'admin@servicio.example' };
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);

let testDatabase: TestDatabase;
let integration: TestIntegration;
let billing: Reporter;
let developer: Reporter;

async function reporter(email: string, role: 'facturacion' | 'desarrollador'): Promise<Reporter> {
  await addPortalMember(integration, email, role);
  const [row] = await (await db()).select({ id: portalUsers.id }).from(portalUsers).where(eq(portalUsers.email, email));
  const session = portalSessionOf(integration, role);
  return { id: row!.id, role, integrationId: integration.id, actor: { ...session.actor, id: row!.id, email } };
}

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  integration = await createTestIntegration('recargas-a', { balanceCentavos: 1_000 });
  billing = await reporter('pagos@recargas-a.example', 'facturacion');
  developer = await reporter('dev@recargas-a.example', 'desarrollador');
});
afterAll(async () => {
  await testDatabase.cleanup();
});

const deposit = (reference: string, amountCentavos = 50_000) => ({ bank: 'BI', reference, depositDate: '2026-11-20', amountCentavos });

describe('reporting a deposit', () => {
  it('keeps it pending with its slip, and moves no money', async () => {
    const reported = await reportTopUp(billing, { ...deposit(' 77 1234-5 '), slip: PNG });
    expect(reported.ok).toBe(true);
    if (!reported.ok) return;
    expect(reported.value).toMatchObject({ state: 'pending', reference: '77 1234-5', normalizedReference: '771234-5', amountCentavos: 50_000 });
    expect(await findTopUpSlip(reported.value.id, integration.id)).toMatchObject({ contentType: 'image/png' });
    expect(Buffer.from((await findTopUpSlip(reported.value.id))!.content)).toEqual(Buffer.from(PNG));
    expect(await balanceAndLedgerSum(integration.id)).toEqual({ balanceCentavos: 1_000, ledgerSumCentavos: 1_000 });
    expect(await pendingTopUpCount()).toBe(1);
  });

  it('refuses the same bank and reference, however it is spaced or cased, while one is pending', async () => {
    const again = await reportTopUp(billing, deposit('771234-5'));
    expect(again).toMatchObject({ ok: false, error: { code: 'duplicate', message: TOP_UP_MESSAGES.duplicate } });
    // Another bank's reference of the same digits is another deposit.
    expect((await reportTopUp(billing, { ...deposit('771234-5'), bank: 'BANRURAL' })).ok).toBe(true);
  });

  it('refuses a slip that only claims to be an image, one too large, and a developer', async () => {
    const html = new TextEncoder().encode('<html><script>alert(1)</script></html>');
    expect(await reportTopUp(billing, { ...deposit('X-1'), slip: html })).toMatchObject({ ok: false, error: { message: SLIP_MESSAGES.wrongType } });
    const large = new Uint8Array(5 * 1024 * 1024 + 1);
    large.set(PNG);
    expect(await reportTopUp(billing, { ...deposit('X-2'), slip: large })).toMatchObject({ ok: false, error: { message: SLIP_MESSAGES.tooLarge } });
    expect(await reportTopUp(developer, deposit('X-3'))).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect((await integrationTopUpPage(integration.id)).rows.map((request) => request.normalizedReference)).not.toContain('X-3');
  });

  it('normalizes references', () => {
    expect(normalizeReference('  ab 12\t34 ')).toBe('AB1234');
  });
});

describe('deciding a request', () => {
  it('credits an approval once when ten approvals race, with the bank and reference in the note, and the ledger reconciles', async () => {
    const reported = await reportTopUp(billing, deposit('RACE-10', 12_345));
    if (!reported.ok) throw new Error(reported.error.message);
    const before = await balanceAndLedgerSum(integration.id);

    const answers = await Promise.all(Array.from({ length: 10 }, () => approveTopUpRequest(ADMIN, reported.value.id)));
    expect(answers.filter((answer) => answer.ok)).toHaveLength(1);
    expect(answers.filter((answer) => !answer.ok).map((answer) => !answer.ok && answer.error.message)).toEqual(Array(9).fill(TOP_UP_MESSAGES.decided));

    expect(await balanceAndLedgerSum(integration.id)).toEqual({ balanceCentavos: before.balanceCentavos + 12_345, ledgerSumCentavos: before.balanceCentavos + 12_345 });
    const [approved] = (await integrationTopUpPage(integration.id)).rows.filter((request) => request.id === reported.value.id);
    expect(approved).toMatchObject({ state: 'approved', decidedBy: 'user:9 admin@servicio.example' });
    const [entry] = await (await db()).select().from(ledgerEntries).where(eq(ledgerEntries.id, approved!.ledgerEntryId!));
    expect(entry).toMatchObject({ kind: 'top_up', amountCentavos: 12_345 });
    expect(entry!.note).toContain('Banco Industrial');
    expect(entry!.note).toContain('RACE-10');

    // Approved, the reference stays taken.
    expect(await reportTopUp(billing, deposit('race-10'))).toMatchObject({ ok: false, error: { code: 'duplicate' } });
    const run = await verifyLedger({ trigger: 'cli', sweepAfterSeconds: 60 });
    expect(run.ok).toBe(true);
  });

  it('rejects only with a reason, moves no money, and frees the reference for a corrected report', async () => {
    const reported = await reportTopUp(billing, deposit('REJ-1'));
    if (!reported.ok) throw new Error(reported.error.message);
    const before = await balanceAndLedgerSum(integration.id);
    expect(await rejectTopUpRequest(ADMIN, reported.value.id, '  ')).toMatchObject({ ok: false, error: { message: TOP_UP_MESSAGES.reason } });
    const rejected = await rejectTopUpRequest(ADMIN, reported.value.id, 'La boleta no corresponde a una cuenta del servicio.');
    expect(rejected).toMatchObject({ ok: true, value: { state: 'rejected', reason: 'La boleta no corresponde a una cuenta del servicio.' } });
    expect(await approveTopUpRequest(ADMIN, reported.value.id)).toMatchObject({ ok: false, error: { code: 'decided' } });
    expect(await balanceAndLedgerSum(integration.id)).toEqual(before);
    expect((await reportTopUp(billing, deposit('REJ-1'))).ok).toBe(true);
  });

  it('answers an unknown request as unknown', async () => {
    expect(await approveTopUpRequest(ADMIN, 999_999)).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await rejectTopUpRequest(ADMIN, 999_999, 'Motivo suficiente')).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });
});

describe('the lists of requests', () => {
  it('page an integration\'s requests newest first and the pending ones oldest first, each request once', async () => {
    const references = ['PAG-1', 'PAG-2', 'PAG-3', 'PAG-4', 'PAG-5'];
    for (const reference of references) expect((await reportTopUp(billing, deposit(reference))).ok).toBe(true);
    const walk = async (pageOf: (after: string | undefined) => ReturnType<typeof pendingTopUpPage>) => {
      const seen: string[] = [];
      const ids: number[] = [];
      let pages = 0;
      for (let after: string | undefined; ; ) {
        const page = await pageOf(after);
        pages++;
        seen.push(...page.rows.map((request) => request.normalizedReference));
        ids.push(...page.rows.map((request) => request.id));
        if (!page.next) return { seen, ids, pages };
        after = page.next;
      }
    };
    const newestFirst = await walk((after) => integrationTopUpPage(integration.id, after, 2));
    expect(newestFirst.seen.filter((reference) => reference.startsWith('PAG')).slice(0, 5)).toEqual(['PAG-5', 'PAG-4', 'PAG-3', 'PAG-2', 'PAG-1']);
    expect(new Set(newestFirst.ids).size).toBe(newestFirst.ids.length);
    expect(newestFirst.pages).toBe(Math.ceil(newestFirst.seen.length / 2));
    const oldestFirst = await walk((after) => pendingTopUpPage(after, 2));
    expect(oldestFirst.seen.filter((reference) => reference.startsWith('PAG'))).toEqual(['PAG-1', 'PAG-2', 'PAG-3', 'PAG-4', 'PAG-5']);
    expect(oldestFirst.seen).toHaveLength(await pendingTopUpCount());
    expect(new Set(oldestFirst.ids).size).toBe(oldestFirst.ids.length);
  });
});
