// Top-up requests on a real database (issue 34, point 3): a report moves no money, the same bank
// reference is refused while pending or approved, ten approvals at once credit once and the ledger
// reconciles, a rejection needs a reason and moves nothing, and a developer reports nothing. A
// reference is its letters and digits (punctuation, spaces, case and accents aside), keyed by
// PostgreSQL itself; a deposit older than the operator's window, or in the future, is refused.
import fc from 'fast-check';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/db/client';
import { ledgerEntries, portalUsers, topUpRequests } from '@/db/schema';
import { parseEnv } from '@/lib/root/settings';
import { guatemalanToday } from '@/lib/platform/time/guatemala-time';
import type { Actor } from '@/lib/core/audit/audit';
import { balanceAndLedgerSum } from '@/lib/core/billing/ledger';
import { verifyLedger } from '@/lib/core/billing/verify';
import { createTestIntegration, type TestIntegration } from '@/tests/conformance/harness';
import { depositDaysAgo, shownDay } from '@/tests/support/deposit-dates';
import { addPortalMember, portalSessionOf } from '@/tests/support/people';
import { resetEnvCache, useTestDatabase, type TestDatabase } from '@/tests/support/test-database';
import {
  approveTopUpRequest,
  findTopUpSlip,
  integrationTopUpPage,
  pendingTopUpCount,
  pendingTopUpPage,
  referenceDuplicates,
  referenceKey,
  rejectTopUpRequest,
  reportTopUp,
  TOP_UP_MESSAGES,
  type Reporter,
} from './requests';
import { depositTooOldMessage } from './messages';
import { SLIP_MESSAGES } from './slips';
import { setProcessSlot } from '@/lib/platform/runtime/process-state';

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

const deposit = (reference: string, amountCentavos = 50_000) => ({ bank: 'BI', reference, depositDate: depositDaysAgo(7), amountCentavos });

