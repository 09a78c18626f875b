// Issue 56's first "done when", in chromium: a billing person pays a top-up by card on the
// simulator's hosted checkout page, comes back to the portal's return page, and the balance is
// credited once (however often the page is opened), its FEL invoice shows in Facturas, and the
// console's Recargas lists the payment with the provider's payment id. Then issue 64's accountant's
// walk: the billing profile set before paying names the invoice, its PDF and XML download, the
// administrator refunds the payment, and the portal tells it as refunded with its credit note, in
// the statement's preview too, with no internal code anywhere the accountant reads.
import { expect, test } from '@playwright/test';
import { openConsoleAsAdmin, settings } from './support/console';
import { acceptPrintedInvitation, checkBothSizes, createIntegrationThroughConsole, DESKTOP, inviteThroughConsole, openSection } from './support/portal';

const PASSWORD = 'volcanes y lagos del altiplano occidental';

test('una persona de facturación paga una recarga con tarjeta en la página del proveedor y el saldo se acredita una vez', async ({ browser }, testInfo) => {
  test.setTimeout(300_000);
  const { baseUrl } = settings();
  const stamp = Date.now().toString(36);
  const nombre = `pago-linea-${stamp}`;
  const billingEmail = `tarjeta-${stamp}@example.com`;

  const adminContext = await browser.newContext({ viewport: DESKTOP, extraHTTPHeaders: { 'x-forwarded-for': '10.63.0.1' } });
  const admin = await adminContext.newPage();
  await openConsoleAsAdmin(admin);
  const { id } = await createIntegrationThroughConsole(admin, { nombre, balance: '100.00' });
  await inviteThroughConsole(admin, id, billingEmail, 'Facturación');

  const context = await browser.newContext({ viewport: DESKTOP, extraHTTPHeaders: { 'x-forwarded-for': '10.63.0.2' } });
  const billing = await context.newPage();
  await acceptPrintedInvitation(billing, { email: billingEmail, name: 'Ana Contreras', password: PASSWORD }, nombre);

  // The billing profile first: the NIT, named as SAT names it, and the fiscal address.
  await billing.goto(`${baseUrl}/portal/facturas/datos`);
  await billing.getByLabel('NIT', { exact: true }).fill('91000001-8');
  await billing.getByRole('button', { name: 'Consultar' }).click();
  await expect(billing.getByTestId('receptor-found')).toContainText('EMPRESA DE PRUEBA FEL, SOCIEDAD ANONIMA');
  await billing.getByRole('button', { name: 'Guardar como receptor de mis facturas' }).click();
  await expect(billing.getByTestId('billing-receptor')).toContainText('NIT 91000001-8 · EMPRESA DE PRUEBA FEL, SOCIEDAD ANONIMA');
  await expect(billing.getByTestId('receptor-change')).not.toHaveAttribute('open');
  await billing.getByLabel('Dirección fiscal').fill('6a. Avenida 1-23, zona 1, Guatemala');
  await billing.getByRole('button', { name: 'Guardar dirección y correo' }).click();
  await expect(billing.getByTestId('billing-contact')).toContainText('Dirección fiscal: 6a. Avenida 1-23, zona 1, Guatemala.');

  // The amount, then the fee and the total before paying; Recargas names whom the invoice will name.
  await openSection(billing, 'Recargas');
  await expect(billing.getByTestId('top-up-receptor')).toContainText('EMPRESA DE PRUEBA FEL, SOCIEDAD ANONIMA');
  await expect(billing.getByTestId('portal-current-balance')).toHaveText('Q 100.00');
  await billing.getByLabel('Monto a acreditar (Q)').fill('200.00');
  await billing.getByRole('button', { name: 'Ver el total a pagar' }).click();
  const confirmation = billing.getByTestId('online-top-up-confirmation');
  await expect(confirmation).toContainText('Q 200.00');
  await confirmation.getByRole('button', { name: /^Pagar Q/ }).click();

  // The provider's hosted page (the simulator's): an approved card, then back to the portal.
  await billing.waitForURL(/\/recurrente\/checkout-session\//);
  await billing.getByLabel(/\(aprobada\)/).check();
  await billing.getByRole('button', { name: /^Pagar/ }).click();
  await billing.waitForURL(/\/portal\/recargas\/pagos\/recarga-/);
  const paymentUrl = billing.url();
  // Credited by the webhook or by the page's own read at the provider, never by the return itself.
  await expect(async () => {
    await billing.reload();
    await expect(billing.getByTestId('online-payment-state')).toHaveText('Acreditado', { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await expect(billing.getByTestId('online-payment-explanation')).toContainText('El pago se acreditó a su saldo.');
  await checkBothSizes(billing, testInfo, 'pago-en-linea');

  // Once: coming back to the page again credits nothing more.
  await billing.goto(paymentUrl);
  await expect(billing.getByTestId('online-payment-state')).toHaveText('Acreditado');
  await openSection(billing, 'Recargas');
  await expect(billing.getByTestId('portal-current-balance')).toHaveText('Q 300.00');
  await expect(billing.getByTestId('portal-online-payment-row')).toHaveCount(1);
  await expect(billing.getByTestId('portal-online-payment-row')).toContainText('Acreditado');

  // Its FEL invoice, certified by the simulator's certifier within seconds.
  await expect(async () => {
    await openSection(billing, 'Facturas');
    await expect(billing.getByTestId('portal-invoice').filter({ hasText: 'Q 200.00' })).toContainText('Certificada', { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });

  // The console lists it in Recargas, with the provider's payment id, and its page says what happened.
  await admin.goto(`${baseUrl}/admin/recargas`);
  const row = admin.getByTestId('console-online-payment-row').filter({ hasText: nombre });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Acreditado');
  await expect(row).toContainText(/recurrente pa_/);
  await row.getByRole('link', { name: /^recarga-/ }).click();
  await expect(admin.getByTestId('console-online-payment-state')).toHaveText('Acreditado');
  await expect(admin.getByTestId('console-online-payment-event').filter({ hasText: 'Acreditado' })).toHaveCount(1);

  // The invoice names the profile, and its PDF and XML download.
  await openSection(billing, 'Facturas');
  await billing.getByTestId('portal-invoice').filter({ hasText: 'Q 200.00' }).getByRole('link').first().click();
  await expect(billing.getByTestId('invoice-state')).toHaveText('Certificada');
  await expect(billing.getByTestId('invoice-details')).toContainText('EMPRESA DE PRUEBA FEL, SOCIEDAD ANONIMA');
  const invoiceUrl = billing.url();
  for (const [link, type] of [['invoice-pdf', 'application/pdf'], ['invoice-xml', 'xml']] as const) {
    const href = await billing.getByTestId(link).getAttribute('href');
    const download = await billing.request.get(`${baseUrl}${href}`);
    expect(download.status(), link).toBe(200);
    expect(download.headers()['content-type'], link).toContain(type);
  }

  // The administrator refunds the whole payment from its console page.
  await admin.goto(`${baseUrl}/admin/recargas`);
  await admin.getByTestId('console-online-payment-row').filter({ hasText: nombre }).getByRole('link', { name: /^recarga-/ }).click();
  await admin.getByTestId('refund-reason').fill('Pago duplicado');
  await admin.getByRole('button', { name: 'Reembolsar el pago' }).click();
  await admin.getByRole('dialog').getByRole('button', { name: 'Reembolsar' }).click();

  // The portal tells it truly: refunded, with its credit note, on the payment, the invoice and the statement.
  await expect(async () => {
    await billing.goto(paymentUrl);
    await expect(billing.getByTestId('online-payment-state')).toHaveText('Reembolsado', { timeout: 1_000 });
    await billing.goto(invoiceUrl);
    await expect(billing.getByTestId('invoice-state')).toHaveText('Con nota de crédito', { timeout: 1_000 });
  }).toPass({ timeout: 60_000 });
  await expect(billing.getByTestId('invoice-reversal')).toContainText('nota de crédito');
  await billing.goto(`${baseUrl}/portal/estados/vista-previa`);
  const invoices = billing.getByTestId('preview-invoices');
  await expect(invoices).toContainText('Con nota de crédito');
  await expect(invoices).toContainText('Nota de crédito');
  await expect(billing.getByTestId('statement-preview')).toContainText('Dirección fiscal: 6a. Avenida 1-23, zona 1, Guatemala');

  // No internal field name, state code, provider id or raw identifier in what the accountant reads.
  const internal = /recarga-[0-9a-f]{8}|\bpa_[0-9a-z]|ledgerEntryId|[a-z]+Centavos|credit_note|void_pending|pending_transfer|\bstate:|depositDate|integrator:\d/;
  for (const page of ['/portal/movimientos', '/portal/actividad', paymentUrl.replace(baseUrl, ''), invoiceUrl.replace(baseUrl, ''), '/portal/estados/vista-previa', '/portal/facturas', '/portal/recargas']) {
    await billing.goto(`${baseUrl}${page}`);
    expect(await billing.locator('main').innerText(), page).not.toMatch(internal);
  }
  await adminContext.close();
  await context.close();
});
