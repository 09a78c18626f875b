// Passwords someone else set and "Sesiones activas", in the browser: an initial password opens
// only "Cambie su contraseña" (which refuses a common one), a reset sends the user back there, and
// ending a session from "Sesiones activas" signs that other browser out. Both pages pass axe-core.
import { expect, test } from '@playwright/test';
import { createUserThroughForm, openConsoleAsAdmin, screenshot, seriousAccessibilityViolations, settings, signInFirstTime, signInThroughForm } from './support/console';

test('una contraseña inicial o restablecida se cambia al entrar, y no puede ser una de las más usadas', async ({ page, browser }, testInfo) => {
  test.setTimeout(120_000);
  const { baseUrl } = settings();
  const email = `inicial-${Date.now().toString(36)}@example.com`;
  await openConsoleAsAdmin(page);
  const initial = await createUserThroughForm(page, email, 'Cuenta con contraseña inicial');

  const context = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': '10.50.0.1' } });
  const user = await context.newPage();
  await user.goto(`${baseUrl}/admin/login`);
  await user.getByLabel('Correo electrónico').fill(email);
  await user.getByLabel('Contraseña').fill(initial);
  await user.getByRole('button', { name: 'Iniciar sesión' }).click();
  await expect(user.getByRole('heading', { name: 'Cambie su contraseña', level: 1 })).toBeVisible();
  // Every other console page sends them back here.
  await user.goto(`${baseUrl}/admin/registros`);
  await expect(user.getByRole('heading', { name: 'Cambie su contraseña', level: 1 })).toBeVisible();
  expect(await seriousAccessibilityViolations(user)).toEqual([]);

  await user.getByLabel('Contraseña actual', { exact: true }).fill(initial);
  await user.getByLabel('Nueva contraseña', { exact: true }).fill('Password1234!');
  await user.getByLabel('Repita la nueva contraseña').fill('Password1234!');
  await user.getByRole('button', { name: 'Cambiar contraseña' }).click();
  await expect(user.getByText('Esa contraseña es de las más usadas')).toBeVisible();
  await screenshot(user, testInfo, 'cambio-obligatorio-de-contrasena');
  await context.close();

  // The administrator resets it: the user is back to "Cambie su contraseña" with the new one.
  await page.goto(`${baseUrl}/admin/usuarios`);
  const row = page.getByTestId('users').locator('tr', { hasText: email });
  await expect(row).toContainText('Debe cambiarla al entrar');
  await row.getByRole('button', { name: 'Restablecer contraseña' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Restablecer contraseña' }).click();
  const reset = (await row.locator('.secret code').textContent())!.trim();
  expect(reset).toMatch(/^[A-Za-z0-9]{18}$/);
  const again = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': '10.50.0.2' } });
  const chosen = await signInFirstTime(await again.newPage(), email, reset);
  expect(chosen).not.toBe(reset);
  await again.close();
});

test('cerrar una sesión desde «Sesiones activas» saca a ese navegador', async ({ page, browser }, testInfo) => {
  test.setTimeout(120_000);
  const { baseUrl } = settings();
  const email = `sesiones-${Date.now().toString(36)}@example.com`;
  await openConsoleAsAdmin(page);
  const initial = await createUserThroughForm(page, email, 'Cuenta con dos sesiones');

  const laptopContext = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': '10.60.0.1' } });
  const laptop = await laptopContext.newPage();
  const password = await signInFirstTime(laptop, email, initial);
  const phoneContext = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': '10.60.0.2' }, viewport: { width: 390, height: 844 } });
  const phone = await phoneContext.newPage();
  await signInThroughForm(phone, email, password);

  await laptop.goto(`${baseUrl}/admin/cuenta`);
  const sessions = laptop.getByTestId('active-sessions');
  // Case matters: every other row's button says "Cerrar esta sesión".
  await expect(sessions.locator('tbody tr')).toHaveCount(2);
  await expect(sessions.locator('tr', { hasText: /Esta sesión/ })).toContainText('10.60.0.1');
  const other = sessions.locator('tbody tr', { hasNotText: /Esta sesión/ });
  await expect(other).toContainText('10.60.0.2');
  expect(await seriousAccessibilityViolations(laptop)).toEqual([]);
  await screenshot(laptop, testInfo, 'sesiones-activas');

  await other.getByRole('button', { name: 'Cerrar esta sesión' }).click();
  await expect(laptop.getByText('Sesión cerrada: ese navegador tendrá que volver a iniciar sesión.')).toBeVisible();
  await expect(sessions.locator('tbody tr')).toHaveCount(1);

  // The phone's next click lands on the sign-in page, saying the session ended.
  await phone.goto(`${baseUrl}/admin/integraciones`);
  await expect(phone.getByRole('heading', { name: 'Consola de consultas de contribuyentes', level: 1 })).toBeVisible();
  await expect(phone.getByText('Su sesión terminó o su cuenta cambió: vuelva a iniciar sesión.')).toBeVisible();
  // The laptop goes on.
  await laptop.goto(`${baseUrl}/admin/integraciones`);
  await expect(laptop.getByRole('heading', { name: 'Integraciones', level: 1 })).toBeVisible();
  await laptopContext.close();
  await phoneContext.close();
});
