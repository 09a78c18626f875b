// Two-factor sign-in as a person meets it, on a phone-sized screen: enrolment from "Mi cuenta" with
// the QR code and the key typed by hand, a sign-in with the app's code, and one with a recovery
// code, which works once. The codes are computed here as the authenticator app would.
import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { TOTP_PERIOD_SECONDS, totpCodeAt } from '../lib/flows/two-factor/totp';
import { createUserThroughForm, openConsoleAsAdmin, screenshot, seriousAccessibilityViolations, settings, signInFirstTime } from './support/console';

const PHONE = { width: 390, height: 844 };

async function signInWithPassword(page: Page, email: string, password: string): Promise<void> {
  await page.goto(`${settings().baseUrl}/admin/login`);
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByLabel('Contraseña').fill(password);
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
  await expect(page.getByRole('heading', { name: 'Verificación en dos pasos', level: 1 })).toBeVisible();
}

/** Signs out from the console's header (behind "Menú" on a phone) or from a page outside it. */
async function signOut(page: Page): Promise<void> {
  const menu = page.getByRole('button', { name: 'Menú' });
  if (await menu.isVisible()) await menu.click();
  await page.getByRole('button', { name: 'Cerrar sesión' }).click();
  await expect(page.getByText('Cerró sesión. Hasta pronto.')).toBeVisible();
}

/** Six digits that are none of the codes the app accepts now. */
function wrongCode(secret: string): string {
  const near = new Set([-2, -1, 0, 1, 2].map((steps) => totpCodeAt(secret, Date.now() + steps * TOTP_PERIOD_SECONDS * 1000)));
  for (let candidate = 100_000; ; candidate++) if (!near.has(String(candidate))) return String(candidate);
}

async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

