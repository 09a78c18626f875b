// An integration's notifications (issue 25, point 1; issue 32, point 3): on this deployment, which
// has no mail server, the section says plainly that no e-mail leaves and lists the e-mails that
// were due as not sent. An administrator sets its webhook (an http:// URL is refused; the signing
// secret is shown once; the URL reads back with its path and its query masked, in the section and
// in the audit), sends a test notice (a name that does not resolve: listed with its reason in
// Spanish, the technical text under a detail), turns a kind off for a contact, and sees the section
// at 1366 and 390 px with nothing serious for axe; support staff see it read-only, and the server
// refuses support's changes and test notices whatever the browser sends.
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { callServerAction, createUserThroughForm, openConsoleAsAdmin, screenshot, seriousAccessibilityViolations, settings, signInFirstTime } from './support/console';

const FORBIDDEN = 'esta acción requiere un administrador';
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1366, height: 900 };
// .invalid never resolves (RFC 2606): the delivery fails the same way on every machine. A public
// receiver is what the SSRF rules allow here; a local one would be refused by design.
const WEBHOOK = 'https://avisos.pasarela.invalid/pasarela/hook?token=abc123456789';
const WEBHOOK_READ_BACK = 'https://avisos.pasarela.invalid/pasarela/hook?••••';

