// What an integration's owner reads in the portal (issue 33, point 4), in chromium at 1366 and
// 390 px with axe: Movimientos with the opening top-up (by "Administración", not the staff member's
// e-mail), Facturas with that top-up's certified invoice and its PDF, Credenciales with the
// integration's token by its prefix (never the token), and Estados de cuenta with a statement the
// console issued, whose PDF downloads through the portal.
import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { monthName } from '../lib/platform/time/months';
import { PREVIEW_MARK } from '../lib/flows/statements/texts';
import { pdfPageTextLines } from '../tests/support/pdf-text';
import { openConsoleAsAdmin, settings } from './support/console';
import { withAppDatabase } from './support/database';
import { acceptPrintedInvitation, checkBothSizes, createIntegrationThroughConsole, DESKTOP, inviteThroughConsole, openSection } from './support/portal';

const PASSWORD = 'quetzal sobre el cerro de la cruz';

test('el propietario ve sus movimientos, sus credenciales y descarga un estado de cuenta emitido', async ({ browser }, testInfo) => {
  test.setTimeout(300_000);
  const { baseUrl, adminEmail } = settings();
  const stamp = Date.now().toString(36);
  const nombre = `vistas-${stamp}`;
  const ownerEmail = `duena-vistas-${stamp}@example.com`;

  // The administrator creates the integration with Q 250.00, backdated so last month is closed,
  // issues last month's statement and invites the owner.
  const adminContext = await browser.newContext({ viewport: DESKTOP, extraHTTPHeaders: { 'x-forwarded-for': '10.61.0.1' } });
  const admin = await adminContext.newPage();
  await openConsoleAsAdmin(admin);
  const { token, id } = await createIntegrationThroughConsole(admin, { nombre, balance: '250.00' });
  expect(token).toMatch(/^tlk_/);
  await withAppDatabase((sql) => sql`update integrations set created_at = now() - interval '70 days' where id = ${id}`);
  await admin.goto(`${baseUrl}/admin/integraciones/${id}/saldo`);
  const statements = admin.locator('section[aria-labelledby="statements-title"]');
  const month = await statements.getByLabel('Mes').inputValue();
  await statements.getByRole('button', { name: 'Emitir estado de cuenta' }).click();
  await expect(statements.getByTestId('statements').locator('tbody tr')).toHaveCount(1);
  await inviteThroughConsole(admin, id, ownerEmail);
  await adminContext.close();

  const context = await browser.newContext({ viewport: DESKTOP, extraHTTPHeaders: { 'x-forwarded-for': '10.61.0.2' } });
  const owner = await context.newPage();
  await acceptPrintedInvitation(owner, { email: ownerEmail, name: 'Dueña de vistas', password: PASSWORD }, nombre);

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

  // Facturas: the opening top-up's invoice, certified by the simulator's certifier, its page and PDF.
  await openSection(owner, 'Facturas');
  await expect(async () => {
    await owner.reload();
    await expect(owner.getByTestId('portal-invoice')).toHaveCount(1);
    await expect(owner.getByTestId('portal-invoice')).toContainText('Certificada');
  }).toPass({ timeout: 30_000 });
  await expect(owner.getByTestId('portal-invoice')).toContainText('Q 250.00');
  await checkBothSizes(owner, testInfo, 'facturas');
  await owner.getByTestId('portal-invoice').locator('a[href^="/portal/facturas/"]').first().click();
  await expect(owner.getByRole('heading', { level: 1 })).toHaveText(/^Factura [0-9A-F]{8}-\d+$/);
  await expect(owner.getByTestId('invoice-total')).toHaveText('Q 250.00');
  await checkBothSizes(owner, testInfo, 'factura');
  const [invoicePdf] = await Promise.all([owner.waitForEvent('download'), owner.getByTestId('invoice-pdf').click()]);
  expect(new URL(invoicePdf.url()).pathname).toMatch(/^\/portal\/facturas\/\d+\/pdf$/);
  const invoiceText = pdfPageTextLines(fs.readFileSync((await invoicePdf.path())!)).flat().join('\n');
  expect(invoiceText).toContain('250.00');

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

  // The running month's preview, marked as one, and its PDF.
  await owner.getByRole('link', { name: 'Ver la vista previa' }).click();
  await expect(owner.getByRole('heading', { level: 1 })).toHaveText('Vista previa del mes en curso');
  await expect(owner.getByTestId('preview-mark')).toContainText(PREVIEW_MARK);
  await expect(owner.getByTestId('statement-preview')).toContainText(nombre);
  await checkBothSizes(owner, testInfo, 'estados-vista-previa');
  const [previewDownload] = await Promise.all([owner.waitForEvent('download'), owner.getByTestId('portal-preview-pdf').click()]);
  expect(new URL(previewDownload.url()).pathname).toBe('/portal/estados/vista-previa/pdf');
  const previewText = pdfPageTextLines(fs.readFileSync((await previewDownload.path())!)).flat().join('\n');
  expect(previewText).toContain(PREVIEW_MARK);
  await context.close();
});
