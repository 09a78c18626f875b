// The integrators' portal as people meet it, issue 33's "done when" in one walk: an administrator
// issues last month's statement of an integration (backdated: no page makes an integration months
// old) and invites its owner from the console; the owner opens the link (read from the app's output:
// the e2e app has no SMTP server, so development prints it), chooses a password, enrols in two-factor
// sign-in, sees Inicio with the integration's balance and signs in again with the app's code. Its
// system then makes real lookups with the integration's token, one of them failing at the source (a
// 502, whose x-request-id it logs): the owner sees the balance they left and the use per day, finds
// the failed query by that id (why it failed, not charged) and downloads last month's statement as a
// PDF. It invites a billing person, who accepts on a phone, reads the movements and finds no
// Consultas, team or credentials page (refused at its address, naming who may); the owner cancels an invitation and removes the
// billing person, reading each confirmation once the row is gone. Every page is checked with axe and for
// sideways scrolling at 1366 and 390 px, with screenshots.
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, test, type Browser, type BrowserContext, type Page, type TestInfo } from '@playwright/test';
import { guatemalanToday } from '../lib/platform/time/guatemala-time';
import { monthName, periodText } from '../lib/platform/time/months';
import { TOTP_PERIOD_SECONDS, totpCodeAt } from '../lib/flows/two-factor/totp';
import { FAULT_IDENTIFIERS } from '../simulator/faults';
import { samplePopulation } from '../simulator/population';
import { pdfPageTextLines } from '../tests/support/pdf-text';
import { openConsoleAsAdmin, screenshot, seriousAccessibilityViolations, settings } from './support/console';
import { withAppDatabase } from './support/database';
import { ARTIFACTS_DIR } from './support/paths';
import { createIntegrationThroughConsole, DESKTOP, HASHING_STEP_MS, openSection, PHONE } from './support/portal';

const PASSWORD = 'volcán de fuego al amanecer sobre Antigua';

/** The latest link the app printed for this address (lib/flows/portal-identity/mail.ts, development without SMTP). */
async function printedLink(kind: 'Invitación al portal para' | 'Restablecer la contraseña del portal de', email: string): Promise<string> {
  const log = path.join(ARTIFACTS_DIR, 'app-output.log');
  const pattern = new RegExp(`${kind} ${email.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b[^\\n]*?(http\\S+)`, 'g');
  for (let waited = 0; waited < 10_000; waited += 100) {
    const found = [...fs.readFileSync(log, 'utf8').matchAll(pattern)].at(-1)?.[1];
    if (found) return found;
    await sleep(100);
  }
  throw new Error(`the app printed no link for ${email}`);
}

async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

/** Axe and no sideways scrolling at this page's current size, and a screenshot. */
async function checkPage(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  expect(await seriousAccessibilityViolations(page), name).toEqual([]);
  expect(await horizontalOverflow(page), name).toBeLessThanOrEqual(0);
  await screenshot(page, testInfo, name);
}

/** The same at 1366 and 390 px: the page as it is, then resized (and back). */
async function checkBothSizes(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const original = page.viewportSize();
  for (const [size, viewport] of [
    ['1366', DESKTOP],
    ['390', PHONE],
  ] as const) {
    await page.setViewportSize(viewport);
    await checkPage(page, testInfo, `portal-${name}-${size}`);
  }
  if (original) await page.setViewportSize(original);
}

async function newPage(browser: Browser, viewport: { width: number; height: number }, ip: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport, extraHTTPHeaders: { 'x-forwarded-for': ip } });
  return { context, page: await context.newPage() };
}

/** The Guatemalan month before this one, YYYY-MM: the last one a statement can be issued for. */
function lastMonth(): string {
  const [year, month] = guatemalanToday().split('-').map(Number) as [number, number];
  return month === 1 ? `${year - 1}-12` : `${year}-${String(month - 1).padStart(2, '0')}`;
}

/** Signs out from the portal's header (behind "Menú" on a phone). */
async function signOut(page: Page): Promise<void> {
  const menu = page.getByRole('button', { name: 'Menú' });
  if (await menu.isVisible()) await menu.click();
  await page.getByRole('button', { name: 'Cerrar sesión' }).click();
  await expect(page.getByText('Cerró sesión. Hasta pronto.')).toBeVisible();
}

