// Where people see a certified invoice, on the configuration users run: a built app with FEL on,
// against the certifier simulator, its own worker certifying. The console's invoice page offers the
// PDF beside the XML and SAT's verification link; the portal's "Facturas" lists the integration's
// invoices to owners and billing, opens each with the same link and both downloads, refuses
// developers, and answers another integration's invoice as one that does not exist; the monthly
// statement's PDF lists the month's invoices.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/db/client';
import { invoices, type Invoice } from '@/db/schema';
import type { Actor } from '@/lib/core/audit/audit';
import { topUp } from '@/lib/core/billing/ledger';
import { BILLING_READERS } from '@/lib/flows/portal-identity/roles';
import { monthPeriod } from '@/lib/flows/statements/figures';
import { issueStatement } from '@/lib/flows/statements/statements';
import { guatemalanMonthOf } from '@/lib/platform/time/guatemala-time';
import { PORTAL_DOWNLOAD_MESSAGES } from '@/lib/surfaces/portal/downloads';
import { startSimulator, type RunningSimulator } from '../../simulator/server';
import { createTestIntegration, eventually, TEST_ACTOR, type TestIntegration } from '../conformance/harness';
import { startApp, type RunningApp } from '../support/app-server';
import { pdfTextLines } from '../support/pdf-text';
import { addPortalMember, consoleSignedIn, newConsoleUser, portalSignedIn, type ConsoleAccount } from '../support/people';
import { expectPortalDownloadMissing, expectPortalRefusal } from '../support/portal-client';
import { resetEnvCache, useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';

const CASHIER: Actor = { kind: 'user', id: 77, email: 'caja@servicio.example' };
const SAT_PAGE = 'https://felpub.c.sat.gob.gt/verificador-web/publico/vistas/verificacionDte.jsf';
const people = { owner: 'duena@facturas-a.example', billing: 'conta@facturas-a.example', developer: 'dev@facturas-a.example', ownerB: 'duena@facturas-b.example' };

let testDatabase: TestDatabase;
let simulator: RunningSimulator;
let app: RunningApp;
let admin: ConsoleAccount;
let integrationA: TestIntegration;
let integrationB: TestIntegration;
let invoiceA: Invoice;
let invoiceB: Invoice;

function pdfText(bytes: Buffer): string {
  expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
  return pdfTextLines(bytes).join('\n');
}

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  simulator = await startSimulator({ port: 0 });
  const fel = { FEL_ENABLED: 'true', FEL_CERTIFIER_BASE_URL: `${simulator.url}/fel`, FEL_NIT_LOOKUP_BASE_URL: `${simulator.url}/fel/receptores` };
  // The top-ups are credited here, FEL on, as the console would: each writes its pending invoice.
  Object.assign(process.env, fel);
  resetEnvCache();
  await testDatabase.use(async () => {
    integrationA = await createTestIntegration('facturas-a', { balanceCentavos: 0 });
    integrationB = await createTestIntegration('facturas-b', { balanceCentavos: 0 });
    for (const [integration, amount, note] of [
      [integrationA, 11_200, 'Depósito 4410'],
      [integrationB, 98_765, 'Depósito secreto de B'],
    ] as const) {
      const credited = await topUp(CASHIER, integration.id, amount, note);
      if (!credited.ok) throw new Error(credited.error.message);
    }
    await addPortalMember(integrationA, people.owner, 'propietario');
    await addPortalMember(integrationA, people.billing, 'facturacion');
    await addPortalMember(integrationA, people.developer, 'desarrollador');
    await addPortalMember(integrationB, people.ownerB, 'propietario');
    admin = await newConsoleUser('admin@facturas.example', 'admin');
  });
  app = await startApp({ env: { ...fel, FEL_WORKER_INTERVAL_MS: '200', TRUSTED_PROXY_HOPS: '1' } });
  // The app's own worker certifies both.
  const certified = await eventually(
    () => app.withDatabase(async () => (await db()).select().from(invoices).orderBy(invoices.id)),
    (rows) => rows.length === 2 && rows.every((row) => row.state === 'certified'),
    30_000,
    'both invoices certified by the app',
  );
  invoiceA = certified.find((row) => row.integrationId === integrationA.id)!;
  invoiceB = certified.find((row) => row.integrationId === integrationB.id)!;
}, PROCESS_TEST_TIMEOUT_MS);

afterAll(async () => {
  await app?.stop();
  await simulator?.close();
  await testDatabase?.cleanup();
});

