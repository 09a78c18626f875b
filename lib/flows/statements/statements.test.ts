// A monthly statement reconciles with the ledger and the records, is the same every time it is
// issued, and never changes once issued: a later correction is an adjustment of a later month.
// The month's activity is made by the real lookup and balance functions, then moved back into a
// closed month as a whole (records, their ledger entries and their rollup rows by the same
// interval), so every relation between them holds.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import type { LookupKind } from '@/db/schema';
import { advanceBalanceCheckpoints, postedBalanceBefore } from '@/lib/core/billing/checkpoints';
import { placeHold, settleHold } from '@/lib/core/billing/holds';
import { adjustBalance, topUp } from '@/lib/core/billing/ledger';
import { guatemalanDayBefore, guatemalanToday } from '@/lib/platform/time/guatemala-time';
import { registerBillingProfile } from '@/tests/support/billing-profile';
import { setBillingContact } from '@/lib/flows/invoicing/receptor';
import { setTariff } from '@/lib/flows/integration-management/service';
import { pdfTextLines } from '@/tests/support/pdf-text';
import { ensureRecordMonths } from '@/lib/core/records/partitions';
import { recordUnbilledQuery } from '@/lib/core/records/write';
import { rollUpQueue } from '@/lib/core/rollups/job';
import { createTestIntegration, TEST_ACTOR, type TestIntegration } from '@/tests/conformance/harness';
import { useTestDatabase, type TestDatabase } from '@/tests/support/test-database';
import { statementChargesCsvStream } from './csv';
import { computeStatementFigures, monthPeriod } from './figures';
import { configuredIssuer, issuerLines } from './issuer';
import { previousMonth } from './monthly';
import { statementInvoices } from './invoices';
import { renderStatementPdf } from './pdf';
import { previewStatement, runningMonthRange } from './preview';
import { findStatement, issueStatement, listStatements } from './statements';

let testDatabase: TestDatabase;
let integration: TestIntegration;
const now = new Date();
const month = previousMonth(new Date(monthPeriod(previousMonth(now)).from.getTime() + 86_400_000));
const { from: monthStart } = monthPeriod(month);

async function billed(owner: TestIntegration, requestId: string, lookup: LookupKind, httpStatus: number): Promise<void> {
  const hold = await placeHold(owner.id, requestId);
  if (!hold) throw new Error('the balance covers the hold');
  await settleHold(hold, httpStatus === 200, {
    integrationId: owner.id, lookup, httpStatus, responseTimeMs: 40, nit: '576937-K', cui: null, errorMessage: null, requestId,
  });
}

/** Moves an integration's records, ledger entries and queued rollup rows back by `hours` (and its creation, unless only some entries move). */
async function moveBack(owner: TestIntegration, hours: number, onlyEntriesBefore?: Date): Promise<void> {
  const handle = await database();
  const shift = sql`make_interval(hours => ${hours}::integer)`;
  const limit = onlyEntriesBefore ? sql`and created_at < ${onlyEntriesBefore.toISOString()}::timestamptz` : sql``;
  await handle.rows(sql`update ledger_entries set created_at = created_at - ${shift} where integration_id = ${owner.id}::integer ${limit}`);
  await handle.rows(sql`update query_records set created_at = created_at - ${shift} where integration_id = ${owner.id}::integer ${limit}`);
  await handle.rows(sql`update query_rollup_queue set created_at = created_at - ${shift} where integration_id = ${owner.id}::integer ${limit}`);
  await handle.rows(sql`update query_record_identifiers i set created_at = r.created_at from query_records r where r.id = i.record_id`);
  if (!onlyEntriesBefore) await handle.rows(sql`update integrations set created_at = created_at - ${shift} where id = ${owner.id}::integer`);
}

