// "Facturas" in the console, over HTTP against the built app with FEL on and the certifier
// simulator: a console top-up's invoice, certified by the app's worker, is listed newest first and
// filtered by state; its page shows SAT's numbers, the amounts and every call to the certifier; its
// certified XML downloads as a file. Support reads all of it; an unknown invoice is the console's
// 404, and the signed out are sent to sign in.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/db/client';
import { invoices, ledgerEntries } from '@/db/schema';
import { createConsoleUser } from '@/lib/flows/auth/users';
import { planSaleInvoice, writeSaleInvoice } from '@/lib/core/invoices/sales';
import { INVOICE_NEXT_STEP, INVOICE_PAGE_MESSAGES } from '@/lib/presentation/invoice-labels';
import { createTestIntegration, type TestIntegration } from '@/tests/conformance/harness';
import { startSimulator, type RunningSimulator } from '../../simulator/server';
import { startApp, type RunningApp } from '../support/app-server';
import { ConsoleClient } from '../support/console-client';
import { says } from '../support/verify-now';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';

let testDatabase: TestDatabase;
let simulator: RunningSimulator;
let app: RunningApp;
let admin: ConsoleClient;
let support: ConsoleClient;
let certifiedTo: TestIntegration;
let refusedTo: TestIntegration;
let refusedInvoiceId: number;

/** The page's text as a reader sees it: no tags, one space between words. */
function text(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/&nbsp;|\u00a0/g, ' ')
    .replace(/\s+/g, ' ');
}

/** The list's rows as text, and the invoice ids they link to, in order. */
async function listed(client: ConsoleClient, path: string): Promise<{ rows: string[]; ids: number[] }> {
  const answer = await client.request(path);
  expect(answer.status, path).toBe(200);
  const rows = [...answer.text.matchAll(/<tr[^>]*data-testid="invoice-row"[^>]*>([\s\S]*?)<\/tr>/g)].map((match) => match[1]!);
  return { rows: rows.map((row) => text(row).trim()), ids: rows.map((row) => Number(/href="\/admin\/facturas\/(\d+)"/.exec(row)![1])) };
}

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  simulator = await startSimulator({ port: 0 });
  const users = await testDatabase.use(async () => {
    // Created with FEL off in this process: their initial balances have no invoice.
    certifiedTo = await createTestIntegration('facturas-certificada', { balanceCentavos: 10_000 });
    refusedTo = await createTestIntegration('facturas-por-corregir', { balanceCentavos: 5_000 });
    // An invoice the certifier refused earlier, to a NIT: the worker never sends it again by itself.
    const database = await db();
    const [entry] = await database.select({ id: ledgerEntries.id }).from(ledgerEntries).where(eq(ledgerEntries.integrationId, refusedTo.id));
    const plan = planSaleInvoice({ id: refusedTo.id, receptorKind: 'nit', receptorId: '576937K', receptorName: 'Cooperativa Ejemplo, R.L.' }, 5_000, { invoices: true, documentType: 'FACT' }, new Date(Date.now() - 60_000));
    if (plan.kind !== 'planned') throw new Error(`planSaleInvoice: ${plan.kind}`);
    await database.transaction((tx) => writeSaleInvoice(tx, plan, entry!.id));
    const [refused] = await database
      .update(invoices)
      .set({ state: 'to_correct', certifier: 'infile', attempts: 1, lastErrorCode: 'FEL_RCP001', lastErrorMessage: 'El NIT del receptor no es válido.' })
      .where(eq(invoices.integrationId, refusedTo.id))
      .returning({ id: invoices.id });
    refusedInvoiceId = refused!.id;
    const createdAdmin = await createConsoleUser({ kind: 'system', name: 'test' }, { email: 'admin-lista-facturas@example.com', name: 'Admin', role: 'admin', mustChangePassword: false });
    const createdSupport = await createConsoleUser({ kind: 'system', name: 'test' }, { email: 'soporte-facturas@example.com', name: 'Soporte', role: 'support', mustChangePassword: false });
    if (!createdAdmin.ok || !createdSupport.ok) throw new Error('createConsoleUser failed');
    return { admin: createdAdmin.value.password, support: createdSupport.value.password };
  });
  app = await startApp({
    env: {
      FEL_ENABLED: 'true',
      FEL_CERTIFIER_BASE_URL: `${simulator.url}/fel`,
      FEL_NIT_LOOKUP_BASE_URL: `${simulator.url}/fel/receptores`,
      FEL_WORKER_INTERVAL_MS: '200',
    },
  });
  admin = new ConsoleClient(app.baseUrl);
  support = new ConsoleClient(app.baseUrl);
  expect(await admin.signIn('admin-lista-facturas@example.com', users.admin)).toBeNull();
  expect(await support.signIn('soporte-facturas@example.com', users.support)).toBeNull();
  // A console top-up with FEL on: credited with its invoice, which the app's worker certifies.
  const credited = await admin.serverAction(`/admin/integraciones/${certifiedTo.id}/saldo`, 'topUpAction', { integrationId: certifiedTo.id, monto: '100.00', nota: 'Depósito 4471', envio: randomUUID() });
  expect(says(credited, 'Recarga de Q 100.00 registrada. Saldo actual: Q 200.00.')).toBe(true);
  const ends = Date.now() + 20_000;
  while ((await listed(support, '/admin/facturas?estado=certified')).rows.length === 0 && Date.now() < ends) await new Promise((resolve) => setTimeout(resolve, 200));
}, PROCESS_TEST_TIMEOUT_MS);