describe('a certified invoice in the console', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('offers its PDF beside the XML, and SAT’s verification link', async () => {
    const staff = await consoleSignedIn(app.baseUrl, admin);
    const page = await staff.request(`/admin/facturas/${invoiceA.id}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`href="/admin/facturas/${invoiceA.id}/pdf"`);
    expect(page.text).toContain(`href="/admin/facturas/${invoiceA.id}/xml"`);
    const link = `${SAT_PAGE}?tipo=autorizacion&amp;numero=${invoiceA.uuid}&amp;emisor=576937K&amp;receptor=CF&amp;monto=112.00`;
    expect(page.text).toContain(`href="${link}"`);

    const pdf = await staff.request(`/admin/facturas/${invoiceA.id}/pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    // Sandboxed like the slips and the XML, never the page's policy (the sixth review).
    expect(pdf.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'; frame-ancestors 'none'");
    expect(pdf.headers.get('content-disposition')).toBe(`attachment; filename="factura-${invoiceA.serie}-${invoiceA.numero}.pdf"`);
    const text = pdfText(pdf.bytes);
    for (const expected of [invoiceA.uuid!, invoiceA.serie!, invoiceA.numero!, 'Consumidor Final', 'Q 100.00', 'Q 12.00', 'Q 112.00', 'Sujeto a pagos trimestrales ISR', 'Pasarela de desarrollo']) {
      expect(text, expected).toContain(expected);
    }
    expect(text.replaceAll('\n', '')).toContain(link.replaceAll('&amp;', '&'));

    // An id no invoice has, or not a number: the same 404.
    for (const id of ['2000000', 'x1']) expect((await staff.request(`/admin/facturas/${id}/pdf`)).status).toBe(404);
  });
});

describe('Facturas in the portal', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('lists the integration’s invoices to owners and billing, each with its link, its XML and its PDF', async () => {
    for (const email of [people.owner, people.billing]) {
      const person = await portalSignedIn(app.baseUrl, email);
      const list = await person.request('/portal/facturas');
      expect(list.status, email).toBe(200);
      expect(list.text).toContain(`${invoiceA.serie}-${invoiceA.numero}`);
      expect(list.text).toContain('Certificada');
      expect(list.text).toContain('Q 112.00');
      expect(list.text).not.toContain(invoiceB.serie!);
      expect(list.text).toContain('href="/portal/facturas"');

      const page = await person.request(`/portal/facturas/${invoiceA.id}`);
      expect(page.status).toBe(200);
      expect(page.text).toContain(invoiceA.uuid!);
      expect(page.text).toContain(`${SAT_PAGE}?tipo=autorizacion&amp;numero=${invoiceA.uuid}`);

      const xml = await person.request(`/portal/facturas/${invoiceA.id}/xml`);
      expect(xml.status).toBe(200);
      expect(xml.headers.get('content-type')).toBe('application/xml; charset=utf-8');
      expect(xml.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'; frame-ancestors 'none'");
      expect(xml.text).toContain(invoiceA.uuid!);
      expect(xml.text).toBe(invoiceA.certifiedXml);

      const pdf = await person.request(`/portal/facturas/${invoiceA.id}/pdf`);
      expect(pdf.status).toBe(200);
      expect(pdf.headers.get('content-type')).toBe('application/pdf');
      expect(pdfText(pdf.bytes)).toContain(invoiceA.uuid!);
    }
  });

  it('refuses developers, and answers another integration’s invoice as one that does not exist', async () => {
    const developer = await portalSignedIn(app.baseUrl, people.developer);
    expectPortalRefusal(await developer.request('/portal/facturas'), BILLING_READERS);
    expectPortalRefusal(await developer.request(`/portal/facturas/${invoiceA.id}`), BILLING_READERS);
    expectPortalRefusal(await developer.request(`/portal/facturas/${invoiceA.id}/pdf`), BILLING_READERS, 'descarga');

    const owner = await portalSignedIn(app.baseUrl, people.owner);
    for (const suffix of ['', '/xml', '/pdf']) {
      const [ofB, unknown] = [await owner.request(`/portal/facturas/${invoiceB.id}${suffix}`), await owner.request(`/portal/facturas/1999999${suffix}`)];
      expect(ofB.status, suffix).toBe(404);
      expect(unknown.status, suffix).toBe(404);
      expect(ofB.text).not.toContain(invoiceB.uuid!);
      expect(ofB.text).not.toContain(invoiceB.serie!);
      if (suffix) {
        expectPortalDownloadMissing(ofB, PORTAL_DOWNLOAD_MESSAGES.invoiceNotFound);
        expect(ofB.text, suffix).toBe(unknown.text);
      } else {
        // The page's flight data carries nonces and the id asked for: tests/portal/portal-isolation.test.ts compares it whole.
        for (const answer of [ofB, unknown]) expect(answer.text).toContain('No existe esa factura en su integración');
      }
    }
  });
});

describe('the monthly statement', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('lists in its PDF the invoices of its month’s top-ups', async () => {
    // The running month's statement, issued as if the month had ended.
    const month = guatemalanMonthOf(new Date());
    const issued = await app.withDatabase(() => issueStatement(TEST_ACTOR, integrationA.id, month, new Date(monthPeriod(month).until.getTime() + 86_400_000)));
    if (!issued.ok) throw new Error(issued.error.message);
    const owner = await portalSignedIn(app.baseUrl, people.owner);
    const pdf = await owner.request(`/portal/estados/${issued.value.id}/pdf`);
    expect(pdf.status).toBe(200);
    const text = pdfText(pdf.bytes);
    expect(text).toContain('Facturas de las recargas');
    expect(text).toContain(`${invoiceA.serie}-${invoiceA.numero}`);
    expect(text).toContain(invoiceA.uuid!);
    expect(text).not.toContain(invoiceB.uuid!);
  });
});
