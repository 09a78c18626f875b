// A voided invoice, one with a credit note and one whose void is under way, everywhere people read
// them, on the configuration users run: a built app with FEL on, against the certifier simulator,
// its own worker certifying and voiding. The console's list says each one's standing and its
// filter finds them; its invoice page says it under "Estado"; the portal's list and page say it,
// with the credit note's numbers and its XML (another integration's answers as one that does not
// exist); the invoice's PDF reads ANULADA; the monthly statement marks them; and each top-up in the
// console's movements links to its invoice.
import { and, eq, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/db/client';
import { invoiceReversals, invoices, type Invoice, type InvoiceReversal } from '@/db/schema';
import type { Actor } from '@/lib/core/audit/audit';
import { requestCreditNote, requestVoid } from '@/lib/core/billing/invoice-reversals';
import { topUp } from '@/lib/core/billing/ledger';
import { monthPeriod } from '@/lib/flows/statements/figures';
import { issueStatement } from '@/lib/flows/statements/statements';
import { guatemalanMonthOf } from '@/lib/platform/time/guatemala-time';
import { PORTAL_DOWNLOAD_MESSAGES } from '@/lib/surfaces/portal/downloads';
import { startSimulator, type RunningSimulator } from '../../simulator/server';
import { createTestIntegration, eventually, TEST_ACTOR, type TestIntegration } from '../conformance/harness';
import { startApp, type RunningApp } from '../support/app-server';
import { pdfTextLines } from '../support/pdf-text';
import { addPortalMember, consoleSignedIn, newConsoleUser, portalSignedIn, type ConsoleAccount } from '../support/people';
import { expectPortalDownloadMissing } from '../support/portal-client';
import { resetEnvCache, useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';

const CASHIER: Actor = { kind: 'user', id: 78, email: 'caja@servicio.example' };
const people = { owner: 'duena@anuladas-a.example', billing: 'conta@anuladas-a.example', ownerB: 'duena@anuladas-b.example' };

let testDatabase: TestDatabase;
let simulator: RunningSimulator;
let app: RunningApp;
let admin: ConsoleAccount;
let integrationA: TestIntegration;
let integrationB: TestIntegration;
/** A's invoices: voided, with a credit note, with a void under way, and left as certified. */
let voided: Invoice;
let credited: Invoice;
let voiding: Invoice;
let plain: Invoice;
let creditNote: InvoiceReversal;
/** B's, with a credit note. */
let creditedB: Invoice;
let creditNoteB: InvoiceReversal;

function pdfText(bytes: Buffer): string {
  expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
  return pdfTextLines(bytes).join('\n');
}

const numbers = (invoice: { serie: string | null; numero: string | null }) => `${invoice.serie}-${invoice.numero}`;

/** The reversal of an invoice once the app's worker has settled it. */
function settled(invoice: Invoice): Promise<InvoiceReversal> {
  return eventually(
    () => app.withDatabase(async () => (await db()).select().from(invoiceReversals).where(and(eq(invoiceReversals.invoiceId, invoice.id), ne(invoiceReversals.state, 'refused')))),
    (rows) => rows[0]?.state === 'done',
    30_000,
    `the reversal of invoice ${invoice.id} settled`,
  ).then((rows) => rows[0]!);
}

/** The row of the invoice in a table of invoices, as HTML. */
function rowOf(html: string, invoice: Invoice, href: string): string {
  const rows = html.split('<tr').filter((row) => row.includes(`href="${href}/${invoice.id}"`));
  expect(rows, `one row of invoice ${invoice.id}`).toHaveLength(1);
  return rows[0]!;
}

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  simulator = await startSimulator({ port: 0 });
  const fel = { FEL_ENABLED: 'true', FEL_CERTIFIER_BASE_URL: `${simulator.url}/fel`, FEL_NIT_LOOKUP_BASE_URL: `${simulator.url}/fel/receptores` };
  Object.assign(process.env, fel);
  resetEnvCache();
  await testDatabase.use(async () => {
    integrationA = await createTestIntegration('anuladas-a', { balanceCentavos: 0 });
    integrationB = await createTestIntegration('anuladas-b', { balanceCentavos: 0 });
    for (const [integration, amount] of [
      [integrationA, 11_200],
      [integrationA, 5_000],
      [integrationA, 3_000],
      [integrationA, 2_240],
      [integrationB, 98_765],
    ] as const) {
      const credit = await topUp(CASHIER, integration.id, amount, `Depósito de ${amount}`);
      if (!credit.ok) throw new Error(credit.error.message);
    }
    await addPortalMember(integrationA, people.owner, 'propietario');
    await addPortalMember(integrationA, people.billing, 'facturacion');
    await addPortalMember(integrationB, people.ownerB, 'propietario');
    admin = await newConsoleUser('admin@anuladas.example', 'admin');
  });
  app = await startApp({ env: { ...fel, FEL_WORKER_INTERVAL_MS: '200' } });
  const certified = await eventually(
    () => app.withDatabase(async () => (await db()).select().from(invoices).orderBy(invoices.id)),
    (rows) => rows.length === 5 && rows.every((row) => row.state === 'certified'),
    30_000,
    'every invoice certified by the app',
  );
  [voided, credited, voiding, plain, creditedB] = certified as [Invoice, Invoice, Invoice, Invoice, Invoice];
  await app.withDatabase(async () => {
    for (const [request, invoice] of [
      [requestVoid, voided],
      [requestCreditNote, credited],
      [requestCreditNote, creditedB],
    ] as const) {
      const asked = await request(TEST_ACTOR, invoice.id, 'Recarga duplicada');
      if (!asked.ok) throw new Error(asked.error.why);
    }
  });
  await settled(voided);
  creditNote = await settled(credited);
  creditNoteB = await settled(creditedB);
  // The certifier asks to retry every void from now on: this one stays under way.
  simulator.fel.setFaults([{ fault: 'retryable', operations: ['void'] }]);
  const asked = await app.withDatabase(() => requestVoid(TEST_ACTOR, voiding.id, 'Recarga duplicada'));
  if (!asked.ok) throw new Error(asked.error.why);
}, PROCESS_TEST_TIMEOUT_MS);