/** Dates an integration back to the day before the statement's month began, so that month is not before it. */
async function createdBefore(owner: TestIntegration): Promise<void> {
  await (await database()).rows(sql`update integrations set created_at = ${new Date(monthStart.getTime() - 86_400_000).toISOString()}::timestamptz where id = ${owner.id}::integer`);
}

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  integration = await createTestIntegration('statement', { tariffCentavos: 150, balanceCentavos: 10_000 });
  // The months the records are moved back into (a new database has only this one and those ahead).
  await ensureRecordMonths({ from: new Date(monthStart.getTime() - 4 * 86_400_000) });
  // The opening balance comes from the month before: the initial top-up goes back further.
  const hoursIntoMonth = Math.ceil((now.getTime() - monthStart.getTime()) / 3_600_000) - 30;
  await moveBack(integration, hoursIntoMonth + 72);

  expect((await topUp(TEST_ACTOR, integration.id, 5_000, 'Depósito 771')).ok).toBe(true);
  for (let index = 0; index < 6; index++) await billed(integration, `req_statement_a_${index}`, 'omisos', index === 5 ? 502 : 200);
  await billed(integration, 'req_statement_cui', 'cui_nit', 200);
  await billed(integration, 'req_statement_404', 'cui_nit', 404);
  // The tariff changes inside the month: omisos now costs more.
  expect((await setTariff(TEST_ACTOR, integration.id, 200)).ok).toBe(true);
  for (let index = 0; index < 3; index++) await billed(integration, `req_statement_b_${index}`, 'omisos', 200);
  expect((await adjustBalance(TEST_ACTOR, integration.id, -350, 'Corrección de cobro duplicado')).ok).toBe(true);
  await recordUnbilledQuery({
    integrationId: integration.id, lookup: 'renap', httpStatus: 200, responseTimeMs: 80, nit: null, cui: '1587564440904', errorMessage: null, requestId: 'req_statement_renap',
  });
  // Past everything written so far: the database keeps microseconds and a Date only milliseconds,
  // so "now" as a Date can fall before a row written in the same millisecond (the renap record
  // then stayed in the current month, and the statement missed it).
  const startOfMove = new Date(Date.now() + 1);
  await moveBack(integration, hoursIntoMonth, startOfMove);
  await rollUpQueue();
  await advanceBalanceCheckpoints(now);
});

afterAll(async () => {
  await testDatabase?.cleanup();
});

