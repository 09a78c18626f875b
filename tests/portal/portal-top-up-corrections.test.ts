// Correcting deposit reports through the built app: in the portal the person who reported a
// deposit (or an owner) cancels it while it is pending, and another billing person or a developer
// cannot; a cancelled report is not approved afterwards. In the console an administrator credits
// another amount than reported only with a note, and the integration reads both amounts and the
// note in Recargas and Movimientos. "Recargas pendientes" keeps a history below the list: approved,
// rejected and cancelled requests with who decided and when, a page at a time.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/db/client';
import { auditLog, invoices, portalUsers, topUpRequests } from '@/db/schema';
import { balanceAndLedgerSum } from '@/lib/core/billing/ledger';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';
import { PORTAL_ACTION_MESSAGES } from '@/lib/surfaces/portal/action';
import { TOP_UP_MESSAGES } from '@/lib/flows/top-ups/requests';
import { INVOICE_PAGE_MESSAGES } from '@/lib/presentation/invoice-labels';
import { createTestIntegration, startGateway, type Gateway, type TestIntegration } from '../conformance/harness';
import { depositDaysAgo } from '../support/deposit-dates';
import { addPortalMember, consoleSignedIn, newConsoleUser, portalSignedIn } from '../support/people';
import { says, type PortalClient } from '../support/portal-client';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';

const people = { billing: 'pagos-correcciones@example.com', cashier: 'caja-correcciones@example.com', owner: 'duena-correcciones@example.com', developer: 'dev-correcciones@example.com' } as const;

let testDatabase: TestDatabase;
let gateway: Gateway;
let integration: TestIntegration;
let admin: { email: string; password: string };
let billing: PortalClient;

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  integration = await createTestIntegration('recargas-correcciones', { balanceCentavos: 5_000 });
  await addPortalMember(integration, people.billing, 'facturacion');
  await addPortalMember(integration, people.cashier, 'facturacion');
  await addPortalMember(integration, people.owner, 'propietario');
  await addPortalMember(integration, people.developer, 'desarrollador');
  admin = await newConsoleUser('admin-correcciones@example.com', 'admin');
  gateway = await startGateway(testDatabase, { env: { TRUSTED_PROXY_HOPS: '1', RATE_LIMIT_SIGN_IN_PER_MINUTE: '500' } });
  billing = await portalSignedIn(gateway.app.baseUrl, people.billing);
}, PROCESS_TEST_TIMEOUT_MS * 2);

afterAll(async () => {
  await gateway?.stop();
  await testDatabase?.cleanup();
});

const report = (person: PortalClient, referencia: string, monto: string) =>
  person.serverActionWithFiles('/portal/recargas', 'reportTopUpAction', { banco: 'BI', fecha: depositDaysAgo(5), monto, referencia, envio: crypto.randomUUID() }, {});
const cancel = (person: PortalClient, solicitud: number) => person.serverAction('/portal/recargas', 'cancelTopUpRequestAction', { solicitud: String(solicitud), envio: crypto.randomUUID() });
const requestOf = async (reference: string) =>
  (await gateway.withDatabase(async () => (await db()).select().from(topUpRequests).where(eq(topUpRequests.reference, reference))))[0]!;
const balance = () => gateway.withDatabase(() => balanceAndLedgerSum(integration.id));
/** The cancel forms the page offers, by the request each names. */
const cancelFormsIn = (html: string) => [...html.matchAll(/data-testid="cancel-top-up-(\d+)"/g)].map((match) => Number(match[1]));

