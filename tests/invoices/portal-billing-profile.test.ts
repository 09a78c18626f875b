// Issue 64, point 2, as an integrator's accountant meets it, on a built app with FEL on, the
// certifier and Recurrente simulated: without a NIT registered, a card payment of Q 3,000.00 is
// refused before anything is charged (nothing reaches the provider), while a deposit of that size
// approved by the administration is credited at once with its invoice waiting; the billing person
// registers the NIT in «Datos de facturación» (SAT's name read back first), the waiting invoice goes
// out to that NIT, and the same card payment is then credited and invoiced to it once.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/db/client';
import { alertDeliveries, auditLog, integrations, invoices, onlinePayments } from '@/db/schema';
import type { Actor } from '@/lib/core/audit/audit';
import { topUp } from '@/lib/core/billing/ledger';
import { BILLING_MESSAGES, RECEPTOR_MESSAGES } from '@/lib/flows/invoicing/receptor';
import { ONLINE_TOP_UP_MESSAGES } from '@/lib/flows/online-top-ups/messages';
import { PORTAL_INVOICE_STATE_LABELS } from '@/lib/presentation/invoice-labels';
import { guatemalanToday } from '@/lib/platform/time/guatemala-time';
import { FEL_SIM_RECEPTORS } from '@/simulator/fel';
import { startSimulator, type RunningSimulator } from '@/simulator/server';
import type { InvoicesBody, MovementsBody } from '@/lib/surfaces/api/account-schemas';
import { createTestIntegration, credentialHeaders, type TestIntegration } from '@/tests/conformance/harness';
import { expectDocumentedResponse } from '../support/openapi-validator';
import { startApp, type RunningApp } from '../support/app-server';
import { cardTopUpPaid, recurrenteSimulatorSettings } from '../support/online-payments';
import { addPortalMember, portalSignedIn } from '../support/people';
import { says, type PortalClient } from '../support/portal-client';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';

const [EMPRESA] = FEL_SIM_RECEPTORS;
const ADMIN: Actor = { kind: 'user', id: 1, email: 'admin@servicio.example' };
const BILLING = 'conta-perfil@example.com';

let testDatabase: TestDatabase;
let simulator: RunningSimulator;
let app: RunningApp;
let integration: TestIntegration;
let other: TestIntegration;
let billing: PortalClient;

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  simulator = await startSimulator({ port: 0, populationSize: 1_000 });
  await testDatabase.use(async () => {
    integration = await createTestIntegration('perfil-facturacion', { balanceCentavos: 0 });
    other = await createTestIntegration('otra-integracion', { balanceCentavos: 0 });
    await addPortalMember(integration, BILLING, 'facturacion');
  });
  app = await startApp({
    env: {
      ...recurrenteSimulatorSettings(simulator.url),
      FEL_ENABLED: 'true',
      FEL_CERTIFIER_BASE_URL: `${simulator.url}/fel`,
      FEL_NIT_LOOKUP_BASE_URL: `${simulator.url}/fel/receptores`,
      FEL_WORKER_INTERVAL_MS: '200',
      ONLINE_TOP_UP_POLL_MS: '3600000',
      ONLINE_TOP_UP_FEE_BASIS_POINTS: '0',
      ONLINE_TOP_UP_FEE_FIXED_CENTAVOS: '0',
    },
  });
  simulator.recurrente.setWebhookUrl(`${app.baseUrl}/api/pagos/recurrente`);
  billing = await portalSignedIn(app.baseUrl, BILLING);
}, PROCESS_TEST_TIMEOUT_MS);

afterAll(async () => {
  await app?.stop();
  await simulator?.close();
  await testDatabase?.cleanup();
});

const action = (page: string, name: string, input: Record<string, string>) => billing.serverAction(page, name, { ...input, envio: crypto.randomUUID() });

async function invoicesOf(): Promise<Array<typeof invoices.$inferSelect>> {
  return app.withDatabase(async () => (await db()).select().from(invoices).where(eq(invoices.integrationId, integration.id)).orderBy(invoices.id));
}

