// What the sign-in page says: nothing about an ended session on a first visit, that the session
// ended when it did, that signing out worked, and never a text taken from the link.
import { expect, test } from '@playwright/test';
import { settings, signInThroughForm } from './support/console';

const ENDED = 'Su sesión terminó';

test('una primera visita no habla de una sesión terminada; cerrar sesión lo confirma', async ({ page }) => {
  const { baseUrl, adminEmail, adminPassword } = settings();
  await page.goto(`${baseUrl}/admin/registros`);
  await expect(page).toHaveURL(`${baseUrl}/admin/login?volver=%2Fadmin%2Fregistros`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.locator('main')).not.toContainText(ENDED);
  await expect(page.locator('main .notice')).toHaveCount(0);

  await signInThroughForm(page, adminEmail, adminPassword);
  await page.getByRole('button', { name: 'Cerrar sesión' }).click();
  await expect(page).toHaveURL(/\/admin\/login\?motivo=salida$/);
  await expect(page.getByRole('status')).toHaveText('Cerró sesión. Hasta pronto.');
  await expect(page.locator('main')).not.toContainText(ENDED);
});

test('la página de inicio de sesión nunca muestra texto tomado del enlace', async ({ page }) => {
  const { baseUrl } = settings();
  const injected = 'Llama al 5555-0000 para recuperar tu cuenta';
  for (const query of [`error=${encodeURIComponent(injected)}`, `motivo=${encodeURIComponent(injected)}`, `callbackUrl=${encodeURIComponent(injected)}`]) {
    await page.goto(`${baseUrl}/admin/login?${query}`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.locator('body')).not.toContainText('5555-0000');
  }
});
