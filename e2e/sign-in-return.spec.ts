// Where sign-in and sign-out take the browser: back to the console page a signed-out visitor asked
// for (never to another site, whatever the link says), and, on signing out or after a password
// change, to the sign-in page of the very host and port the browser is using, whatever NEXTAUTH_URL
// says or (in development) does not say.
import { expect, test, type Page } from '@playwright/test';
import { createUserThroughForm, openConsoleAsAdmin, screenshot, settings } from './support/console';

/** The same app under another name: the e2e app's NEXTAUTH_URL says 127.0.0.1, the browser says localhost. */
function otherHostUrl(): string {
  const url = new URL(settings().baseUrl);
  url.hostname = 'localhost';
  return url.origin;
}

/** Fills and sends the sign-in form the page shows. */
async function submitSignIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByLabel('Contraseña').fill(password);
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
}

test('iniciar sesión desde un enlace profundo vuelve a esa página (issue 24, punto 7)', async ({ page }) => {
  const { baseUrl, adminEmail, adminPassword } = settings();
  // An admin-only page with a query: both come back.
  await page.goto(`${baseUrl}/admin/auditoria?accion=user.create`);
  await expect(page).toHaveURL(`${baseUrl}/admin/login?volver=${encodeURIComponent('/admin/auditoria?accion=user.create')}`);
  await submitSignIn(page, adminEmail, adminPassword);
  await expect(page.getByRole('heading', { name: 'Auditoría', level: 1 })).toBeVisible();
  await expect(page).toHaveURL(`${baseUrl}/admin/auditoria?accion=user.create`);
  // Signed in, the sign-in link itself goes on to the page it names.
  await page.goto(`${baseUrl}/admin/login?volver=${encodeURIComponent('/admin/usuarios')}`);
  await expect(page.getByRole('heading', { name: 'Usuarios', level: 1 })).toBeVisible();
});

test('el enlace de inicio de sesión nunca lleva a otro sitio (issue 24, punto 7)', async ({ browser }) => {
  const { baseUrl, adminEmail, adminPassword } = settings();
  for (const target of ['https://evil.example/admin', '//evil.example/admin', '/\\evil.example/admin', '/docs', '/admin/../api/health']) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${baseUrl}/admin/login?volver=${encodeURIComponent(target)}`);
    await submitSignIn(page, adminEmail, adminPassword);
    await expect(page.getByRole('heading', { name: 'Panel', level: 1 }), target).toBeVisible();
    expect(new URL(page.url()).origin, target).toBe(baseUrl);
    expect(new URL(page.url()).pathname, target).toBe('/admin');
    await context.close();
  }
});

test('cerrar sesión y cambiar la contraseña se quedan en el host y el puerto del navegador (issue 24, punto 1)', async ({ page, browser }, testInfo) => {
  const { baseUrl, adminEmail, adminPassword } = settings();
  const origin = otherHostUrl();
  expect(origin).not.toBe(baseUrl);

  await page.goto(`${origin}/admin/login`);
  await submitSignIn(page, adminEmail, adminPassword);
  await expect(page.getByRole('heading', { name: 'Panel', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Cerrar sesión' }).click();
  await expect(page).toHaveURL(`${origin}/admin/login?motivo=salida`);
  await expect(page.getByRole('status')).toHaveText('Cerró sesión. Hasta pronto.');
  await screenshot(page, testInfo, 'sesion-cerrada-en-otro-host');

  // A new user's first sign-in changes the given password, and is then asked to sign in again: there.
  const admin = await browser.newPage();
  await openConsoleAsAdmin(admin);
  const email = `otro-host-${Date.now().toString(36)}@example.com`;
  const given = await createUserThroughForm(admin, email, 'Cuenta en otro host');
  await admin.close();
  const context = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': '10.41.0.1' } });
  const user = await context.newPage();
  await user.goto(`${origin}/admin/login`);
  await submitSignIn(user, email, given);
  await expect(user.getByRole('heading', { name: 'Cambie su contraseña', level: 1 })).toBeVisible();
  const chosen = 'una frase propia para el otro host';
  await user.getByLabel('Contraseña actual', { exact: true }).fill(given);
  await user.getByLabel('Nueva contraseña', { exact: true }).fill(chosen);
  await user.getByLabel('Repita la nueva contraseña').fill(chosen);
  await user.getByRole('button', { name: 'Cambiar contraseña' }).click();
  await expect(user).toHaveURL(`${origin}/admin/login?motivo=clave-cambiada`);
  await expect(user.getByText('Contraseña cambiada. Inicie sesión con la nueva contraseña.')).toBeVisible();
  await context.close();
});
