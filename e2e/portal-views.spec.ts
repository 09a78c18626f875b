// What an integration's owner reads in the portal (issue 33, point 4), in chromium at 1366 and
// 390 px with axe: Movimientos with the opening top-up (by "Administración", not the staff member's
// e-mail), Credenciales with the integration's token by its prefix (never the token), and Estados
// de cuenta with a statement the console issued, whose PDF downloads through the portal.
import fs from 'node:fs';
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { monthName } from '../lib/format/months';
import { pdfPageTextLines } from '../tests/support/pdf-text';
import { screenshot, seriousAccessibilityViolations, settings, signInThroughForm } from './support/console';
import { withAppDatabase } from './support/database';
import { ARTIFACTS_DIR } from './support/paths';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const DESKTOP = { width: 1366, height: 900 };
const PHONE = { width: 390, height: 844 };
/** Accepting hashes a password (scrypt, 128 MiB): on a loaded machine a step may take seconds. */
const HASHING_STEP_MS = 30_000;
const PASSWORD = 'quetzal sobre el cerro de la cruz';

/** The latest invitation link the app printed for this address (development without SMTP). */
async function printedInvitation(email: string): Promise<string> {
  const log = path.join(ARTIFACTS_DIR, 'app-output.log');
  const pattern = new RegExp(`Invitación al portal para ${email.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b[^\\n]*?(http\\S+)`, 'g');
  for (let waited = 0; waited < 10_000; waited += 100) {
    const found = [...fs.readFileSync(log, 'utf8').matchAll(pattern)].at(-1)?.[1];
    if (found) return found;
    await sleep(100);
  }
  throw new Error(`the app printed no link for ${email}`);
}

/** Axe and no sideways scrolling at 1366 and 390 px, with screenshots. */
async function checkBothSizes(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  for (const [size, viewport] of [
    ['1366', DESKTOP],
    ['390', PHONE],
  ] as const) {
    await page.setViewportSize(viewport);
    expect(await seriousAccessibilityViolations(page), `${name} ${size}`).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), `${name} ${size}`).toBeLessThanOrEqual(0);
    await screenshot(page, testInfo, `portal-${name}-${size}`);
  }
  await page.setViewportSize(DESKTOP);
}

/** Opens a portal section from the navigation (behind "Menú" on a phone). */
async function openSection(page: Page, name: string): Promise<void> {
  const menu = page.getByRole('button', { name: 'Menú' });
  if (await menu.isVisible()) await menu.click();
  await page.getByRole('navigation', { name: 'Secciones del portal' }).getByRole('link', { name, exact: true }).click();
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
}

test('el propietario ve sus movimientos, sus credenciales y descarga un estado de cuenta emitido', async ({ browser }, testInfo) => {
  test.setTimeout(300_000);
  const { baseUrl, adminEmail, adminPassword } = settings();
  const stamp = Date.now().toString(36);
  const nombre = `vistas-${stamp}`;
  const ownerEmail = `duena-vistas-${stamp}@example.com`;

  // The administrator creates the integration with Q 250.00, backdated so last month is closed,
  // issues last month's statement and invites the owner.
  const adminContext = await browser.newContext({ viewport: DESKTOP, extraHTTPHeaders: { 'x-forwarded-for': '10.61.0.1' } });
  const admin = await adminContext.newPage();
  await signInThroughForm(admin, adminEmail, adminPassword);
  await admin.goto(`${baseUrl}/admin/integraciones/nueva`);
  await admin.getByLabel('Nombre (login)').fill(nombre);
  await admin.getByLabel('Saldo inicial (Q, opcional)').fill('250.00');
  await admin.getByRole('button', { name: 'Crear integración' }).click();
  const token = (await admin.getByTestId('new-token').textContent())!.trim();
  expect(token).toMatch(/^tlk_/);
  await admin.getByRole('link', { name: 'Ir a la integración' }).click();
  await expect(admin.getByRole('heading', { name: nombre, level: 1 })).toBeVisible();
  const id = Number(/\/admin\/integraciones\/(\d+)/.exec(admin.url())![1]);
  await withAppDatabase((sql) => sql`update integrations set created_at = now() - interval '70 days' where id = ${id}`);
  await admin.goto(`${baseUrl}/admin/integraciones/${id}/saldo`);
  const statements = admin.locator('section[aria-labelledby="statements-title"]');
  const month = await statements.getByLabel('Mes').inputValue();
  await statements.getByRole('button', { name: 'Emitir estado de cuenta' }).click();
  await expect(statements.getByTestId('statements').locator('tbody tr')).toHaveCount(1);
  await admin.goto(`${baseUrl}/admin/integraciones/${id}/portal`);
  const users = admin.getByTestId('portal-users');
  await users.getByLabel('Correo de la persona').fill(ownerEmail);
  await users.getByRole('button', { name: 'Enviar invitación' }).click();
  await expect(users.getByText(`Invitación creada para ${ownerEmail}`)).toBeVisible();
  await adminContext.close();

  const context = await browser.newContext({ viewport: DESKTOP, extraHTTPHeaders: { 'x-forwarded-for': '10.61.0.2' } });
  const owner = await context.newPage();
  await owner.goto(await printedInvitation(ownerEmail));
  await owner.getByLabel('Tu nombre').fill('Dueña de vistas');
  await owner.getByLabel('Contraseña', { exact: true }).fill(PASSWORD);
  await owner.getByLabel('Repite la contraseña').fill(PASSWORD);
  await owner.getByRole('button', { name: 'Crear mi cuenta' }).click();
  await expect(owner.getByRole('heading', { name: nombre, level: 1 })).toBeVisible({ timeout: HASHING_STEP_MS });

  // Movimientos: the opening top-up with the balance it left, made by "Administración".
  await openSection(owner, 'Movimientos');
  const movements = owner.getByTestId('portal-movements');
  await expect(movements.locator('tbody tr')).toHaveCount(1);
  const opening = movements.locator('tbody tr').first();
  await expect(opening).toContainText('Recarga');
  await expect(opening.getByTestId('portal-balance-after')).toHaveText('Q 250.00');
  await expect(opening).toContainText('Administración');
  await expect(owner.getByRole('main')).not.toContainText(adminEmail);
  await checkBothSizes(owner, testInfo, 'movimientos');

  // Credenciales: the token by its prefix; the token itself is nowhere on the page.
  await openSection(owner, 'Credenciales');
  await expect(owner.getByTestId('portal-token-prefix')).toHaveText(`${token.slice(0, 10)}…`);
  expect(await owner.content()).not.toContain(token);
  await expect(owner.getByTestId('portal-allowed-networks')).toContainText('cualquier dirección IP');
  await checkBothSizes(owner, testInfo, 'credenciales');

  // Estados de cuenta: the statement the console issued, its PDF downloaded through the portal.
  await openSection(owner, 'Estados de cuenta');
  const row = owner.getByTestId('portal-statements').locator('tbody tr');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(monthName(month));
  await checkBothSizes(owner, testInfo, 'estados');
  const [download] = await Promise.all([owner.waitForEvent('download'), row.getByRole('link', { name: 'PDF', exact: true }).click()]);
  expect(new URL(download.url()).pathname).toMatch(/^\/portal\/estados\/\d+\/pdf$/);
  const text = pdfPageTextLines(fs.readFileSync((await download.path())!)).flat().join('\n');
  expect(text).toContain(nombre);
  await context.close();
});