describe('cancelling a report in the portal', { timeout: PROCESS_TEST_TIMEOUT_MS * 2 }, () => {
  it('its reporter cancels it (asked first), the page says so, the audit has it, and an administrator can no longer approve it', async () => {
    expect(says(await report(billing, 'ANULAR-1', '300'), 'La administración lo revisará')).toBe(true);
    const request = await requestOf('ANULAR-1');
    const page = await billing.request('/portal/recargas');
    expect(page.text).toContain('Cancelar reporte');
    expect(cancelFormsIn(page.text)).toContain(request.id);

    const answer = await cancel(billing, request.id);
    expect(says(answer, 'Canceló el reporte del depósito de Q 300.00'), answer.text.slice(0, 400)).toBe(true);
    expect((await requestOf('ANULAR-1')).state).toBe('cancelled');
    const after = await billing.request('/portal/recargas');
    expect(after.text).toContain('Cancelada');
    expect(cancelFormsIn(after.text)).not.toContain(request.id);
    const audits = await gateway.withDatabase(async () => (await db()).select().from(auditLog).where(eq(auditLog.action, 'top_up_request.cancel')));
    expect(audits.map((row) => [row.actor.includes(people.billing), (row.after as { requestId: number }).requestId])).toEqual([[true, request.id]]);

    const before = await balance();
    const administrator = await consoleSignedIn(gateway.app.baseUrl, admin);
    const approval = await administrator.serverAction('/admin/recargas', 'approveTopUpRequestAction', { solicitud: String(request.id), envio: crypto.randomUUID() });
    expect(says(approval, TOP_UP_MESSAGES.decided), approval.text.slice(0, 400)).toBe(true);
    expect(await balance()).toEqual(before);
    // Cancelled, its reference is free for the corrected report.
    expect(says(await report(billing, 'ANULAR-1', '350'), 'La administración lo revisará')).toBe(true);
  });

  it('another billing person neither sees the button nor cancels it; an owner does; a developer is refused', async () => {
    expect(says(await report(billing, 'ANULAR-2', '410'), 'La administración lo revisará')).toBe(true);
    const request = await requestOf('ANULAR-2');
    const cashier = await portalSignedIn(gateway.app.baseUrl, people.cashier);
    expect(cancelFormsIn((await cashier.request('/portal/recargas')).text)).not.toContain(request.id);
    expect(says(await cancel(cashier, request.id), TOP_UP_MESSAGES.notYours)).toBe(true);
    const developer = await portalSignedIn(gateway.app.baseUrl, people.developer);
    expect(says(await cancel(developer, request.id), PORTAL_ACTION_MESSAGES.forbidden)).toBe(true);
    expect((await requestOf('ANULAR-2')).state).toBe('pending');

    const owner = await portalSignedIn(gateway.app.baseUrl, people.owner);
    expect(cancelFormsIn((await owner.request('/portal/recargas')).text)).toContain(request.id);
    expect(says(await cancel(owner, request.id), 'Canceló el reporte')).toBe(true);
    expect((await requestOf('ANULAR-2')).state).toBe('cancelled');
  });
});

describe('approving another amount than reported', { timeout: PROCESS_TEST_TIMEOUT_MS * 2 }, () => {
  it('is refused without a note; with one, the approved amount is credited and the integration reads both amounts and the note', async () => {
    expect(says(await report(billing, 'OTRO-MONTO', '1,250.50'), 'La administración lo revisará')).toBe(true);
    const request = await requestOf('OTRO-MONTO');
    const administrator = await consoleSignedIn(gateway.app.baseUrl, admin);
    const form = (await administrator.request('/admin/recargas')).text;
    // The amount field starts as reported.
    expect(form).toMatch(/name="monto"[^>]*value="1,250.50"|value="1,250.50"[^>]*name="monto"/);
    const before = await balance();

    const withoutNote = await administrator.serverAction('/admin/recargas', 'approveTopUpRequestAction', { solicitud: String(request.id), monto: '1,200.00', nota: '', envio: crypto.randomUUID() });
    expect(says(withoutNote, TOP_UP_MESSAGES.approvalNoteRequired), withoutNote.text.slice(0, 400)).toBe(true);
    expect(await balance()).toEqual(before);

    const note = 'El banco acreditó Q 1,200.00 por la comisión de transferencia';
    const approved = await administrator.serverAction('/admin/recargas', 'approveTopUpRequestAction', { solicitud: String(request.id), monto: '1,200.00', nota: note, envio: crypto.randomUUID() });
    expect(says(approved, 'Recarga de Q 1,200.00 acreditada en lugar de los Q 1,250.50 reportados'), approved.text.slice(0, 400)).toBe(true);
    expect(await balance()).toEqual({ balanceCentavos: before.balanceCentavos + 120_000, ledgerSumCentavos: before.balanceCentavos + 120_000 });
    expect(await requestOf('OTRO-MONTO')).toMatchObject({ state: 'approved', amountCentavos: 125_050, approvedAmountCentavos: 120_000, approvalNote: note });

    // React separates adjacent texts with <!-- -->; a person reads them as one.
    const recargas = (await billing.request('/portal/recargas')).text.replaceAll('<!-- -->', '');
    expect(recargas).toContain('Q 1,200.00 acreditados');
    expect(recargas).toContain('Reportado: Q 1,250.50');
    expect(recargas).toContain(`Nota de la administración: ${note}`);
    const movements = (await billing.request('/portal/movimientos')).text;
    expect(movements).toContain(`reportado Q 1,250.50, acreditado Q 1,200.00: ${note}`);
  });
});