describe('a monthly statement', () => {
  it('adds up: opening balance, top-ups, adjustments and charges by catalog and tariff give the closing balance', async () => {
    const issued = await issueStatement(TEST_ACTOR, integration.id, month, now);
    if (!issued.ok) throw new Error(issued.error.message);
    const { figures } = issued.value;
    expect(figures.openingBalanceCentavos).toBe(10_000);
    expect(figures.topUps).toEqual({ count: 1, totalCentavos: 5_000 });
    expect(figures.adjustments).toEqual({ count: 1, totalCentavos: -350 });
    expect(figures.charges.lines).toEqual([
      { lookup: 'cui_nit', tariffCentavos: 150, count: 1, amountCentavos: 150 },
      { lookup: 'omisos', tariffCentavos: 150, count: 5, amountCentavos: 750 },
      { lookup: 'omisos', tariffCentavos: 200, count: 3, amountCentavos: 600 },
    ]);
    expect(figures.charges).toMatchObject({ count: 9, totalCentavos: 1_500 });
    expect(figures.closingBalanceCentavos).toBe(10_000 + 5_000 - 350 - 1_500);
    expect(figures.closingBalanceCentavos).toBe(await postedBalanceBefore(integration.id, monthPeriod(month).until));
    // Every query that reached a source, charged or not.
    expect(figures.queries).toEqual([
      { lookup: 'cui_nit', outcome: 'client_error', count: 1 },
      { lookup: 'cui_nit', outcome: 'success', count: 1 },
      { lookup: 'omisos', outcome: 'source_error', count: 1 },
      { lookup: 'omisos', outcome: 'success', count: 8 },
      { lookup: 'renap', outcome: 'success', count: 1 },
    ]);
  });

  it('is the same every time, and a later correction does not change it', async () => {
    const first = await issueStatement(TEST_ACTOR, integration.id, month, now);
    expect((await adjustBalance(TEST_ACTOR, integration.id, 150, 'Devolución de un cobro de ese mes')).ok).toBe(true);
    await advanceBalanceCheckpoints(new Date(now.getTime() + 2 * 3_600_000));
    const again = await issueStatement(TEST_ACTOR, integration.id, month, now);
    expect(again.ok && first.ok && again.value.id === first.value.id).toBe(true);
    // As issueStatement reads the integration: with its declared purpose and billing profile (none registered here).
    const recomputed = await computeStatementFigures({ id: integration.id, nombre: integration.nombre, purpose: '', legalName: null, nit: null, address: null }, month, now);
    expect({ ...recomputed, issuer: configuredIssuer() }).toEqual(first.ok && first.value.figures);
    // Issued twice at once, it is stored once.
    const other = await createTestIntegration('statement-race');
    await createdBefore(other);
    const both = await Promise.all([issueStatement(TEST_ACTOR, other.id, month, now), issueStatement(TEST_ACTOR, other.id, month, now)]);
    expect(new Set(both.map((result) => result.ok && result.value.id)).size).toBe(1);
    expect(both.every((result) => result.ok)).toBe(true);
  });

  // Issue 24, defect 13: statement numbers were global ("Estado n.º 2" on a client's first), and
  // the month menu offered months before the integration existed (an empty statement, kept forever).
  it('is numbered per integration, in the order issued, and never for a month before the integration existed', async () => {
    const fresh = await createTestIntegration('statement-numbers');
    const beforeCreation = await issueStatement(TEST_ACTOR, fresh.id, month, now);
    expect(beforeCreation.ok ? 'issued' : beforeCreation.error.code).toBe('before_integration');
    expect((await listStatements(fresh.id)).length).toBe(0);

    const earlier = previousMonth(new Date(monthStart.getTime() - 86_400_000 * 2));
    await (await database()).rows(sql`update integrations set created_at = ${new Date(monthPeriod(earlier).from.getTime() + 3_600_000).toISOString()}::timestamptz where id = ${fresh.id}::integer`);
    // The later month first: it is n.º 1; the earlier one, issued after it, is n.º 2.
    const first = await issueStatement(TEST_ACTOR, fresh.id, month, now);
    const second = await issueStatement(TEST_ACTOR, fresh.id, earlier, now);
    expect([first.ok && first.value.number, second.ok && second.value.number]).toEqual([1, 2]);
    if (!first.ok) throw new Error(first.error.message);
    expect((await renderStatementPdf(first.value, 'Pasarela de prueba', [])).subarray(0, 5).toString()).toBe('%PDF-');
    // Another integration's first statement is its n.º 1 too.
    const issued = await issueStatement(TEST_ACTOR, integration.id, month, now);
    expect(issued.ok && issued.value.number).toBe(1);
  });

  it('renders as a PDF and lists its charged queries as CSV', async () => {
    const issued = await issueStatement(TEST_ACTOR, integration.id, month, now);
    if (!issued.ok) throw new Error(issued.error.message);
    const pdf = await renderStatementPdf(issued.value, 'Pasarela de prueba', []);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.toString('latin1')).toContain(`Estado de cuenta ${integration.nombre} ${month}`);
    const csv = await new Response(statementChargesCsvStream(integration.id, month, (error) => { throw error; })).text();
    const lines = csv.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines).toHaveLength(1 + 9);
    expect(lines.slice(1).every((line) => /,(1\.50|2\.00),(1\.50|2\.00),GTQ,/.test(line))).toBe(true);
  });

  // Issue 24, defect 13: statements carried no legal name or NIT of the integrator. A statement is
  // a permanent document: it names the integrator as its billing profile was when it was issued.
  it('names the integrator by the legal name and NIT registered when it was issued, and a later edit does not change it', async () => {
    const registered = await createTestIntegration('statement-details');
    await createdBefore(registered);
    await registerBillingProfile(TEST_ACTOR, registered.id, { nit: '576937-k', name: 'Banco de Prueba, S.A.' });
    const issued = await issueStatement(TEST_ACTOR, registered.id, month, now);
    if (!issued.ok) throw new Error(issued.error.message);
    const header = async () => pdfTextLines(await renderStatementPdf((await findStatement(registered.id, month))!, 'Pasarela de prueba', []));
    expect(await header()).toEqual(expect.arrayContaining(['Razón social: Banco de Prueba, S.A.', 'NIT: 576937-K']));

    await registerBillingProfile(TEST_ACTOR, registered.id, { nit: '4829113-7', name: 'Otro Nombre, S.A.' });
    const after = await header();
    expect(after).toEqual(expect.arrayContaining(['Razón social: Banco de Prueba, S.A.', 'NIT: 576937-K']));
    expect(after.join('\n')).not.toContain('Otro Nombre');

    // Without details the statement says so, rather than printing blanks.
    const bare = await issueStatement(TEST_ACTOR, integration.id, month, now);
    if (!bare.ok) throw new Error(bare.error.message);
    expect(pdfTextLines(await renderStatementPdf(bare.value, 'Pasarela de prueba', []))).toEqual(
      expect.arrayContaining(['Razón social: no registrada', 'NIT: no registrado']),
    );
  });

  // Issue 32, point 7: a statement names who issued it. Copied when issued, like the integrator's
  // details: a later change of the settings does not rewrite a statement already issued.
  it('names its issuer, as the settings named it when it was issued', async () => {
    const issued = await issueStatement(TEST_ACTOR, integration.id, month, now);
    if (!issued.ok) throw new Error(issued.error.message);
    expect(issued.value.figures.issuer).toEqual(configuredIssuer());
    expect((await findStatement(integration.id, month))!.figures.issuer).toEqual(configuredIssuer());
    expect(pdfTextLines(await renderStatementPdf(issued.value, 'Pasarela de prueba', []))).toEqual(expect.arrayContaining(issuerLines(configuredIssuer())));
  });

  // Issue 53: the statement lists the FEL invoices of its month's top-ups, read when it is drawn, so
  // an invoice certified after the statement was issued appears with its numbers.
  it('lists the invoices of its month’s top-ups: serie-número, UUID and total, "En trámite" until certified', async () => {
    const issued = await issueStatement(TEST_ACTOR, integration.id, month, now);
    if (!issued.ok) throw new Error(issued.error.message);
    const handle = await database();
    const entries = await handle.rows<{ id: string | number; posted_centavos: string | number; in_month: boolean }>(sql`
      select id, posted_centavos, created_at >= ${monthStart.toISOString()}::timestamptz as in_month
        from ledger_entries where integration_id = ${integration.id}::integer and kind = 'top_up' order by id`);
    const inMonth = entries.find((entry) => entry.in_month)!;
    const before = entries.find((entry) => !entry.in_month)!;
    const invoiceOf = (entry: typeof inMonth, numbers: string) => sql`
      insert into invoices (ledger_entry_id, integration_id, document_type, emitted_at, total_centavos, taxable_centavos, tax_centavos, receptor_kind, receptor_id, state, uuid, serie, numero)
      values (${Number(entry.id)}::bigint, ${integration.id}::integer, 'FACT', now(), ${Number(entry.posted_centavos)}::bigint, ${Math.round(Number(entry.posted_centavos) / 1.12)}::bigint,
              ${Number(entry.posted_centavos) - Math.round(Number(entry.posted_centavos) / 1.12)}::bigint, 'cf', 'CF', ${numbers ? 'certified' : 'pending'}::invoice_state,
              ${numbers ? `${numbers}-1111-4111-8111-111111111111` : null}, ${numbers || null}, ${numbers ? '286331153' : null})`;
    await handle.rows(invoiceOf(inMonth, ''));
    await handle.rows(invoiceOf(before, 'BEFORE00'));
    const drawn = async () => pdfTextLines(await renderStatementPdf(issued.value, 'Pasarela de prueba', await statementInvoices(issued.value))).join('\n');

    const pending = await drawn();
    expect(pending).toContain('Facturas de las recargas');
    expect(pending).toContain('En trámite');
    expect(pending).toContain('Todavía sin certificar');
    // The top-up of the month before is on that month's statement, not this one's.
    expect(pending).not.toContain('BEFORE00');

    await handle.rows(sql`update invoices set state = 'certified', uuid = 'ABCDEF01-2222-4333-8444-555555555555', serie = 'ABCDEF01', numero = '572662306'
      where ledger_entry_id = ${Number(inMonth.id)}::bigint`);
    const certified = await drawn();
    expect(certified).toContain('ABCDEF01-572662306');
    expect(certified).toContain('ABCDEF01-2222-4333-8444-555555555555');
    expect(certified).toContain('Q 50.00');
    expect(certified).not.toContain('En trámite');

    // A credit note of it is listed under it by its own serie, número and UUID, with what it reverted (issue 64, point 8).
    const adjustment = await handle.rows<{ id: string | number }>(sql`
      insert into ledger_entries (integration_id, kind, amount_centavos, posted_centavos, actor, note)
      values (${integration.id}::integer, 'adjustment', -2000, -2000, 'admin', 'Nota de crédito') returning id`);
    await handle.rows(sql`
      insert into invoice_reversals (invoice_id, integration_id, kind, reason, requested_at, amount_centavos, ledger_entry_id, requested_by, state, uuid, serie, numero, done_at)
      select id, integration_id, 'credit_note', 'Reembolso parcial', now(), 2000, ${Number(adjustment[0]!.id)}::bigint, 'admin', 'done',
             'C0FFEE00-1111-4111-8111-111111111111', 'C0FFEE00', '101', now()
        from invoices where ledger_entry_id = ${Number(inMonth.id)}::bigint`);
    // The PDF may wrap a cell: read it as one line.
    const credited = (await drawn()).replace(/\s+/g, ' ');
    expect(credited).toContain('Nota de crédito C0FFEE00-101');
    expect(credited).toContain('C0FFEE00-1111-4111-8111-111111111111');
    expect(credited).toContain('-Q 20.00');
  });

  it('is refused for a month that has not ended, and when the records and the ledger disagree', async () => {
    const current = await issueStatement(TEST_ACTOR, integration.id, guatemalanToday(now).slice(0, 7), now);
    expect(current.ok ? 'issued' : current.error.code).toBe('month_not_closed');

    const broken = await createTestIntegration('statement-broken', { tariffCentavos: 100, balanceCentavos: 1_000 });
    await createdBefore(broken);
    await billed(broken, 'req_statement_broken', 'omisos', 200);
    await moveBack(broken, Math.ceil((now.getTime() - monthStart.getTime()) / 3_600_000) - 30);
    await (await database()).rows(sql`update query_records set charged_centavos = 90 where request_id = 'req_statement_broken'`);
    const refused = await issueStatement(TEST_ACTOR, broken.id, month, now);
    expect(refused.ok ? 'issued' : refused.error.code).toBe('does_not_reconcile');
  });
});