test('un administrador invita al propietario; el propietario acepta, activa la verificación, ve su saldo, su uso, una consulta fallida y su estado de cuenta, e invita a facturación', async ({
  browser,
  request,
}, testInfo) => {
  test.setTimeout(300_000);
  const { baseUrl } = settings();
  const stamp = Date.now().toString(36);
  const nombre = `portal-${stamp}`;
  const ownerEmail = `duena-${stamp}@example.com`;
  const billingEmail = `facturas-${stamp}@example.com`;

  // The administrator creates an integration (compliance lookups at Q 1.50, Q 250.00), makes it
  // 70 days old so last month is closed, issues last month's statement and invites its owner.
  const { context: adminContext, page: admin } = await newPage(browser, DESKTOP, '10.60.0.1');
  await openConsoleAsAdmin(admin);
  const { token, id } = await createIntegrationThroughConsole(admin, { nombre, tariff: '1.50', balance: '250.00', omisos: true });
  await withAppDatabase((sql) => sql`update integrations set created_at = now() - interval '70 days' where id = ${id}`);
  const month = lastMonth();
  await admin.goto(`${baseUrl}/admin/integraciones/${id}/saldo`);
  const statements = admin.locator('section[aria-labelledby="statements-title"]');
  await statements.getByLabel('Mes').selectOption(month);
  await statements.getByRole('button', { name: 'Emitir estado de cuenta' }).click();
  await expect(statements.getByTestId('statements').locator('tbody tr')).toHaveCount(1);
  // The integration's portal users have a section of their own (issue 32's sections).
  await admin.getByRole('navigation', { name: 'Secciones de la integración' }).getByRole('link', { name: 'Portal', exact: true }).click();
  const section = admin.getByTestId('portal-users');
  await expect(section.getByRole('heading', { name: 'Usuarios del portal' })).toBeVisible();
  await section.getByLabel('Correo de la persona').fill(ownerEmail);
  // No role chosen beforehand: sent without one, the refusal is said once, beside the field.
  await expect(section.getByLabel('Rol en el portal')).toHaveValue('');
  await section.getByRole('button', { name: 'Enviar invitación' }).click();
  await expect(section.getByText('Elija el rol de la persona', { exact: false })).toHaveCount(1);
  await section.getByLabel('Rol en el portal').selectOption({ label: 'Propietario' });
  await section.getByRole('button', { name: 'Enviar invitación' }).click();
  await expect(section.getByText(`Invitación creada para ${ownerEmail}`)).toBeVisible();
  await admin.reload();
  await expect(admin.getByTestId('portal-invitations')).toContainText(ownerEmail);
  await checkBothSizes(admin, testInfo, 'consola-usuarios-del-portal');

  // The owner opens the link: the page takes the code out of the address and posts it with the form.
  const invitation = await printedLink('Invitación al portal para', ownerEmail);
  const { context: ownerContext, page: owner } = await newPage(browser, DESKTOP, '10.60.0.2');
  await owner.goto(invitation);
  await expect(owner.getByRole('heading', { name: 'Invitación al portal de integradores', level: 1 })).toBeVisible();
  await expect(owner.getByRole('main')).toContainText(`como propietario de la integración «${nombre}»`);
  await expect(owner.getByTestId('sandbox-banner')).toContainText('Entorno de pruebas (sandbox)');
  await expect.poll(() => new URL(owner.url()).search).toBe('');
  await checkBothSizes(owner, testInfo, 'invitacion');
  await owner.getByLabel('Su nombre').fill('Dueña de la integración');
  await owner.getByLabel('Contraseña', { exact: true }).fill(PASSWORD);
  await owner.getByLabel('Repita la contraseña').fill(PASSWORD);
  await owner.getByRole('button', { name: 'Crear mi cuenta' }).click();

  // Inicio: the integration's name, its balance now and the low-balance threshold, the owner's role.
  await expect(owner.getByRole('heading', { name: nombre, level: 1 })).toBeVisible({ timeout: HASHING_STEP_MS });
  await expect(owner.getByTestId('portal-balance')).toHaveText('Q 250.00');
  await expect(owner.getByTestId('portal-low-balance')).toContainText('Q ');
  await expect(owner.getByTestId('portal-role')).toHaveText('Propietario');
  await expect(owner.getByTestId('portal-integration')).toHaveText(nombre);
  await checkBothSizes(owner, testInfo, 'inicio');

  // Two-factor sign-in, from Mi cuenta: the QR code and the key typed by hand, as in the console.
  await owner.goto(`${baseUrl}/portal/cuenta`);
  await owner.getByRole('button', { name: 'Activar verificación en dos pasos' }).click();
  await expect(owner.getByRole('img', { name: 'Código QR para agregar su cuenta del portal a la aplicación' })).toBeVisible();
  const secret = (await owner.getByTestId('two-factor-secret').textContent())!.replace(/\s+/g, '');
  await checkBothSizes(owner, testInfo, 'activar-verificacion');
  await owner.getByLabel('Código de la aplicación').fill(totpCodeAt(secret, Date.now()));
  await owner.getByRole('button', { name: 'Confirmar y activar' }).click();
  await expect(owner.getByTestId('recovery-codes').getByRole('listitem')).toHaveCount(10);
  await owner.getByRole('button', { name: 'Listo, ya los guardé' }).click();
  await expect(owner.getByTestId('recovery-codes-left')).toHaveText('Le quedan 10 códigos de recuperación.');
  await expect(owner.getByTestId('active-sessions').locator('tbody tr')).toHaveCount(1);
  await checkBothSizes(owner, testInfo, 'cuenta');

  // Signing in again asks for the app's code (the enrolment's step is spent: the next one).
  await signOut(owner);
  await checkBothSizes(owner, testInfo, 'ingresar');
  await owner.getByLabel('Correo electrónico').fill(ownerEmail);
  await owner.getByLabel('Contraseña').fill(PASSWORD);
  await owner.getByRole('button', { name: 'Iniciar sesión' }).click();
  await expect(owner.getByRole('heading', { name: 'Verificación en dos pasos', level: 1 })).toBeVisible({ timeout: HASHING_STEP_MS });
  await owner.goto(`${baseUrl}/portal/equipo`);
  await expect(owner.getByRole('heading', { name: 'Verificación en dos pasos', level: 1 })).toBeVisible();
  await checkBothSizes(owner, testInfo, 'verificacion');
  await owner.getByLabel('Código de verificación').fill(totpCodeAt(secret, Date.now() + TOTP_PERIOD_SECONDS * 1000));
  await owner.getByRole('button', { name: 'Verificar' }).click();
  // The code opens the page asked for on the way (Equipo), not Inicio.
  await expect(owner).toHaveURL(`${baseUrl}/portal/equipo`);
  await owner.goto(`${baseUrl}/portal`);
  await expect(owner.getByTestId('portal-balance')).toHaveText('Q 250.00');

  // The integration's system makes three compliance lookups and one for a NIT whose source fails
  // (the simulator's catalog answers 503, the gateway 502), and logs that answer's x-request-id.
  const lookup = (nit: string) =>
    request.post(`${baseUrl}/api/catalogos/omisos`, {
      headers: { 'x-integracion-login': nombre, 'x-integracion-token': token, 'x-forwarded-for': '198.51.100.60' },
      data: { nit },
    });
  const nit = samplePopulation({ seed: Number(process.env.E2E_SIMULATOR_SEED) }).omiso.nit;
  for (let index = 0; index < 3; index++) {
    const response = await lookup(nit);
    expect(response.status(), await response.text()).toBe(200);
  }
  const failed = await lookup(FAULT_IDENTIFIERS.server_error.nit);
  expect(failed.status(), await failed.text()).toBe(502);
  const requestId = failed.headers()['x-request-id']!;
  expect(requestId).toMatch(/^req_/);

  // Inicio: the balance the three charged lookups left, and the use per day (once the rollups have
  // added them): today's column of the chart carries all four.
  await expect(async () => {
    await owner.goto(`${baseUrl}/portal`);
    await expect(owner.getByTestId('portal-usage-queries')).toHaveText('4', { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await expect(owner.getByTestId('portal-balance')).toHaveText('Q 245.50');
  await expect(owner.getByTestId('portal-spent-current')).toHaveText('Q 4.50');
  const perDay = owner.getByRole('img', { name: 'Consultas por tipo a lo largo del tiempo' });
  await expect(perDay).toBeVisible();
  await expect(perDay.locator('.bar-chart-column').last()).toHaveAttribute('data-tip', /Catálogo omisos: 4\nTotal: 4$/);
  await checkBothSizes(owner, testInfo, 'inicio-uso');

  // Consultas: the request id its system logged opens the failed query: why, and not charged.
  await openSection(owner, 'Consultas');
  await owner.getByLabel('Id de solicitud, NIT o CUI').fill(requestId);
  await owner.getByRole('button', { name: 'Filtrar' }).click();
  await expect(owner).toHaveURL(`${baseUrl}/portal/consultas/${requestId}`);
  await expect(owner.getByTestId('record-explanation')).toHaveText(
    'La fuente de catálogos respondió HTTP 503 (servicio no disponible): la fuente falló. La integración recibió 502.',
  );
  await expect(owner.getByTestId('record-charged')).toHaveText('Sin cobro. Solo se cobra una respuesta 200 y esta terminó en 502: la reserva se liberó.');
  await checkBothSizes(owner, testInfo, 'consulta-fallida');

  // Estados de cuenta: last month's statement, downloaded as a PDF.
  await openSection(owner, 'Estados de cuenta');
  const statement = owner.getByTestId('portal-statements').locator('tbody tr');
  await expect(statement).toHaveCount(1);
  await expect(statement).toContainText(monthName(month));
  await checkBothSizes(owner, testInfo, 'estados');
  const [download] = await Promise.all([owner.waitForEvent('download'), statement.getByRole('link', { name: 'PDF', exact: true }).click()]);
  expect(new URL(download.url()).pathname).toMatch(/^\/portal\/estados\/\d+\/pdf$/);
  expect(download.suggestedFilename()).toBe(`estado-de-cuenta-${nombre}-${month}.pdf`);
  // Chromium hands a download to Playwright without a response event or a route to read it by: its
  // type is read from the same address in the owner's session.
  const answer = await owner.context().request.get(download.url());
  expect(answer.headers()['content-type']).toBe('application/pdf');
  const pdf = fs.readFileSync((await download.path())!);
  expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  const pdfText = pdfPageTextLines(pdf).flat().join('\n');
  expect(pdfText).toContain(nombre);
  expect(pdfText).toContain(periodText(month));

  // The owner invites a billing person from Equipo.
  await owner.goto(`${baseUrl}/portal/equipo`);
  await expect(owner.getByTestId('team-members')).toContainText(ownerEmail);
  await owner.getByTestId('invite-email').fill(billingEmail);
  await owner.getByTestId('invite-role').selectOption('facturacion');
  await owner.getByRole('button', { name: 'Enviar invitación' }).click();
  await expect(owner.getByText(`Invitación creada para ${billingEmail}`)).toBeVisible();
  await owner.reload();
  await expect(owner.getByTestId('team-invitations')).toContainText(billingEmail);
  await checkBothSizes(owner, testInfo, 'equipo');

  // The billing person accepts on a phone: Inicio with the balance, no team page for that role.
  const { context: billingContext, page: billing } = await newPage(browser, PHONE, '10.60.0.3');
  await billing.goto(await printedLink('Invitación al portal para', billingEmail));
  await expect(billing.getByRole('main')).toContainText(`como facturación de la integración «${nombre}»`);
  await billing.getByLabel('Su nombre').fill('Persona de facturación');
  await billing.getByLabel('Contraseña', { exact: true }).fill(PASSWORD);
  await billing.getByLabel('Repita la contraseña').fill(PASSWORD);
  await billing.getByRole('button', { name: 'Crear mi cuenta' }).click();
  await expect(billing.getByTestId('portal-balance')).toHaveText('Q 245.50', { timeout: HASHING_STEP_MS });
  await billing.getByRole('button', { name: 'Menú' }).click();
  // Billing reads the money (movements, statements) and reports deposits (issue 34), not the team nor the credentials.
  await expect(billing.getByRole('navigation', { name: 'Secciones del portal' }).getByRole('link')).toHaveText(['Inicio', 'Lotes', 'Vigilancia', 'Movimientos', 'Estados de cuenta', 'Facturas', 'Recargas', 'Mi cuenta']);
  await expect(billing.getByTestId('portal-role')).toHaveText('Facturación');
  await billing.getByRole('navigation', { name: 'Secciones del portal' }).getByRole('link', { name: 'Movimientos' }).click();
  await expect(billing.getByTestId('portal-movements').getByTestId('portal-balance-after')).toHaveText(['Q 245.50', 'Q 247.00', 'Q 248.50', 'Q 250.00']);
  await checkBothSizes(billing, testInfo, 'movimientos-facturacion');
  // Nor the query records, the team, the credentials or the notifications: refused at their own
  // address (403), in the portal's layout, naming the roles that may open them.
  for (const [page, allowed] of [
    ['consultas', 'propietario y desarrollador'],
    ['equipo', 'propietario'],
    ['credenciales', 'propietario y desarrollador'],
    ['notificaciones', 'propietario'],
  ] as const) {
    const answer = await billing.goto(`${baseUrl}/portal/${page}`);
    expect(answer?.status()).toBe(403);
    await expect(billing.getByRole('heading', { name: 'Esta página no es para su rol', level: 1 })).toBeVisible();
    await expect(billing.getByTestId('portal-forbidden')).toContainText(`Esta página es para ${allowed}.`);
    await expect(billing).toHaveURL(`${baseUrl}/portal/${page}`);
    // The portal's navigation (behind its menu button on this phone), as on any of billing's pages.
    await expect(billing.locator('nav[aria-label="Secciones del portal"] a[href="/portal/movimientos"]')).toHaveCount(1);
  }
  await checkBothSizes(billing, testInfo, 'sin-permiso');

  // Forgotten password: the same answer for any address; the link opens a page that posts it.
  await signOut(billing);
  await billing.goto(`${baseUrl}/portal/restablecer`);
  await checkBothSizes(billing, testInfo, 'restablecer');
  await billing.getByLabel('Correo electrónico de su cuenta').fill(billingEmail);
  await billing.getByRole('button', { name: 'Enviarme un enlace' }).click();
  await expect(billing.getByText('Si ese correo es de una cuenta del portal, le enviamos un enlace')).toBeVisible();
  await billing.goto(await printedLink('Restablecer la contraseña del portal de', billingEmail));
  await expect(billing.getByRole('heading', { name: 'Elegir una contraseña nueva', level: 1 })).toBeVisible();
  await expect.poll(() => new URL(billing.url()).search).toBe('');
  await checkBothSizes(billing, testInfo, 'restablecer-clave');
  const renewed = `${PASSWORD} y lluvia de la tarde`;
  await billing.getByLabel('Nueva contraseña', { exact: true }).fill(renewed);
  await billing.getByLabel('Repita la nueva contraseña').fill(renewed);
  await billing.getByRole('button', { name: 'Guardar la contraseña' }).click();
  await expect(billing.getByText('Contraseña restablecida. Inicie sesión con la nueva contraseña.')).toBeVisible({ timeout: HASHING_STEP_MS });

  // The administrator sees both people on the integration's page.
  await admin.reload();
  await expect(admin.getByTestId('portal-users-list')).toContainText(ownerEmail);
  await expect(admin.getByTestId('portal-users-list')).toContainText(billingEmail);

  // The owner invites someone by mistake and cancels it, then takes the billing person off the
  // team: each row goes, and the page still says what was done (a notice inside the row went with it).
  const mistakenEmail = `equivocado-${stamp}@example.com`;
  await owner.goto(`${baseUrl}/portal/equipo`);
  await owner.getByTestId('invite-email').fill(mistakenEmail);
  await owner.getByRole('button', { name: 'Enviar invitación' }).click();
  await expect(owner.getByText(`Invitación creada para ${mistakenEmail}`)).toBeVisible();
  const mistaken = owner.getByTestId('team-invitations').locator('tr', { hasText: mistakenEmail });
  await mistaken.getByRole('button', { name: 'Cancelar invitación' }).click();
  await owner.getByRole('dialog').getByRole('button', { name: 'Cancelar invitación' }).click();
  await expect(mistaken).toHaveCount(0);
  await expect(owner.getByRole('status').filter({ hasText: `Invitación a ${mistakenEmail} cancelada: su enlace ya no sirve.` })).toBeVisible();
  const billingRow = owner.getByTestId('team-members').locator('tr', { hasText: billingEmail });
  await billingRow.getByRole('button', { name: 'Quitar del equipo' }).click();
  await owner.getByRole('dialog').getByRole('button', { name: 'Quitar del equipo' }).click();
  await expect(billingRow).toHaveCount(0);
  await expect(
    owner.getByRole('status').filter({ hasText: 'Persona de facturación ya no es parte del equipo; sus sesiones se cerraron. Los tokens de la integración siguen funcionando.' }),
  ).toBeVisible();
  // The first notice went when the next action started: one notice, about the last thing done.
  await expect(owner.getByRole('status').filter({ hasText: 'cancelada' })).toHaveCount(0);
  await checkBothSizes(owner, testInfo, 'equipo-quitado');

  await billingContext.close();
  await ownerContext.close();
  await adminContext.close();
});