afterAll(async () => {
  await app?.stop();
  await simulator?.close();
  await testDatabase?.cleanup();
});

describe('voided and credited invoices in the console', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('the list says each one’s standing, with the credit note’s numbers, and its filter finds them', async () => {
    expect(creditNote.serie).toBeTruthy();
    const staff = await consoleSignedIn(app.baseUrl, admin);
    const list = (await staff.request('/admin/facturas')).text;
    expect(rowOf(list, voided, '/admin/facturas')).toContain('>Anulada<');
    expect(rowOf(list, voiding, '/admin/facturas')).toContain('>Anulación en trámite<');
    const creditedRow = rowOf(list, credited, '/admin/facturas');
    expect(creditedRow).toContain('>Con nota de crédito<');
    expect(creditedRow).toContain(`Nota de crédito ${numbers(creditNote)}`);
    expect(rowOf(list, plain, '/admin/facturas')).toContain('>Certificada<');
    expect(rowOf(list, voided, '/admin/facturas')).not.toContain('>Certificada<');

    const filtered = async (estado: string) => {
      const page = (await staff.request(`/admin/facturas?estado=${estado}`)).text;
      return [voided, credited, voiding, plain, creditedB].filter((invoice) => page.includes(`href="/admin/facturas/${invoice.id}"`)).map((invoice) => invoice.id);
    };
    expect(await filtered('voided')).toEqual([voided.id]);
    expect(await filtered('void_pending')).toEqual([voiding.id]);
    expect(await filtered('credited')).toEqual([credited.id, creditedB.id]);
    // "Certificada" is what stands: an invoice voided or credited is found under its own standing.
    expect(await filtered('certified')).toEqual([plain.id]);
    const options = (await staff.request('/admin/facturas')).text;
    for (const label of ['Anulada', 'Anulación en trámite', 'Con nota de crédito']) expect(options).toMatch(new RegExp(`<option value="[a-z_]+">${label}</option>`));
  });

  it('the invoice page says it under "Estado"', async () => {
    const staff = await consoleSignedIn(app.baseUrl, admin);
    const state = (html: string) => /data-testid="invoice-state">([^<]*)</.exec(html)?.[1];
    expect(state((await staff.request(`/admin/facturas/${voided.id}`)).text)).toBe('Anulada');
    expect(state((await staff.request(`/admin/facturas/${voiding.id}`)).text)).toBe('Anulación en trámite');
    const creditedPage = (await staff.request(`/admin/facturas/${credited.id}`)).text;
    expect(state(creditedPage)).toBe('Con nota de crédito');
    expect(creditedPage).toContain(`Nota de crédito ${numbers(creditNote)}`);
    expect(creditedPage).toContain(creditNote.uuid!);
    expect(state((await staff.request(`/admin/facturas/${plain.id}`)).text)).toBe('Certificada');
  });

  it('the voided invoice’s PDF reads ANULADA; the others’ do not', async () => {
    const staff = await consoleSignedIn(app.baseUrl, admin);
    const text = pdfText((await staff.request(`/admin/facturas/${voided.id}/pdf`)).bytes);
    expect(text).toContain('ANULADA');
    expect(text).toContain(voided.uuid!);
    expect(pdfText((await staff.request(`/admin/facturas/${plain.id}/pdf`)).bytes)).not.toContain('ANULADA');
    const creditedText = pdfText((await staff.request(`/admin/facturas/${credited.id}/pdf`)).bytes);
    expect(creditedText).not.toContain('ANULADA');
    expect(creditedText).toContain(`Nota de crédito ${numbers(creditNote)}`);
  });

  it('each top-up in the integration’s movements links to its invoice', async () => {
    const staff = await consoleSignedIn(app.baseUrl, admin);
    const page = (await staff.request(`/admin/integraciones/${integrationA.id}/movimientos`)).text;
    for (const invoice of [voided, credited, voiding, plain]) expect(page).toContain(`href="/admin/facturas/${invoice.id}"`);
    expect(page).not.toContain(`href="/admin/facturas/${creditedB.id}"`);
  });
});

