// Inicio and the console's Portal section (issue 33, points 4 and 7), in chromium at 1366 and
// 390 px with axe: after a few lookups with the integration's token, its owner sees the balance
// they left, this month's spending and the use per day in the console's chart; an administrator
// sends a pending invitation again from the integration's Portal section, confirmed before and
// after, and the old link stops working while the new one opens.
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { samplePopulation } from '../simulator/population';
import { screenshot, seriousAccessibilityViolations, settings, signInThroughForm } from './support/console';
import { ARTIFACTS_DIR } from './support/paths';

const DESKTOP = { width: 1366, height: 900 };
const PHONE = { width: 390, height: 844 };
/** Accepting hashes a password (scrypt, 128 MiB): on a loaded machine a step may take seconds. */
const HASHING_STEP_MS = 30_000;
const PASSWORD = 'quetzal sobre el cerro de la cruz';

/** The invitation links the app printed for this address (development without SMTP), oldest first. */
function printedInvitations(email: string): string[] {
  const log = fs.readFileSync(path.join(ARTIFACTS_DIR, 'app-output.log'), 'utf8');
  const pattern = new RegExp(`Invitación al portal para ${email.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b[^\\n]*?(http\\S+)`, 'g');
  return [...log.matchAll(pattern)].map((match) => match[1]!);
}