describe('reporting a deposit', () => {
  it('keeps it pending with its slip, and moves no money', async () => {
    const reported = await reportTopUp(billing, { ...deposit(' 77 1234-5 '), slip: PNG });
    expect(reported.ok).toBe(true);
    if (!reported.ok) return;
    expect(reported.value).toMatchObject({ state: 'pending', reference: '77 1234-5', referenceKey: '7712345', amountCentavos: 50_000 });
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

  it('refuses one deposit typed again with other punctuation, spaces, case or accents, and keeps the first as it was typed', async () => {
    const first = await reportTopUp(billing, deposit('DUP-777'));
    expect(first).toMatchObject({ ok: true, value: { reference: 'DUP-777', referenceKey: 'DUP777' } });
    for (const typed of ['DUP777', 'dup 777', 'DUP.777', 'Dúp/777', ' d-u-p 7 7 7 ']) {
      expect(await reportTopUp(billing, deposit(typed)), typed).toMatchObject({
        ok: false,
        error: { code: 'duplicate', message: TOP_UP_MESSAGES.duplicate },
        fieldErrors: { referencia: TOP_UP_MESSAGES.duplicate },
      });
    }
    const stored = await (await db()).select().from(topUpRequests).where(eq(topUpRequests.referenceKey, 'DUP777'));
    expect(stored.map((request) => request.reference)).toEqual(['DUP-777']);
  });

  it('refuses a reference with no letter or digit, one of more than 40, and characters that are not a reference\'s', async () => {
    for (const typed of ['--', ' . ', 'A'.repeat(41), 'ÆØ-1', 'REF\u00a7 9', '<b>1</b>']) {
      expect(await reportTopUp(billing, deposit(typed)), typed).toMatchObject({ ok: false, error: { code: 'invalid', message: TOP_UP_MESSAGES.reference } });
    }
    expect((await reportTopUp(billing, deposit(`${'B'.repeat(40)}-.-`))).ok).toBe(true);
  });

  it('refuses a slip that only claims to be an image, one too large, and a developer', async () => {
    const html = new TextEncoder().encode('<html><script>alert(1)</script></html>');
    expect(await reportTopUp(billing, { ...deposit('X-1'), slip: html })).toMatchObject({ ok: false, error: { message: SLIP_MESSAGES.wrongType } });
    const large = new Uint8Array(5 * 1024 * 1024 + 1);
    large.set(PNG);
    expect(await reportTopUp(billing, { ...deposit('X-2'), slip: large })).toMatchObject({ ok: false, error: { message: SLIP_MESSAGES.tooLarge } });
    expect(await reportTopUp(developer, deposit('X-3'))).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect((await integrationTopUpPage(integration.id)).rows.map((request) => request.reference)).not.toContain('X-3');
  });

  it('keys references by their letters and digits, as PostgreSQL keys the stored ones', async () => {
    expect(referenceKey('  ab 12\t34 ')).toBe('AB1234');
    expect(referenceKey('Nº ñandú-0/9.x')).toBe('NNANDU09X');
    // Any text a person can type as a reference: the key the app checks is the one the unique index holds.
    const typed = fc.stringMatching(/^[A-Za-z0-9ÁÉÍÓÚÜÑáéíóúüñÇçÀÈÌÒÙ .,:#/_-]{1,40}$/);
    const samples = fc.sample(typed, { numRuns: 200, seed: 50 });
    let stored: Array<{ reference: string; key: string }> = [];
    const rolledBack = new Error('rolled back on purpose');
    await expect(
      (await db()).transaction(async (tx) => {
        stored = await tx
          .insert(topUpRequests)
          // Marked as earlier duplicates, so samples that share a key do not meet the unique index.
          .values(samples.map((reference) => ({ integrationId: integration.id, reportedBy: billing.id, bank: 'BI', reference, depositDate: depositDaysAgo(1), amountCentavos: 1, legacyDuplicate: true })))
          .returning({ reference: topUpRequests.reference, key: topUpRequests.referenceKey });
        throw rolledBack;
      }),
    ).rejects.toBe(rolledBack);
    expect(stored).toHaveLength(samples.length);
    for (const { reference, key } of stored) expect(key, reference).toBe(referenceKey(reference));
  });
});

describe('the deposit date', () => {
  afterEach(() => resetEnvCache());

  it('takes a deposit up to 90 days old (Guatemala\'s calendar), and refuses an older one naming the earliest day, one of 1999 and one in the future', async () => {
    expect(guatemalanToday()).toBe(depositDaysAgo(0));
    for (const days of [0, 89, 90]) {
      expect((await reportTopUp(billing, { ...deposit(`FECHA-${days}`), depositDate: depositDaysAgo(days) })).ok, `${days} days ago`).toBe(true);
    }
    const earliest = depositDaysAgo(90);
    const tooOld = depositTooOldMessage(earliest, 90);
    expect(tooOld).toContain(shownDay(earliest));
    for (const day of [depositDaysAgo(91), '1999-06-15']) {
      expect(await reportTopUp(billing, { ...deposit(`VIEJA-${day}`), depositDate: day }), day).toMatchObject({ ok: false, error: { code: 'invalid', message: tooOld }, fieldErrors: { fecha: tooOld } });
    }
    expect(await reportTopUp(billing, { ...deposit('FUTURA-1'), depositDate: depositDaysAgo(-1) })).toMatchObject({ ok: false, error: { code: 'invalid', message: TOP_UP_MESSAGES.date } });
  });

  it('honours the window the operator set (TOP_UP_DEPOSIT_MAX_AGE_DAYS)', async () => {
    setProcessSlot('env', parseEnv({ ...process.env, TOP_UP_DEPOSIT_MAX_AGE_DAYS: '30' }));
    const earliest = depositDaysAgo(30);
    expect(await reportTopUp(billing, { ...deposit('VENTANA-31'), depositDate: depositDaysAgo(31) })).toMatchObject({ ok: false, error: { message: depositTooOldMessage(earliest, 30) } });
    expect((await reportTopUp(billing, { ...deposit('VENTANA-30'), depositDate: earliest })).ok).toBe(true);
  });
});

describe('requests that shared a reference before it was compared by letters and digits', () => {
  /** Rows as the migration left them: the first keeps the key, the others are earlier duplicates. */
  async function earlier(references: string[]): Promise<number[]> {
    const rows = await (await db())
      .insert(topUpRequests)
      .values(references.map((reference, index) => ({ integrationId: integration.id, reportedBy: billing.id, bank: 'BAC', reference, depositDate: depositDaysAgo(3), amountCentavos: 1_000 + index, legacyDuplicate: index > 0 })))
      .returning({ id: topUpRequests.id });
    return rows.map((row) => row.id);
  }

  const group = async (key: string) => (await referenceDuplicates()).find((found) => found.bank === 'BAC' && found.key === key);

  it('are listed together, and the reference stays taken until every one of them is rejected', async () => {
    const [held, second, third] = await earlier(['LEG-1', 'LEG.1', 'leg1']);
    expect((await group('LEG1'))?.requests.map((request) => [request.id, request.reference, request.state, request.amountCentavos])).toEqual([
      [held, 'LEG-1', 'pending', 1_000],
      [second, 'LEG.1', 'pending', 1_001],
      [third, 'leg1', 'pending', 1_002],
    ]);
    const again = () => reportTopUp(billing, { ...deposit('LEG 1'), bank: 'BAC' });
    expect(await again()).toMatchObject({ ok: false, error: { code: 'duplicate' } });
    // The request that held the key is rejected: another of its group holds it now.
    expect((await rejectTopUpRequest(ADMIN, held!, 'Reportado dos veces.')).ok).toBe(true);
    expect(await again()).toMatchObject({ ok: false, error: { code: 'duplicate' } });
    expect((await group('LEG1'))?.requests.map((request) => request.id)).toEqual([second, third]);
    expect((await rejectTopUpRequest(ADMIN, third!, 'Reportado dos veces.')).ok).toBe(true);
    expect(await group('LEG1')).toBeUndefined();
    expect(await again()).toMatchObject({ ok: false, error: { code: 'duplicate' } });
    expect((await rejectTopUpRequest(ADMIN, second!, 'No aparece en el banco.')).ok).toBe(true);
    expect((await again()).ok).toBe(true);
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
        seen.push(...page.rows.map((request) => request.reference));
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