test.describe.serial('notificaciones al integrador', () => {
  let adminContext: BrowserContext;
  let admin: Page;
  let integrationUrl = '';
  let integrationId = 0;
  const nombre = `avisos-${Date.now().toString(36)}`;
  const technicalEmail = `tecnica@${nombre}.example.com`;

  test.beforeAll(async ({ browser }) => {
    adminContext = await browser.newContext({ viewport: DESKTOP });
    admin = await adminContext.newPage();
    await openConsoleAsAdmin(admin);
    await admin.goto(`${settings().baseUrl}/admin/integraciones/nueva`);
    await admin.getByLabel('Nombre (login)').fill(nombre);
    await admin.getByRole('group', { name: 'Contacto técnico' }).getByLabel('Correo').fill(technicalEmail);
    await admin.getByRole('button', { name: 'Crear integración' }).click();
    await admin.getByRole('link', { name: 'Ir a la integración' }).click();
    await expect(admin.getByRole('heading', { name: nombre, level: 1 })).toBeVisible();
    integrationId = Number(/\/admin\/integraciones\/(\d+)/.exec(admin.url())![1]);
    integrationUrl = `${settings().baseUrl}/admin/integraciones/${integrationId}/notificaciones`;
    await admin.goto(integrationUrl);
  });

  test.afterAll(async () => {
    await adminContext?.close();
  });

  const section = (page: Page) => page.getByTestId('integration-notifications');
  const notices = (page: Page) => section(page).getByTestId('integration-notification-list').locator('tbody tr');

  test('sin servidor de correo lo dice, y el correo que tocaba aparece como no enviado', async () => {
    await expect(section(admin).getByTestId('email-not-configured')).toContainText('El correo no está configurado en este servicio: no se envía ningún correo');
    await expect(admin.getByTestId('webhook-current')).toHaveText('Sin webhook, y el correo no está configurado en este servicio: esta integración no recibe ningún aviso.');
    await expect(section(admin).getByTestId('notification-recipient-technical')).toContainText(`${technicalEmail} · no recibe correos`);

    // Revoking its token (in its credentials) is due to the technical contact.
    await admin.goto(`${settings().baseUrl}/admin/integraciones/${integrationId}/credenciales`);
    await admin.getByTestId('revoke-token-choice').selectOption({ index: 0 });
    await admin.getByRole('button', { name: 'Revocar token' }).click();
    await admin.getByRole('dialog').getByRole('button', { name: 'Revocar token' }).click();
    await expect(admin.getByText('ya no funciona en ninguna instancia')).toBeVisible();
    await admin.goto(integrationUrl);
    const revoked = notices(admin).filter({ hasText: 'Un token fue revocado' });
    await expect(revoked).toHaveCount(1);
    await expect(revoked).toContainText(`Contacto técnico · ${technicalEmail}`);
    await expect(revoked).toContainText('No enviado');
    await expect(revoked).toContainText('correo no configurado en este servicio');
    await expect(revoked).toHaveAttribute('data-status', 'not_sent');
  });

  test('el administrador configura el webhook: http:// se rechaza, el secreto se muestra una vez, la URL se lee con su ruta', async ({}, testInfo) => {
    await section(admin).getByTestId('webhook-url').fill('http://avisos.example.com/pasarela');
    await section(admin).getByRole('button', { name: 'Guardar webhook' }).click();
    await expect(section(admin).getByText('La URL del webhook debe empezar con https://.').first()).toBeVisible();

    await section(admin).getByTestId('webhook-url').fill(WEBHOOK);
    await section(admin).getByRole('button', { name: 'Guardar webhook' }).click();
    const secret = section(admin).getByTestId('webhook-secret');
    await expect(secret).toContainText('whsec_');
    await expect(section(admin).getByTestId('webhook-saved')).toHaveText(`Webhook guardado: ${WEBHOOK_READ_BACK}`);
    // Read back with its path; the token in the query never appears.
    await expect(admin.getByTestId('webhook-current')).toHaveText(WEBHOOK_READ_BACK);
    await section(admin).scrollIntoViewIfNeeded();
    await screenshot(admin, testInfo, 'notificaciones-01-webhook-1366');
    await admin.reload();
    await expect(section(admin).getByTestId('webhook-secret')).toHaveCount(0);
    await expect(section(admin)).not.toContainText('abc123456789');

    // The audit says the same.
    await admin.goto(`${settings().baseUrl}/admin/auditoria?tipo=integration&id=${integrationId}`);
    const entry = admin.locator('tbody tr', { hasText: 'Configuró el webhook de avisos' });
    await expect(entry).toContainText('Webhook de avisos');
    await expect(entry).toContainText(WEBHOOK_READ_BACK);
    await expect(admin.locator('main')).not.toContainText('abc123456789');
    await admin.goto(integrationUrl);
  });

  test('«Enviar aviso de prueba»: la entrega aparece en la lista con su motivo en español y el detalle técnico plegado', async ({}, testInfo) => {
    await section(admin).getByRole('button', { name: 'Enviar aviso de prueba' }).click();
    const outcome = section(admin).getByTestId('test-notice-outcome');
    await expect(outcome).toContainText(`No se entregó a ${WEBHOOK_READ_BACK}: no se encontró el servidor avisos.pasarela.invalid: revise el nombre en la URL. Se reintenta`, {
      timeout: 20_000,
    });
    await expect(outcome).toHaveClass(/error/);

    const delivery = notices(admin).filter({ hasText: 'Aviso de prueba' });
    await expect(delivery).toHaveCount(1);
    await expect(delivery).toContainText(`Webhook · ${WEBHOOK_READ_BACK}`);
    await expect(delivery).toHaveAttribute('data-status', 'pending');
    await expect(delivery).toContainText('nuevo intento');
    await expect(delivery.getByTestId('delivery-error')).toHaveText('no se encontró el servidor avisos.pasarela.invalid: revise el nombre en la URL');
    const detail = delivery.locator('details', { hasText: 'Detalle técnico' });
    await expect(detail.locator('pre')).toBeHidden();
    await detail.getByText('Detalle técnico').click();
    await expect(detail.locator('pre')).toContainText('ENOTFOUND');
    await expect(detail.locator('pre')).not.toContainText('abc123456789');

    for (const [viewport, name] of [
      [DESKTOP, '1366'],
      [PHONE, '390'],
    ] as const) {
      await admin.setViewportSize(viewport);
      await delivery.scrollIntoViewIfNeeded();
      await screenshot(admin, testInfo, `notificaciones-03-prueba-${name}`, { fullPage: false });
      const widths = await admin.evaluate(() => ({ page: document.documentElement.scrollWidth, screen: window.innerWidth }));
      expect(widths.page, `la página es más ancha que la pantalla a ${name} px`).toBeLessThanOrEqual(viewport.width);
      expect(await seriousAccessibilityViolations(admin)).toEqual([]);
    }
    await admin.setViewportSize(DESKTOP);
  });

  test('«Reenviar»: el aviso se lee como JSON y sale otra vez con el mismo id, una vez cada pocos segundos', async () => {
    const delivery = notices(admin).filter({ hasText: 'Aviso de prueba' });
    const payload = delivery.getByTestId('notification-payload');
    await payload.getByText('Ver el aviso (JSON)').click();
    await expect(payload.locator('pre')).toContainText('"tipo": "prueba"');
    const id = JSON.parse((await payload.locator('pre').textContent())!).id as string;
    await delivery.getByRole('button', { name: 'Reenviar' }).click();
    await expect(section(admin).getByTestId('resend-outcome')).toContainText(`Reenviado con el mismo id. No se entregó a ${WEBHOOK_READ_BACK}`, { timeout: 20_000 });
    await expect(notices(admin).filter({ hasText: 'Aviso de prueba' })).toHaveCount(2);
    for (const row of await notices(admin).filter({ hasText: 'Aviso de prueba' }).all()) {
      expect(JSON.parse((await row.getByTestId('notification-payload').locator('pre').textContent())!).id).toBe(id);
    }
    await notices(admin).filter({ hasText: 'Aviso de prueba' }).first().getByRole('button', { name: 'Reenviar' }).click();
    await expect(section(admin).getByText('Ya se reenvió un aviso de esta integración hace menos de 10 segundos')).toBeVisible();
  });

  test('el administrador desactiva un aviso para un destinatario; queda guardado', async ({}, testInfo) => {
    const lowForBilling = section(admin).getByTestId('notification-switch-billing-balance_low');
    await expect(lowForBilling).toHaveAttribute('aria-checked', 'true');
    await lowForBilling.click();
    await expect(lowForBilling).toHaveAttribute('aria-checked', 'false');
    // The switch turns at once and stays greyed while its change is saved: reload only after that,
    // as a person would (a reload during the save could cancel it; it did on a loaded machine).
    await expect(lowForBilling).toBeEnabled();
    await admin.reload();
    await expect(section(admin).getByTestId('notification-switch-billing-balance_low')).toHaveAttribute('aria-checked', 'false');
    await expect(section(admin).getByTestId('notification-switch-webhook-balance_low')).toHaveAttribute('aria-checked', 'true');
    await admin.setViewportSize(PHONE);
    await section(admin).scrollIntoViewIfNeeded();
    await screenshot(admin, testInfo, 'notificaciones-02-avisos-390');
    await admin.setViewportSize(DESKTOP);
  });

  test('soporte ve la sección sin poder cambiarla ni enviar pruebas, y el servidor rechaza su cambio', async ({ browser }) => {
    const email = `soporte-avisos-${Date.now().toString(36)}@example.com`;
    const password = await createUserThroughForm(admin, email, 'Soporte avisos');
    const supportContext = await browser.newContext({ viewport: DESKTOP });
    const support = await supportContext.newPage();
    await signInFirstTime(support, email, password);
    await support.goto(integrationUrl);
    await expect(support.getByTestId('webhook-current')).toHaveText(WEBHOOK_READ_BACK);
    await expect(section(support).getByTestId('webhook-url')).toHaveCount(0);
    await expect(section(support).getByRole('button', { name: 'Enviar aviso de prueba' })).toHaveCount(0);
    await expect(section(support).getByTestId('notification-switch-technical-token_revoked')).toBeDisabled();
    await expect(notices(support).filter({ hasText: 'Aviso de prueba' })).toHaveCount(2);
    await expect(section(support).getByRole('button', { name: 'Reenviar' })).toHaveCount(0);
    for (const [action, input] of [
      ['setNotificationWebhookAction', { integrationId: String(integrationId), url: 'https://otro.example.com/hook' }],
      ['setNotificationEnabledAction', { integrationId: String(integrationId), recipient: 'billing', kind: 'balance_low', enabled: 'true' }],
      ['removeNotificationWebhookAction', { integrationId: String(integrationId) }],
      ['sendTestNotificationAction', { integrationId: String(integrationId) }],
      ['resendNotificationAction', { integrationId: String(integrationId), entrega: '1' }],
    ] as const) {
      expect(await callServerAction(support, action, input)).toContain(FORBIDDEN);
    }
    await support.reload();
    await expect(support.getByTestId('webhook-current')).toHaveText(WEBHOOK_READ_BACK);
    await expect(section(support).getByTestId('notification-switch-billing-balance_low')).toHaveAttribute('aria-checked', 'false');
    await expect(notices(support).filter({ hasText: 'Aviso de prueba' })).toHaveCount(2);
    await supportContext.close();
  });
});
