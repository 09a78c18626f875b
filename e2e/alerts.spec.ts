// Alerts in the console (issue 14, point 7): an admin sets an integration's low-balance threshold
// in quetzales and sees it saved; a tariff raised above the balance makes the app send an alert
// (to the webhook receiver the global setup started), which the "Alertas" page lists as sent; a
// support user sees the threshold and the page but has no form to change it. Issue 32, point 3:
// the page says this deployment sends no e-mail, and "Enviar aviso de prueba" reaches the alert
// webhook and is listed as sent (1366 and 390 px, axe); support has no button and the server
// refuses its call.
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { callServerAction, openConsoleAsAdmin, screenshot, seriousAccessibilityViolations, settings, signInFirstTime } from './support/console';

test.describe.serial('alertas: umbral de saldo bajo y envíos', () => {
  const integrationName = `e2e-alertas-${Date.now().toString(36)}`;
  const supportEmail = `soporte-alertas-${Date.now().toString(36)}@example.com`;
  let adminContext: BrowserContext;
  let admin: Page;
  let integrationUrl = '';

  test.beforeAll(async ({ browser }) => {
    const { baseUrl } = settings();
    adminContext = await browser.newContext();
    admin = await adminContext.newPage();
    await openConsoleAsAdmin(admin);
    // Tariff Q 1.00 and Q 2.00 of balance: two lookups' worth.
    await admin.goto(`${baseUrl}/admin/integraciones/nueva`);
    await admin.getByLabel('Nombre (login)').fill(integrationName);
    await admin.getByLabel('Tarifa por consulta de catálogo (Q)').fill('1.00');
    await admin.getByLabel('Saldo inicial (Q, opcional)').fill('2.00');
    await admin.getByRole('button', { name: 'Crear integración' }).click();
    await expect(admin.getByTestId('new-token')).toHaveText(/^tlk_/);
    await admin.getByRole('link', { name: 'Ir a la integración' }).click();
    await expect(admin.getByRole('heading', { name: integrationName, level: 1 })).toBeVisible();
    // The threshold and the tariff are in "Saldo y estados de cuenta".
    integrationUrl = `${admin.url()}/saldo`;
    await admin.goto(integrationUrl);
  });

  test.afterAll(async () => {
    await adminContext?.close();
  });

  test('el admin fija el umbral en quetzales y queda guardado', async ({}, testInfo) => {
    const section = admin.getByRole('region', { name: 'Alerta de saldo bajo' });
    await expect(section.getByTestId('low-balance-alert')).toContainText('cuando el saldo baja de Q 100.00 (umbral predeterminado)');
    await expect(section.getByLabel('Umbral de alerta (Q)')).toHaveValue('');

    await section.getByLabel('Umbral de alerta (Q)').fill('-1');
    await section.getByRole('button', { name: 'Guardar umbral' }).click();
    await expect(section.locator('.field .error')).toHaveText('El umbral no puede ser negativo.');

    await section.getByLabel('Umbral de alerta (Q)').fill('1.50');
    await section.getByRole('button', { name: 'Guardar umbral' }).click();
    await expect(section.getByText('Se avisará cuando el saldo baje de Q 1.50.')).toBeVisible();
    await expect(section.getByTestId('low-balance-alert')).toContainText('cuando el saldo baja de Q 1.50 (umbral propio de esta integración)');
    await admin.reload();
    await expect(admin.getByRole('region', { name: 'Alerta de saldo bajo' }).getByLabel('Umbral de alerta (Q)')).toHaveValue('1.50');
    await screenshot(admin, testInfo, 'alerta-de-saldo-bajo');
  });

  test('una tarifa que el saldo ya no paga envía una alerta, y la página Alertas la muestra enviada', async ({}, testInfo) => {
    const { baseUrl } = settings();
    await admin.goto(integrationUrl);
    await admin.getByLabel('Tarifa por consulta (Q)').fill('3.00');
    await admin.getByRole('button', { name: 'Guardar tarifa' }).click();
    await admin.getByRole('dialog', { name: `¿Cambiar la tarifa de «${integrationName}»?` }).getByRole('button', { name: 'Guardar tarifa Q 3.00' }).click();
    await expect(admin.getByText('Tarifa actualizada a Q 3.00 por consulta.')).toBeVisible();

    await admin.getByRole('link', { name: 'Ver alertas enviadas' }).click();
    await expect(admin.getByRole('heading', { name: 'Alertas', level: 1 })).toBeVisible();
    await expect(admin.getByTestId('alert-channels')).toContainText('Canales: Webhook.');
    // The app sends it off the request path, within moments.
    const delivery = admin.getByTestId('alert-deliveries').locator('tbody tr', { hasText: integrationName });
    await expect(async () => {
      await admin.goto(`${baseUrl}/admin/alertas`);
      await expect(delivery).toHaveAttribute('data-status', 'sent', { timeout: 500 });
    }).toPass({ timeout: 15_000 });
    await expect(delivery).toHaveCount(1);
    await expect(delivery).toContainText(`Saldo agotado: ${integrationName}`);
    await expect(delivery).toContainText('Webhook');
    await expect(delivery).toContainText('Enviada');
    await screenshot(admin, testInfo, 'alertas');
  });

  test('sin servidor de correo lo dice; «Enviar aviso de prueba» llega al webhook de alertas y aparece enviado', async ({}, testInfo) => {
    const { baseUrl } = settings();
    await admin.goto(`${baseUrl}/admin/alertas`);
    await expect(admin.getByTestId('email-not-configured')).toContainText(
      'El correo no está configurado en este servicio: no se envía ningún correo, ni alertas a los administradores ni avisos a los contactos de las integraciones.',
    );
    await admin.getByTestId('alert-test').getByRole('button', { name: 'Enviar aviso de prueba' }).click();
    const outcome = admin.getByTestId('test-notice-outcome');
    await expect(outcome).toHaveText(/^Entregado a http:\/\/127\.0\.0\.1:\d+\/…: respondió 204\.$/, { timeout: 20_000 });
    await expect(outcome).toHaveClass(/success/);
    const delivery = admin.getByTestId('alert-deliveries').locator('tbody tr', { hasText: 'Aviso de prueba' });
    await expect(delivery).toHaveCount(1);
    await expect(delivery).toHaveAttribute('data-status', 'sent');
    await expect(delivery).toContainText('Webhook');
    await expect(delivery).toContainText('Enviada');
    for (const [viewport, name] of [
      [{ width: 1366, height: 900 }, '1366'],
      [{ width: 390, height: 844 }, '390'],
    ] as const) {
      await admin.setViewportSize(viewport);
      await screenshot(admin, testInfo, `alertas-prueba-${name}`);
      const widths = await admin.evaluate(() => ({ page: document.documentElement.scrollWidth, screen: window.innerWidth }));
      expect(widths.page, `la página es más ancha que la pantalla a ${name} px`).toBeLessThanOrEqual(viewport.width);
      expect(await seriousAccessibilityViolations(admin)).toEqual([]);
    }
    await admin.setViewportSize({ width: 1280, height: 800 });
  });

  test('soporte ve el umbral y las alertas, sin formulario para cambiarlo', async ({ browser }, testInfo) => {
    const { baseUrl } = settings();
    await admin.goto(`${baseUrl}/admin/usuarios`);
    await admin.getByLabel('Correo electrónico').fill(supportEmail);
    await admin.getByLabel('Nombre', { exact: true }).fill('Soporte de alertas');
    await admin.getByRole('button', { name: 'Crear usuario' }).click();
    const supportPassword = (await admin.getByTestId('new-user-password').textContent())!.trim();

    const supportContext = await browser.newContext();
    try {
      const support = await supportContext.newPage();
      await signInFirstTime(support, supportEmail, supportPassword);
      await support.goto(integrationUrl);
      const section = support.getByRole('region', { name: 'Alerta de saldo bajo' });
      await expect(section.getByTestId('low-balance-alert')).toContainText('cuando el saldo baja de Q 1.50 (umbral propio de esta integración)');
      await expect(section.getByLabel('Umbral de alerta (Q)')).toHaveCount(0);
      await expect(section.getByRole('button', { name: 'Guardar umbral' })).toHaveCount(0);
      await screenshot(support, testInfo, 'alerta-de-saldo-bajo-soporte');

      await section.getByRole('link', { name: 'Ver alertas enviadas' }).click();
      await expect(support.getByRole('heading', { name: 'Alertas', level: 1 })).toBeVisible();
      await expect(support.getByTestId('alert-deliveries')).toContainText(`Saldo agotado: ${integrationName}`);
      // The test notice: no button, and the server refuses the call whatever the browser sends.
      await expect(support.getByRole('button', { name: 'Enviar aviso de prueba' })).toHaveCount(0);
      expect(await callServerAction(support, 'sendTestAlertAction', {})).toContain('esta acción requiere un administrador');
      await expect(support.getByTestId('alert-deliveries').locator('tbody tr', { hasText: 'Aviso de prueba' })).toHaveCount(1);
    } finally {
      await supportContext.close();
    }
  });
});
