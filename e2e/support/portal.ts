// What the portal's end-to-end walks share: an administrator setting up an integration and
// inviting its people through the console's forms, the invitation links the app prints (the e2e
// app has no SMTP server, so development prints them to its output), an invited person accepting
// one, and the checks every portal page gets at 1366 and 390 px.
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, type Page, type TestInfo } from '@playwright/test';
import { screenshot, seriousAccessibilityViolations, settings } from './console';
import { ARTIFACTS_DIR } from './paths';

export const DESKTOP = { width: 1366, height: 900 };
export const PHONE = { width: 390, height: 844 };
/** Accepting hashes a password (scrypt, 128 MiB): on a loaded machine a step may take seconds. */
export const HASHING_STEP_MS = 30_000;

/** The invitation links the app printed for this address (lib/flows/portal-identity/mail.ts, development without SMTP), oldest first. */
export function printedInvitations(email: string): string[] {
  const log = fs.readFileSync(path.join(ARTIFACTS_DIR, 'app-output.log'), 'utf8');
  const pattern = new RegExp(`Invitación al portal para ${email.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b[^\\n]*?(http\\S+)`, 'g');
  return [...log.matchAll(pattern)].map((match) => match[1]!);
}

/** Waits until the app has printed `count` links for this address; returns the last. */
export async function printedInvitation(email: string, count = 1): Promise<string> {
  for (let waited = 0; waited < 10_000; waited += 100) {
    const links = printedInvitations(email);
    if (links.length >= count) return links.at(-1)!;
    await sleep(100);
  }
  throw new Error(`the app printed no link number ${count} for ${email}`);
}

/** Axe and no sideways scrolling at 1366 and 390 px, with screenshots; the page is left at 1366. */
export async function checkBothSizes(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  for (const [size, viewport] of [
    ['1366', DESKTOP],
    ['390', PHONE],
  ] as const) {
    await page.setViewportSize(viewport);
    // Next streams a dynamic page's metadata after its body: axe would otherwise sometimes read the
    // page before its <title> arrived (once in CI, on PostgreSQL). The title is still required.
    await page.waitForFunction(() => document.title !== '', undefined, { timeout: 5_000 }).catch(() => undefined);
    expect(await seriousAccessibilityViolations(page), `${name} ${size}`).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), `${name} ${size}`).toBeLessThanOrEqual(0);
    await screenshot(page, testInfo, `portal-${name}-${size}`);
  }
  await page.setViewportSize(DESKTOP);
}

/** Opens a portal section from the navigation (behind "Menú" on a phone). */
export async function openSection(page: Page, name: string): Promise<void> {
  const menu = page.getByRole('button', { name: 'Menú' });
  if (await menu.isVisible()) await menu.click();
  await page.getByRole('navigation', { name: 'Secciones del portal' }).getByRole('link', { name, exact: true }).click();
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
  // The tab names the section too. Next streams a page's metadata after its body, and on a client
  // navigation the old <title> goes before the new one arrives: axe, run in between, found no
  // <title> at all (twice in CI, once after checkBothSizes' own wait had seen the old title).
  await expect(page).toHaveTitle(`${name} · Portal de integradores`);
}

/**
 * An administrator (signed in on `admin`) creates an integration through the console's form: its
 * initial balance, a catalog tariff if given, and the compliance (omisos) lookup if asked.
 * Leaves `admin` on the integration's page; returns the token shown once and the integration's id.
 */
export async function createIntegrationThroughConsole(admin: Page, integration: { nombre: string; balance: string; tariff?: string; omisos?: boolean }): Promise<{ token: string; id: number }> {
  await admin.goto(`${settings().baseUrl}/admin/integraciones/nueva`);
  await admin.getByLabel('Nombre (login)').fill(integration.nombre);
  if (integration.tariff) await admin.getByLabel('Tarifa por consulta de catálogo (Q)').fill(integration.tariff);
  await admin.getByLabel('Saldo inicial (Q, opcional)').fill(integration.balance);
  if (integration.omisos) await admin.getByRole('checkbox', { name: /Catálogo omisos/ }).check();
  await admin.getByRole('button', { name: 'Crear integración' }).click();
  const token = (await admin.getByTestId('new-token').textContent())!.trim();
  await admin.getByRole('link', { name: 'Ir a la integración' }).click();
  await expect(admin.getByRole('heading', { name: integration.nombre, level: 1 })).toBeVisible();
  return { token, id: Number(/\/admin\/integraciones\/(\d+)/.exec(admin.url())![1]) };
}

/** The invited person opens their link and creates their account; they land on Inicio, headed by the integration's name. */
export async function acceptPrintedInvitation(page: Page, invited: { email: string; name: string; password: string }, integrationName: string): Promise<void> {
  await page.goto(await printedInvitation(invited.email));
  await page.getByLabel('Su nombre').fill(invited.name);
  await page.getByLabel('Contraseña', { exact: true }).fill(invited.password);
  await page.getByLabel('Repita la contraseña').fill(invited.password);
  await page.getByRole('button', { name: 'Crear mi cuenta' }).click();
  await expect(page.getByRole('heading', { name: integrationName, level: 1 })).toBeVisible({ timeout: HASHING_STEP_MS });
}

/** An administrator invites `email` from the integration's Portal section: as owner unless `role` names another (the form preselects none). */
export async function inviteThroughConsole(admin: Page, integrationId: number, email: string, role = 'Propietario'): Promise<void> {
  await admin.goto(`${settings().baseUrl}/admin/integraciones/${integrationId}/portal`);
  const users = admin.getByTestId('portal-users');
  await users.getByLabel('Correo de la persona').fill(email);
  await users.getByLabel('Rol en el portal').selectOption({ label: role });
  await users.getByRole('button', { name: 'Enviar invitación' }).click();
  await expect(users.getByText(`Invitación creada para ${email}`)).toBeVisible();
}
