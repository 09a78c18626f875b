// Issue 56's first "done when", in chromium: a billing person pays a top-up by card on the
// simulator's hosted checkout page, comes back to the portal's return page, and the balance is
// credited once (however often the page is opened), its FEL invoice shows in Facturas, and the
// console's Recargas lists the payment with the provider's payment id.
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

  // The amount, then the fee and the total before paying.
  await openSection(billing, 'Recargas');
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
  await adminContext.close();
  await context.close();
});