describe('voided and credited invoices in the portal', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('the list and each page say the standing, with the credit note’s numbers and its XML', async () => {
    for (const email of [people.owner, people.billing]) {
      const person = await portalSignedIn(app.baseUrl, email);
      const list = (await person.request('/portal/facturas')).text;
      expect(rowOf(list, voided, '/portal/facturas')).toContain('>Anulada<');
      expect(rowOf(list, voiding, '/portal/facturas')).toContain('>Anulación en trámite<');
      expect(rowOf(list, credited, '/portal/facturas')).toContain('>Con nota de crédito<');
      expect(rowOf(list, credited, '/portal/facturas')).toContain(`Nota de crédito ${numbers(creditNote)}`);
      expect(rowOf(list, plain, '/portal/facturas')).toContain('>Certificada<');

      const state = (html: string) => /data-testid="invoice-state">([^<]*)</.exec(html)?.[1];
      expect(state((await person.request(`/portal/facturas/${voided.id}`)).text), email).toBe('Anulada');
      expect(state((await person.request(`/portal/facturas/${voiding.id}`)).text)).toBe('Anulación en trámite');
      const page = (await person.request(`/portal/facturas/${credited.id}`)).text;
      expect(state(page)).toBe('Con nota de crédito');
      expect(page).toContain(numbers(creditNote));
      expect(page).toContain(creditNote.uuid!);
      expect(page).toContain(`href="/portal/facturas/${credited.id}/nota-de-credito/xml"`);
      expect((await person.request(`/portal/facturas/${voided.id}`)).text).not.toContain('nota-de-credito/xml');

      const xml = await person.request(`/portal/facturas/${credited.id}/nota-de-credito/xml`);
      expect(xml.status).toBe(200);
      expect(xml.headers.get('content-type')).toBe('application/xml; charset=utf-8');
      expect(xml.headers.get('content-disposition')).toBe(`attachment; filename="nota-de-credito-${numbers(creditNote)}.xml"`);
      expect(xml.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'; frame-ancestors 'none'");
      expect(xml.text).toBe(creditNote.certifiedXml);

      const pdf = pdfText((await person.request(`/portal/facturas/${voided.id}/pdf`)).bytes);
      expect(pdf).toContain('ANULADA');
    }
  });

  it('answers another integration’s credit note, or an invoice without one, as one that does not exist', async () => {
    const owner = await portalSignedIn(app.baseUrl, people.owner);
    const unknown = await owner.request('/portal/facturas/1999999/nota-de-credito/xml');
    expect(unknown.status).toBe(404);
    expectPortalDownloadMissing(unknown, PORTAL_DOWNLOAD_MESSAGES.invoiceNotFound);
    for (const id of [creditedB.id, voided.id, plain.id]) {
      const answer = await owner.request(`/portal/facturas/${id}/nota-de-credito/xml`);
      expect(answer.status, String(id)).toBe(404);
      expect(answer.text).toBe(unknown.text);
      expect(answer.text).not.toContain(creditNoteB.uuid!);
    }
  });
});

describe('the monthly statement', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('marks the voided and credited invoices in its list', async () => {
    const month = guatemalanMonthOf(new Date());
    const issued = await app.withDatabase(() => issueStatement(TEST_ACTOR, integrationA.id, month, new Date(monthPeriod(month).until.getTime() + 86_400_000)));
    if (!issued.ok) throw new Error(issued.error.message);
    const owner = await portalSignedIn(app.baseUrl, people.owner);
    const text = pdfText((await owner.request(`/portal/estados/${issued.value.id}/pdf`)).bytes).replace(/\s+/g, ' ');
    expect(text).toContain(`${numbers(voided)} Anulada ${voided.uuid}`);
    expect(text).toContain(`${numbers(credited)} Con nota de crédito ${credited.uuid}`);
    expect(text).toContain(`${numbers(voiding)} Anulación en trámite ${voiding.uuid}`);
    expect(text).toContain(`${numbers(plain)} ${plain.uuid}`);
  });
});