test('activar la verificación en dos pasos con el QR y entrar con el código o con un código de recuperación, que sirve una vez', async ({ page, browser }, testInfo) => {
  test.setTimeout(180_000);
  const { baseUrl } = settings();
  const email = `dos-pasos-${Date.now().toString(36)}@example.com`;
  await openConsoleAsAdmin(page);
  const given = await createUserThroughForm(page, email, 'Persona con teléfono');

  const context = await browser.newContext({ viewport: PHONE, extraHTTPHeaders: { 'x-forwarded-for': '10.50.0.1' } });
  const user = await context.newPage();
  const password = await signInFirstTime(user, email, given);

  // Enrolment: the QR code is drawn by the app itself (inline SVG, no third-party image), and the key is there to type by hand.
  await user.goto(`${baseUrl}/admin/cuenta`);
  await user.getByRole('button', { name: 'Activar verificación en dos pasos' }).click();
  const qr = user.getByRole('img', { name: 'Código QR para agregar su cuenta de la consola a la aplicación' });
  await expect(qr).toBeVisible();
  await expect(qr.locator('svg')).toHaveCount(1);
  expect(await user.locator('img[src^="http"]').count()).toBe(0);
  const secret = (await user.getByTestId('two-factor-secret').textContent())!.replace(/\s+/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  const codeField = user.getByLabel('Código de la aplicación');
  await expect(codeField).toHaveAttribute('autocomplete', 'one-time-code');
  await expect(codeField).toHaveAttribute('inputmode', 'numeric');
  expect(await seriousAccessibilityViolations(user)).toEqual([]);
  expect(await horizontalOverflow(user)).toBeLessThanOrEqual(0);
  await screenshot(user, testInfo, 'dos-pasos-activar-telefono');

  await codeField.fill(totpCodeAt(secret, Date.now()));
  await user.getByRole('button', { name: 'Confirmar y activar' }).click();
  const codes = user.getByTestId('recovery-codes').getByRole('listitem');
  await expect(codes).toHaveCount(10);
  const recoveryCodes = (await codes.allTextContents()).map((code) => code.trim());
  // "Descargar como archivo" saves the same codes as shown, made in the browser (a blob, no request).
  const [download] = await Promise.all([user.waitForEvent('download'), user.getByRole('button', { name: 'Descargar como archivo' }).click()]);
  expect(download.url()).toMatch(/^blob:/);
  expect(download.suggestedFilename()).toMatch(/^codigos-de-recuperacion-[a-z0-9-]+-\d{4}-\d{2}-\d{2}\.txt$/);
  const saved = (await readFile(await download.path(), 'utf8')).split(/\r?\n/);
  expect(saved.filter((line) => /^[a-z2-9]{5}-[a-z2-9]{5}$/.test(line))).toEqual(recoveryCodes);
  expect(saved[0]).toBe('Códigos de recuperación de la verificación en dos pasos');
  await user.getByRole('button', { name: 'Listo, ya los guardé' }).click();
  await expect(user.getByTestId('recovery-codes-left')).toHaveText('Le quedan 10 códigos de recuperación.');

  // A sign-in asks for the app's code after the password. (The code used at enrolment is spent:
  // the app shows the next one by the time a person signs in again; here it is the next step's.)
  await signOut(user);
  await signInWithPassword(user, email, password);
  await user.goto(`${baseUrl}/admin/integraciones`);
  await expect(user.getByRole('heading', { name: 'Verificación en dos pasos', level: 1 })).toBeVisible();
  const appCode = user.getByLabel('Código de verificación');
  await expect(appCode).toHaveAttribute('autocomplete', 'one-time-code');
  await expect(appCode).toHaveAttribute('inputmode', 'numeric');
  expect(await seriousAccessibilityViolations(user)).toEqual([]);
  expect(await horizontalOverflow(user)).toBeLessThanOrEqual(0);
  await screenshot(user, testInfo, 'dos-pasos-codigo-telefono');
  await appCode.fill(wrongCode(secret));
  await user.getByRole('button', { name: 'Verificar' }).click();
  await expect(user.locator('p.notice.error')).toHaveText('El código no es correcto o ya se usó.');
  await appCode.fill(totpCodeAt(secret, Date.now() + TOTP_PERIOD_SECONDS * 1000));
  await user.getByRole('button', { name: 'Verificar' }).click();
  // The code opens the page the user was going to, not the Panel (issue 24, defect 7).
  await expect(user.getByRole('heading', { name: 'Integraciones', level: 1 })).toBeVisible();
  await expect(user).toHaveURL(/\/admin\/integraciones$/);

  // Without the phone: a recovery code, once.
  await signOut(user);
  await signInWithPassword(user, email, password);
  await user.getByRole('button', { name: '¿No tiene el teléfono? Use un código de recuperación' }).click();
  await user.getByLabel('Código de recuperación').fill(recoveryCodes[0]!);
  await user.getByRole('button', { name: 'Verificar' }).click();
  await expect(user.getByText('Usó un código de recuperación: ya no sirve. Le quedan 9.')).toBeVisible();
  await user.getByRole('button', { name: 'Entrar a la consola' }).click();
  await expect(user.getByRole('heading', { name: 'Panel', level: 1 })).toBeVisible();
  await user.goto(`${baseUrl}/admin/cuenta`);
  await expect(user.getByTestId('recovery-codes-left')).toHaveText('Le quedan 9 códigos de recuperación.');

  await signOut(user);
  await signInWithPassword(user, email, password);
  await user.getByRole('button', { name: '¿No tiene el teléfono? Use un código de recuperación' }).click();
  await user.getByLabel('Código de recuperación').fill(recoveryCodes[0]!);
  await user.getByRole('button', { name: 'Verificar' }).click();
  await expect(user.locator('p.notice.error')).toHaveText('El código no es correcto o ya se usó.');
  await user.goto(`${baseUrl}/admin`);
  await expect(user.getByRole('heading', { name: 'Verificación en dos pasos', level: 1 })).toBeVisible();
  await context.close();

  // The administrator sees it on Usuarios.
  await page.goto(`${baseUrl}/admin/usuarios`);
  const row = page.getByTestId('users').getByRole('row').filter({ hasText: email });
  await expect(row).toContainText('Activada');
  await expect(row.getByRole('button', { name: 'Restablecer verificación en dos pasos' })).toBeVisible();
});