async function certifiedEventually(count: number): Promise<Array<typeof invoices.$inferSelect>> {
  const ends = Date.now() + 20_000;
  for (;;) {
    const rows = await invoicesOf();
    if (rows.filter((row) => row.state === 'certified').length >= count || Date.now() > ends) return rows;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('a billing profile before money is taken', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('without a NIT, a card payment of Q 3,000.00 is refused before paying and nothing reaches the provider', async () => {
    const page = await billing.request('/portal/recargas');
    expect(page.text).toContain('Su integración no tiene NIT ni CUI registrado');
    expect(page.text).toContain('/portal/facturas/datos');
    const quote = await action('/portal/recargas', 'quoteOnlineTopUpAction', { monto: '3000.00' });
    expect(says(quote, ONLINE_TOP_UP_MESSAGES.receptorNeeded), quote.text.slice(0, 400)).toBe(true);
    const start = await action('/portal/recargas', 'startOnlineTopUpAction', { monto: '3000.00' });
    expect(says(start, ONLINE_TOP_UP_MESSAGES.receptorNeeded)).toBe(true);
    expect(await app.withDatabase(async () => (await db()).select().from(onlinePayments).where(eq(onlinePayments.integrationId, integration.id)))).toEqual([]);
    expect(simulator.recurrente.payments()).toEqual([]);
  });

  it('a deposit of Q 2,600.00 is credited at once, its invoice shown as waiting for the NIT, never sent', async () => {
    const credited = await app.withDatabase(() => topUp(ADMIN, integration.id, 260_000, 'Depósito 5531 de Banrural'));
    expect(credited).toMatchObject({ ok: true, value: { balanceCentavos: 260_000, invoiceAwaitsReceptor: true } });
    const [waiting] = await invoicesOf();
    expect(waiting).toMatchObject({ state: 'awaiting_receptor', totalCentavos: 260_000 });
    const list = await billing.request('/portal/facturas');
    expect(list.text).toContain(PORTAL_INVOICE_STATE_LABELS.awaiting_receptor);
    const data = await billing.request('/portal/facturas/datos');
    expect(data.text).toContain('Una factura espera este dato (Q 2,600.00 ya acreditados a su saldo)');
  });

  it('the billing person registers the NIT with the name SAT has: the waiting invoice goes out to it, and the card payment is then credited and invoiced to it', async () => {
    const page = '/portal/facturas/datos';
    // The address and the e-mail for invoices first: the waiting invoice leaves as soon as the NIT is saved.
    const refused = await action(page, 'saveBillingContactPortalAction', { direccion: '6a. Avenida 1-23, zona 1', correo: 'facturas@' });
    expect(says(refused, BILLING_MESSAGES.emailInvalid)).toBe(true);
    const contact = await action(page, 'saveBillingContactPortalAction', { direccion: '6a. Avenida 1-23, zona 1, Guatemala', correo: 'Facturas@Empresa.com.gt' });
    expect(says(contact, BILLING_MESSAGES.saved), contact.text.slice(0, 400)).toBe(true);
    expect(says(await action(page, 'saveBillingContactPortalAction', { direccion: '6a. Avenida 1-23, zona 1, Guatemala', correo: 'facturas@empresa.com.gt' }), BILLING_MESSAGES.unchanged)).toBe(true);
    const shown = await billing.request(page);
    expect(shown.text).toContain('Dirección fiscal: 6a. Avenida 1-23, zona 1, Guatemala. Correo para facturas: facturas@empresa.com.gt.');
    const audits = await app.withDatabase(async () => (await db()).select().from(auditLog).where(and(eq(auditLog.action, 'integration.set_billing_contact'), eq(auditLog.targetId, String(integration.id)))));
    expect(audits.map((audit) => [audit.actor.includes(BILLING), audit.after])).toEqual([[true, { billingAddress: '6a. Avenida 1-23, zona 1, Guatemala', invoiceEmail: 'facturas@empresa.com.gt' }]]);

    const found = await action(page, 'lookUpBillingReceptorAction', { tipo: 'nit', identificador: '91000001-8' });
    expect(says(found, EMPRESA.name), found.text.slice(0, 400)).toBe(true);
    const saved = await action(page, 'saveBillingReceptorAction', { tipo: 'nit', identificador: EMPRESA.nit, nombre: EMPRESA.name, nombreMostrado: EMPRESA.name });
    expect(says(saved, `${RECEPTOR_MESSAGES.saved} ${RECEPTOR_MESSAGES.released(1)}`), saved.text.slice(0, 400)).toBe(true);
    const [row] = await app.withDatabase(async () => (await db()).select().from(integrations).where(eq(integrations.id, integration.id)));
    // One profile: the integration's razón social and NIT are the ones its invoices name.
    expect(row).toMatchObject({ receptorKind: 'nit', receptorId: EMPRESA.nit, receptorName: EMPRESA.name, legalName: EMPRESA.name, nit: EMPRESA.nit });
    const quote = await action('/portal/recargas', 'quoteOnlineTopUpAction', { monto: '3000.00' });
    expect(says(quote, 'Total a pagar: Q 3,000.00')).toBe(true);
    await cardTopUpPaid(billing, simulator, '3000.00');
    const rows = await certifiedEventually(2);
    expect(rows.map((invoice) => [invoice.totalCentavos, invoice.state, invoice.receptorKind, invoice.receptorId, invoice.receptorName])).toEqual([
      [260_000, 'certified', 'nit', EMPRESA.nit, EMPRESA.name],
      [300_000, 'certified', 'nit', EMPRESA.nit, EMPRESA.name],
    ]);
    for (const invoice of rows) {
      expect(simulator.fel.certificationCount(invoice.identifier)).toBe(1);
      expect(simulator.fel.certification(invoice.identifier)).toMatchObject({ receptorId: EMPRESA.nit });
    }
    // Each certified invoice is e-mailed to the profile's address for invoices (listed as not sent:
    // this app has no mail server). The notice is queued by the invoice's "certified" event, just after.
    const mailedToInvoices = () =>
      app.withDatabase(async () =>
        (await (await db()).select().from(alertDeliveries).where(and(eq(alertDeliveries.integrationId, integration.id), eq(alertDeliveries.condition, 'invoice_issued'), eq(alertDeliveries.channel, 'email')))).filter(
          (delivery) => delivery.target === 'facturas@empresa.com.gt',
        ),
      );
    const ends = Date.now() + 20_000;
    while ((await mailedToInvoices()).length < 2 && Date.now() < ends) await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await mailedToInvoices()).toHaveLength(2);
  });

  it('an ERP reconciles the month through the API alone: each top-up names its invoice, the totals agree, and the documents download (issue 64, point 12)', async () => {
    const api = async (path: string, as = integration) => {
      const response = await fetch(`${app.baseUrl}/api${path}`, { headers: credentialHeaders(as) });
      const contentType = response.headers.get('content-type');
      const body = contentType?.includes('application/json') ? await response.json() : new Uint8Array(await response.arrayBuffer());
      const documented = path
        .split('?')[0]!
        .replace(/\/facturas\/[^/]+\//, '/facturas/{id}/')
        .replace(/\/notas-de-credito\/[^/]+\//, '/notas-de-credito/{nota}/');
      if (contentType?.includes('application/json')) expectDocumentedResponse({ path: documented, method: 'get', status: response.status, contentType, body });
      return { status: response.status, contentType, disposition: response.headers.get('content-disposition'), body };
    };
    const listed = await api('/cuenta/facturas');
    expect(listed.status).toBe(200);
    const { facturas } = listed.body as InvoicesBody;
    expect(facturas.map((invoice) => [invoice.total_centavos, invoice.estado, invoice.receptor.id, invoice.receptor.nombre])).toEqual([
      [300_000, 'certificada', EMPRESA.nit, EMPRESA.name],
      [260_000, 'certificada', EMPRESA.nit, EMPRESA.name],
    ]);
    const movements = ((await api('/cuenta/movimientos?tipo=recarga')).body as MovementsBody).movimientos;
    // Every top-up names its invoice, and the invoices add up to the top-ups.
    expect(movements.map((movement) => movement.factura_id).sort()).toEqual(facturas.map((invoice) => invoice.id).sort());
    expect(movements.reduce((sum, movement) => sum + movement.monto_centavos, 0)).toBe(facturas.reduce((sum, invoice) => sum + invoice.total_centavos, 0));
    for (const invoice of facturas) expect(movements.find((movement) => movement.id === invoice.movimiento_id)?.factura_id).toBe(invoice.id);

    const first = facturas[0]!;
    const xml = await api(first.xml!);
    expect(xml.status).toBe(200);
    expect(xml.contentType).toContain('application/xml');
    expect(xml.disposition).toBe(`attachment; filename="factura-${first.serie}-${first.numero}.xml"`);
    expect(new TextDecoder().decode(xml.body as Uint8Array)).toContain(first.uuid!);
    const pdf = await api(first.pdf!);
    expect(pdf.status).toBe(200);
    expect(new TextDecoder().decode((pdf.body as Uint8Array).slice(0, 5))).toBe('%PDF-');
    // Another integration, and ids that name nothing, get the same 404.
    for (const path of [first.xml!, first.pdf!, `/cuenta/facturas/${first.id}/notas-de-credito/1/xml`, '/cuenta/facturas/999999/xml', '/cuenta/facturas/abc/pdf']) {
      const refused = await api(path, path === first.xml || path === first.pdf ? other : integration);
      expect(refused.status, path).toBe(404);
    }
    expect(((await api('/cuenta/facturas', other)).body as InvoicesBody).facturas).toEqual([]);
    expect((await api('/cuenta/facturas?desde=ayer')).status).toBe(400);
  });

  it('examples/facturas-del-mes.sh reconciles the month from the API and keeps each invoice\'s XML and PDF', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'facturas-del-mes-'));
    try {
      const env = { PATH: process.env.PATH, BASE_URL: `${app.baseUrl}/api`, LOGIN: integration.nombre, TOKEN: integration.token, NODE_ENV: 'production' as const };
      const { stdout } = await promisify(execFile)('bash', ['examples/facturas-del-mes.sh', guatemalanToday().slice(0, 7), folder], { env });
      expect(stdout).toContain('Recargas: Q 5600.00 = facturado Q 5600.00 + sin factura Q 0.00');
      expect(stdout).toContain('Neto facturado: Q 5600.00 (anulado Q 0.00, notas de crédito Q 0.00)');
      expect(stdout).toContain('Las cuentas del mes cuadran.');
      const rows = await invoicesOf();
      for (const invoice of rows) {
        expect(stdout).toContain(`FEL ${invoice.serie}-${invoice.numero} UUID ${invoice.uuid} · Certificada`);
        expect(fs.existsSync(path.join(folder, `factura-${invoice.serie}-${invoice.numero}.xml`))).toBe(true);
        expect(fs.readFileSync(path.join(folder, `factura-${invoice.serie}-${invoice.numero}.pdf`)).subarray(0, 5).toString()).toBe('%PDF-');
      }
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});

