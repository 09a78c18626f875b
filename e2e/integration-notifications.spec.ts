// An integration's notifications (issue 25, point 1): an administrator sets its webhook (an
// http:// URL is refused; the signing secret is shown once), turns a kind off for a contact, and
// sees the section at phone width; support staff see it read-only, and the server refuses
// support's change whatever the browser sends.
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { callServerAction, createUserThroughForm, screenshot, settings, signInFirstTime, signInThroughForm } from './support/console';

const FORBIDDEN = 'esta acción requiere un administrador';
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1366, height: 900 };

test.describe.serial('notificaciones al integrador', () => {
  let adminContext: BrowserContext;
  let admin: Page;
  let integrationUrl = '';
  let integrationId = 0;
  const nombre = `avisos-${Date.now().toString(36)}`;

  test.beforeAll(async ({ browser }) => {
    const { adminEmail, adminPassword } = settings();
    adminContext = await browser.newContext({ viewport: DESKTOP });
    admin = await adminContext.newPage();
    await signInThroughForm(admin, adminEmail, adminPassword);
    await admin.goto(`${settings().baseUrl}/admin/integraciones/nueva`);
    await admin.getByLabel('Nombre (login)').fill(nombre);
    await admin.getByRole('button', { name: 'Crear integración' }).click();
    await admin.getByRole('link', { name: 'Ir a la integración' }).click();
    await expect(admin.getByRole('heading', { name: nombre, level: 1 })).toBeVisible();
    integrationUrl = admin.url();
    integrationId = Number(/\/admin\/integraciones\/(\d+)/.exec(integrationUrl)![1]);
  });

  test.afterAll(async () => {
    await adminContext?.close();
  });

  const section = (page: Page) => page.getByTestId('integration-notifications');

  test('el administrador configura el webhook: http:// se rechaza, el secreto se muestra una vez', async ({}, testInfo) => {
    await expect(admin.getByTestId('webhook-current')).toHaveText('Sin webhook: solo correos.');
    await section(admin).getByTestId('webhook-url').fill('http://avisos.example.com/pasarela');
    await section(admin).getByRole('button', { name: 'Guardar webhook' }).click();
    await expect(section(admin).getByText('La URL del webhook debe empezar con https://.').first()).toBeVisible();

    await section(admin).getByTestId('webhook-url').fill('https://avisos.example.com/pasarela/hook?token=abc123456789');
    await section(admin).getByRole('button', { name: 'Guardar webhook' }).click();
    const secret = section(admin).getByTestId('webhook-secret');
    await expect(secret).toContainText('whsec_');
    // Read back with its path; the token in the query never appears.
    await expect(admin.getByTestId('webhook-current')).toHaveText('https://avisos.example.com/pasarela/hook?••••');
    await section(admin).scrollIntoViewIfNeeded();
    await screenshot(admin, testInfo, 'notificaciones-01-webhook-1366');
    await admin.reload();
    await expect(section(admin).getByTestId('webhook-secret')).toHaveCount(0);
    await expect(section(admin)).not.toContainText('abc123456789');
  });

  test('el administrador desactiva un aviso para un destinatario; queda guardado', async ({}, testInfo) => {
    const lowForBilling = section(admin).getByTestId('notification-switch-billing-balance_low');
    await expect(lowForBilling).toHaveAttribute('aria-checked', 'true');
    await lowForBilling.click();
    await expect(lowForBilling).toHaveAttribute('aria-checked', 'false');
    await admin.reload();
    await expect(section(admin).getByTestId('notification-switch-billing-balance_low')).toHaveAttribute('aria-checked', 'false');
    await expect(section(admin).getByTestId('notification-switch-webhook-balance_low')).toHaveAttribute('aria-checked', 'true');
    await admin.setViewportSize(PHONE);
    await section(admin).scrollIntoViewIfNeeded();
    await screenshot(admin, testInfo, 'notificaciones-02-avisos-390');
    await admin.setViewportSize(DESKTOP);
  });

  test('soporte ve la sección sin poder cambiarla, y el servidor rechaza su cambio', async ({ browser }) => {
    const email = `soporte-avisos-${Date.now().toString(36)}@example.com`;
    const password = await createUserThroughForm(admin, email, 'Soporte avisos');
    const supportContext = await browser.newContext({ viewport: DESKTOP });
    const support = await supportContext.newPage();
    await signInFirstTime(support, email, password);
    await support.goto(integrationUrl);
    await expect(support.getByTestId('webhook-current')).toHaveText('https://avisos.example.com/pasarela/hook?••••');
    await expect(section(support).getByTestId('webhook-url')).toHaveCount(0);
    await expect(section(support).getByTestId('notification-switch-technical-token_revoked')).toBeDisabled();
    for (const [action, input] of [
      ['setNotificationWebhookAction', { integrationId: String(integrationId), url: 'https://otro.example.com/hook' }],
      ['setNotificationEnabledAction', { integrationId: String(integrationId), recipient: 'billing', kind: 'balance_low', enabled: 'true' }],
      ['removeNotificationWebhookAction', { integrationId: String(integrationId) }],
    ] as const) {
      expect(await callServerAction(support, action, input)).toContain(FORBIDDEN);
    }
    await support.reload();
    await expect(support.getByTestId('webhook-current')).toHaveText('https://avisos.example.com/pasarela/hook?••••');
    await expect(section(support).getByTestId('notification-switch-billing-balance_low')).toHaveAttribute('aria-checked', 'false');
    await supportContext.close();
  });
});