// Issue 32, point 7: an administrator sees what a statement will say before it can be issued. The
// preview is computed by the code that issues statements, so the two never disagree.
describe('a preview of a statement', () => {
  it('shows for a closed month exactly the figures its issued statement holds', async () => {
    const range = { desde: `${month}-01`, hasta: lastDayOf(month) };
    const preview = await previewStatement(integration.id, range, now);
    if (!preview.ok) throw new Error(preview.error.message);
    const issued = await issueStatement(TEST_ACTOR, integration.id, month, now);
    if (!issued.ok) throw new Error(issued.error.message);
    const { month: issuedMonth, issuer, ...figures } = issued.value.figures;
    expect(issuedMonth).toBe(month);
    expect(preview.value.figures).toEqual(figures);
    expect(preview.value.issuer).toEqual(issuer);
    // Not a smaller test of an empty month: the figures hold the month's activity.
    expect(preview.value.figures.charges.count).toBe(9);
  });

  it('shows the running month as it stands, and stores nothing', async () => {
    const fresh = await createTestIntegration('statement-preview', { tariffCentavos: 125, balanceCentavos: 2_000 });
    expect((await topUp(TEST_ACTOR, fresh.id, 500, 'Depósito 4410')).ok).toBe(true);
    await billed(fresh, 'req_statement_preview', 'omisos', 200);
    const preview = await previewStatement(fresh.id, runningMonthRange(now), now);
    if (!preview.ok) throw new Error(preview.error.message);
    const { figures } = preview.value;
    expect(figures.openingBalanceCentavos).toBe(0);
    expect(figures.topUps).toEqual({ count: 2, totalCentavos: 2_500 });
    expect(figures.charges).toMatchObject({ count: 1, totalCentavos: 125 });
    expect(figures.closingBalanceCentavos).toBe(2_375);
    expect(figures.movements.map((movement) => movement.note)).toContain('Depósito 4410');
    expect(await listStatements(fresh.id)).toEqual([]);
    // Without a billing profile, the preview names nobody; with one, the company its invoices name
    // and its fiscal address (issue 64, point 1), never «no registrada» beside them.
    expect(figures.integration).toMatchObject({ legalName: null, nit: null, address: null });
    await registerBillingProfile(TEST_ACTOR, fresh.id, { nit: '91000001-8', name: 'EMPRESA DE PRUEBA FEL, SOCIEDAD ANONIMA' });
    expect(await setBillingContact(TEST_ACTOR, fresh.id, { direccion: '6a. Avenida 1-23, zona 1, Guatemala', correo: '' })).toEqual({ ok: true, value: { changed: true } });
    const named = await previewStatement(fresh.id, runningMonthRange(now), now);
    if (!named.ok) throw new Error(named.error.message);
    expect(named.value.figures.integration).toMatchObject({ legalName: 'EMPRESA DE PRUEBA FEL, SOCIEDAD ANONIMA', nit: '910000018', address: '6a. Avenida 1-23, zona 1, Guatemala' });
  });

  it('is refused, in Spanish, for an integration that does not exist and for days whose records were purged', async () => {
    const missing = await previewStatement(999_999, runningMonthRange(now), now);
    expect(missing.ok ? 'shown' : missing.error.code).toBe('not_found');
    const purged = await previewStatement(integration.id, { desde: '2001-01-01', hasta: '2001-01-31' }, now);
    expect(purged.ok ? 'shown' : purged.error).toMatchObject({ code: 'records_purged', message: expect.stringMatching(/^Los registros anteriores al \d{2}\/\d{2}\/\d{4} ya se depuraron/) });
  });
});

/** The last day of a month, YYYY-MM-DD. */
function lastDayOf(month: string): string {
  return guatemalanDayBefore(monthPeriod(month).until.toISOString().slice(0, 10), 1);
}