describe('the history under "Recargas pendientes"', { timeout: PROCESS_TEST_TIMEOUT_MS * 2 }, () => {
  it('lists approved, rejected and cancelled requests with who decided and when, the latest first', async () => {
    expect(says(await report(billing, 'RECHAZADA-1', '77'), 'La administración lo revisará')).toBe(true);
    const rejected = await requestOf('RECHAZADA-1');
    const administrator = await consoleSignedIn(gateway.app.baseUrl, admin);
    expect(says(await administrator.serverAction('/admin/recargas', 'rejectTopUpRequestAction', { solicitud: String(rejected.id), motivo: 'No aparece en el banco.', envio: crypto.randomUUID() }), 'rechazada')).toBe(true);
    const decidedAt = (await requestOf('RECHAZADA-1')).decidedAt!;

    const html = (await administrator.request('/admin/recargas')).text;
    expect(html).toContain('Historial');
    const rows = [...html.matchAll(/<tr data-testid="top-up-history-row">([\s\S]*?)<\/tr>/g)].map((row) => row[1]!.replace(/<!-- -->/g, '').replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim());
    expect(rows[0]).toContain('RECHAZADA-1');
    expect(rows[0]).toContain('Rechazada');
    expect(rows[0]).toContain(admin.email);
    expect(rows[0]).toContain('No aparece en el banco.');
    // Guatemala's time, dd/mm/aaaa.
    expect(rows[0]).toContain(formatDateTime(decidedAt));
    expect(formatDateTime(decidedAt)).toMatch(/^\d{2}\/\d{2}\/\d{4}\b/);
    const approvedRow = rows.find((row) => row.includes('OTRO-MONTO'))!;
    expect(approvedRow).toContain('Acreditada');
    expect(approvedRow).toContain('Q 1,200.00 acreditados');
    expect(approvedRow).toContain('Reportado: Q 1,250.50');
    const cancelledRows = rows.filter((row) => row.includes('ANULAR-'));
    expect(cancelledRows.map((row) => row.includes('Cancelada'))).toEqual([true, true]);
    expect(cancelledRows.some((row) => row.includes(`Integrador: ${people.owner}`))).toBe(true);
    expect(cancelledRows.some((row) => row.includes(`Integrador: ${people.billing}`))).toBe(true);
    // A pending one is not history.
    expect(rows.some((row) => row.includes('ANULAR-1') && row.includes('Pendiente'))).toBe(false);
  });

  it('pages 50 at a time, the next page reached by its link, each decision once', async () => {
    await gateway.withDatabase(async () => {
      const database = await db();
      const [reporter] = await database.select({ id: portalUsers.id }).from(portalUsers).where(eq(portalUsers.email, people.billing));
      await database.insert(topUpRequests).values(
        Array.from({ length: 60 }, (_, index) => ({
          integrationId: integration.id,
          reportedBy: reporter!.id,
          bank: 'BAM',
          reference: `HISTORIA-${index + 1}`,
          depositDate: depositDaysAgo(6),
          amountCentavos: 10_000 + index,
          state: 'rejected' as const,
          reason: 'Rechazo de prueba',
          decidedBy: `user:1 ${admin.email}`,
          decidedAt: new Date(Date.parse('2026-01-10T15:00:00Z') + index * 60_000),
        })),
      );
    });
    const administrator = await consoleSignedIn(gateway.app.baseUrl, admin);
    // Read from the table's rows: the page's script data repeats their text.
    const numbersIn = (html: string) =>
      [...html.matchAll(/<tr data-testid="top-up-history-row">([\s\S]*?)<\/tr>/g)].flatMap((row) => [...row[1]!.matchAll(/HISTORIA-(\d+)/g)].map((match) => Number(match[1])));
    const first = (await administrator.request('/admin/recargas')).text;
    expect(first.match(/data-testid="top-up-history-row"/g)).toHaveLength(50);
    const link = /href="(\/admin\/recargas\?historial=[^"#]+)#historial-recargas"/.exec(first)?.[1];
    expect(link).toBeDefined();
    const second = (await administrator.request(link!.replaceAll('&amp;', '&'))).text;
    const all = [...numbersIn(first), ...numbersIn(second)];
    expect(new Set(all).size).toBe(all.length);
    expect(new Set(all)).toEqual(new Set(Array.from({ length: 60 }, (_, index) => index + 1)));
    // The latest decisions first: the 60th on the first page before the 59th, the 1st on the second.
    expect(numbersIn(first).indexOf(60)).toBeLessThan(numbersIn(first).indexOf(59));
    expect(numbersIn(second)).toContain(1);
  });
});

describe('a deployment with FEL off', { timeout: PROCESS_TEST_TIMEOUT_MS * 2 }, () => {
  it('credits approved deposits without an invoice, and Facturas says why it is empty', async () => {
    expect(await (await db()).select().from(invoices)).toEqual([]);
    const administrator = await consoleSignedIn(gateway.app.baseUrl, admin);
    const html = (await administrator.request('/admin/facturas')).text;
    expect(html).toContain(INVOICE_PAGE_MESSAGES.felOff);
    expect(html).toContain(INVOICE_PAGE_MESSAGES.noInvoices);
  });
});