afterAll(async () => {
  await app?.stop();
  await simulator?.close();
  await testDatabase?.cleanup();
});

describe('Facturas in the console', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('lists every invoice newest first, with its integration, receptor, total, state and serie-número', async () => {
    const [certification] = simulator.fel.certifications();
    expect(certification).toBeDefined();
    const all = await listed(support, '/admin/facturas');
    expect(all.rows).toHaveLength(2);
    expect(all.rows[0]).toMatch(new RegExp(`^facturas-certificada \\d{2}/\\d{2}/\\d{4}, [\\d:]+ Consumidor final Q 100\\.00 Certificada ${certification!.serie}-${certification!.numero}$`));
    expect(all.rows[1]).toMatch(/^facturas-por-corregir \d{2}\/\d{2}\/\d{4}, [\d:]+ NIT 576937-K · Cooperativa Ejemplo, R\.L\. Q 50\.00 Por corregir Sin número todavía$/);
    // Administrators read the same list, and find it in the navigation.
    const asAdmin = await admin.request('/admin/facturas');
    expect(asAdmin.status).toBe(200);
    expect(asAdmin.text).toMatch(/<a[^>]*href="\/admin\/facturas"[^>]*>Facturas<\/a>/);
  });

  it('filters by state and by month', async () => {
    const certified = await listed(support, '/admin/facturas?estado=certified');
    expect(certified.rows).toHaveLength(1);
    expect(certified.rows[0]).toContain('facturas-certificada');
    const toCorrect = await listed(support, '/admin/facturas?estado=to_correct');
    expect(toCorrect.ids).toEqual([refusedInvoiceId]);
    expect((await listed(support, '/admin/facturas?estado=indeterminate')).rows).toEqual([]);
    expect(text((await support.request('/admin/facturas?estado=pending')).text)).toContain(INVOICE_PAGE_MESSAGES.noInvoices);
    // A month with none, and this month (Guatemala's calendar) with both.
    expect((await listed(support, '/admin/facturas?mes=2020-01')).rows).toEqual([]);
    const month = new Date(Date.now() - 6 * 3_600_000).toISOString().slice(0, 7);
    expect((await listed(support, `/admin/facturas?mes=${month}`)).rows).toHaveLength(2);
    expect((await listed(support, `/admin/facturas?mes=${month}&estado=to_correct`)).ids).toEqual([refusedInvoiceId]);
  });

  it("shows a certified invoice's numbers, amounts, sale and its attempts, and downloads its certified XML", async () => {
    const [certification] = simulator.fel.certifications();
    const [id] = (await listed(support, '/admin/facturas?estado=certified')).ids;
    const detail = await support.request(`/admin/facturas/${id}`);
    expect(detail.status).toBe(200);
    const page = text(detail.text);
    expect(page).toContain(`Factura ${certification!.serie}-${certification!.numero}`);
    expect(page).toContain(INVOICE_NEXT_STEP.certified);
    expect(page).toContain(`Número de autorización (UUID) ${certification!.uuid}`);
    expect(page).toContain(`Serie ${certification!.serie} Número ${certification!.numero}`);
    expect(page).toMatch(/Certificada \d{2}\/\d{2}\/\d{4}, [\d:]+ Certificador infile/);
    expect(page).toContain('Receptor Consumidor final Subtotal (monto gravable) Q 89.29 IVA Q 10.71 Total Q 100.00');
    expect(page).toMatch(/recarga de Q 100\.00 el \d{2}\/\d{2}\/\d{4}, [\d:]+ \(Depósito 4471\)/);
    expect(detail.text).toContain(`href="/admin/integraciones/${certifiedTo.id}/movimientos?desde=`);
    // One call, certified at once.
    const attempts = [...detail.text.matchAll(/data-testid="invoice-attempt"[^>]*>([\s\S]*?)<\/tr>/g)].map((match) => text(match[1]!).trim());
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatch(/^\d{2}\/\d{2}\/\d{4}, [\d:]+ Certificación Certificada +[\d,]+ ms$/);
    expect(detail.text).toContain(`href="/admin/facturas/${id}/xml"`);
    const xml = await support.request(`/admin/facturas/${id}/xml`);
    expect(xml.status).toBe(200);
    expect(xml.headers.get('content-type')).toContain('application/xml');
    expect(xml.headers.get('content-disposition')).toBe(`attachment; filename="factura-${certification!.serie}-${certification!.numero}.xml"`);
    // The certifier's document, opened rather than saved, gets no scripts and no same-origin rights.
    expect(xml.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'; frame-ancestors 'none'");
    expect(xml.headers.get('cache-control')).toBe('private, no-store');
    expect(xml.text).toContain(certification!.uuid);
    expect(xml.text).toContain('NumeroAutorizacion');
    expect(xml.text).toContain('GranTotal>100.00<');
  });

  it('shows an invoice to correct with what happens next and the certifier\'s message, and no XML', async () => {
    const detail = await support.request(`/admin/facturas/${refusedInvoiceId}`);
    expect(detail.status).toBe(200);
    const page = text(detail.text);
    expect(page).toContain(INVOICE_NEXT_STEP.to_correct);
    expect(page).toContain('Último mensaje del certificador (FEL_RCP001): El NIT del receptor no es válido.');
    expect(page).toContain('Receptor NIT 576937-K · Cooperativa Ejemplo, R.L. Subtotal (monto gravable) Q 44.64 IVA Q 5.36 Total Q 50.00');
    expect(detail.text).not.toContain(`/admin/facturas/${refusedInvoiceId}/xml`);
    const xml = await support.request(`/admin/facturas/${refusedInvoiceId}/xml`);
    expect(xml.status).toBe(404);
    expect(xml.text).toBe(INVOICE_PAGE_MESSAGES.xmlNotFound);
  });

  it("answers an unknown invoice with the console's 404 and sends the signed out to sign in", async () => {
    for (const path of ['/admin/facturas/999999', '/admin/facturas/abc', '/admin/facturas/999999/xml', '/admin/facturas/abc/xml']) {
      expect((await support.request(path)).status, path).toBe(404);
    }
    for (const path of ['/admin/facturas', `/admin/facturas/${refusedInvoiceId}`]) {
      const signedOut = await fetch(`${app.baseUrl}${path}`, { redirect: 'manual' });
      await signedOut.text();
      expect(signedOut.status, path).toBe(307);
      expect(signedOut.headers.get('location')).toContain('/admin/login');
    }
    const download = await fetch(`${app.baseUrl}/admin/facturas/${refusedInvoiceId}/xml`, { redirect: 'manual' });
    expect(download.status).toBe(401);
  });
});