/** Waits until the app has printed `count` links for this address; returns the last. */
async function printedInvitation(email: string, count = 1): Promise<string> {
  for (let waited = 0; waited < 10_000; waited += 100) {
    const links = printedInvitations(email);
    if (links.length >= count) return links.at(-1)!;
    await sleep(100);
  }
  throw new Error(`the app printed no link number ${count} for ${email}`);
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

test('el propietario ve su saldo y su uso por día; un administrador reenvía una invitación desde la sección Portal', async ({ browser, request }, testInfo) => {
  test.setTimeout(300_000);
  const { baseUrl, adminEmail, adminPassword } = settings();
  const stamp = Date.now().toString(36);
  const nombre = `inicio-${stamp}`;
  const ownerEmail = `duena-inicio-${stamp}@example.com`;
  const pendingEmail = `pendiente-inicio-${stamp}@example.com`;

  // The administrator creates the integration (compliance lookups, Q 1.50 each, Q 250.00) and invites
  // its owner and a developer who has not answered yet.
  const adminContext = await browser.newContext({ viewport: DESKTOP, extraHTTPHeaders: { 'x-forwarded-for': '10.62.0.1' } });
  const admin = await adminContext.newPage();
  await signInThroughForm(admin, adminEmail, adminPassword);
  await admin.goto(`${baseUrl}/admin/integraciones/nueva`);
  await admin.getByLabel('Nombre (login)').fill(nombre);
  await admin.getByLabel('Tarifa por consulta de catálogo (Q)').fill('1.50');
  await admin.getByLabel('Saldo inicial (Q, opcional)').fill('250.00');
  await admin.getByRole('checkbox', { name: /Catálogo omisos/ }).check();
  await admin.getByRole('button', { name: 'Crear integración' }).click();
  const token = (await admin.getByTestId('new-token').textContent())!.trim();
  await admin.getByRole('link', { name: 'Ir a la integración' }).click();
  await expect(admin.getByRole('heading', { name: nombre, level: 1 })).toBeVisible();
  const id = Number(/\/admin\/integraciones\/(\d+)/.exec(admin.url())![1]);
  await admin.goto(`${baseUrl}/admin/integraciones/${id}/portal`);
  const users = admin.getByTestId('portal-users');
  for (const [email, role] of [
    [ownerEmail, 'Propietario'],
    [pendingEmail, 'Desarrollador'],
  ] as const) {
    await users.getByLabel('Correo de la persona').fill(email);
    await users.getByLabel('Rol en el portal').selectOption({ label: role });
    await users.getByRole('button', { name: 'Enviar invitación' }).click();
    await expect(users.getByText(`Invitación creada para ${email}`)).toBeVisible();
  }

  // Three compliance lookups with the integration's token, as its system makes them.
  const nit = samplePopulation({ seed: Number(process.env.E2E_SIMULATOR_SEED) }).omiso.nit;
  for (let index = 0; index < 3; index++) {
    const response = await request.post(`${baseUrl}/api/catalogos/omisos`, {
      headers: { 'x-integracion-login': nombre, 'x-integracion-token': token, 'x-forwarded-for': '10.62.0.9' },
      data: { nit },
    });
    expect(response.status(), await response.text()).toBe(200);
  }

  // The owner accepts the link and lands on Inicio: the balance the lookups left, what this month
  // cost, and the use per day in the console's chart (once the rollups have added them).
  const context = await browser.newContext({ viewport: DESKTOP, extraHTTPHeaders: { 'x-forwarded-for': '10.62.0.2' } });
  const owner = await context.newPage();
  await owner.goto(await printedInvitation(ownerEmail));
  await owner.getByLabel('Tu nombre').fill('Dueña de inicio');
  await owner.getByLabel('Contraseña', { exact: true }).fill(PASSWORD);
  await owner.getByLabel('Repite la contraseña').fill(PASSWORD);
  await owner.getByRole('button', { name: 'Crear mi cuenta' }).click();
  await expect(owner.getByRole('heading', { name: nombre, level: 1 })).toBeVisible({ timeout: HASHING_STEP_MS });
  await expect(owner.getByTestId('portal-balance')).toHaveText('Q 245.50');
  await expect(owner.getByTestId('portal-spent-current')).toHaveText('Q 4.50');
  await expect(async () => {
    await owner.goto(`${baseUrl}/portal`);
    await expect(owner.getByTestId('portal-usage-queries')).toHaveText('3', { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  const perDay = owner.getByRole('img', { name: `Consultas por tipo a lo largo del tiempo` });
  await expect(perDay).toBeVisible();
  // Today's column carries the three lookups (its tooltip's text).
  await expect(perDay.locator('.bar-chart-column').last()).toHaveAttribute('data-tip', /Catálogo omisos: 3\nTotal: 3$/);
  await expect(owner.getByTestId('portal-usage-by-lookup')).toContainText('Catálogo omisos');
  await expect(owner.getByTestId('portal-limits').locator('tr[data-route="catalogs"]').getByTestId('portal-limit-today')).toHaveText('3');
  await expect(owner.getByTestId('portal-sources').getByRole('link', { name: /Ver el estado de las fuentes/ })).toHaveAttribute('href', '/estado');
  await checkBothSizes(owner, testInfo, 'inicio');
  await context.close();

  // The administrator sends the developer's invitation again: asked first, told after.
  const oldLink = await printedInvitation(pendingEmail);
  await admin.goto(`${baseUrl}/admin/integraciones/${id}/portal`);
  await expect(admin.getByTestId('portal-users-list')).toContainText(ownerEmail);
  const invitation = admin.getByTestId('portal-invitations').locator('tr', { hasText: pendingEmail });
  await expect(invitation).toContainText('Pendiente; vence el');
  await checkBothSizes(admin, testInfo, 'seccion-portal');
  await invitation.getByRole('button', { name: 'Reenviar' }).click();
  const question = admin.getByRole('dialog', { name: `¿Reenviar la invitación a ${pendingEmail}?` });
  await expect(question).toContainText('El enlace anterior deja de servir al momento.');
  await expect(question.getByRole('button', { name: 'Cancelar' })).toBeFocused();
  await question.getByRole('button', { name: 'Reenviar invitación' }).click();
  await expect(question).toBeHidden();
  await expect(admin.getByText(`Invitación creada para ${pendingEmail}`)).toContainText('El enlace anterior ya no sirve.');
  const newLink = await printedInvitation(pendingEmail, 2);
  expect(newLink).not.toBe(oldLink);
  await expect(admin.getByTestId('portal-invitations').locator('tr', { hasText: pendingEmail })).toHaveCount(1);

  const invited = await browser.newContext({ viewport: PHONE, extraHTTPHeaders: { 'x-forwarded-for': '10.62.0.3' } });
  const person = await invited.newPage();
  await person.goto(oldLink);
  await expect(person.getByText('Este enlace ya no sirve')).toBeVisible();
  await person.goto(newLink);
  await expect(person.getByText(pendingEmail)).toBeVisible();
  await expect(person.getByRole('button', { name: 'Crear mi cuenta' })).toBeVisible();
  await invited.close();
  await adminContext.close();
});
