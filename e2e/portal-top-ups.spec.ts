// Issue 34, point 3's "done when", in chromium at 1366 and 390 px with axe: a billing person
// reports a deposit with a photo of its slip in the portal; an administrator sees it in
// "Recargas pendientes" (the count in the navigation, the slip inline), approves it, and the
// integration's balance and the movement's note show it; a second report of the same bank and
// reference is refused. The second test corrects reports: a cancellation, another amount with its note.
import { expect, test } from '@playwright/test';
import { TOP_UP_MESSAGES } from '../lib/flows/top-ups/messages';
import { depositDaysAgo, shownDay } from '../tests/support/deposit-dates';
import { slipPng } from '../tests/support/slip-png';
import { openConsoleAsAdmin, seriousAccessibilityViolations, settings } from './support/console';
import { acceptPrintedInvitation, checkBothSizes, createIntegrationThroughConsole, DESKTOP, inviteThroughConsole, openSection, PHONE } from './support/portal';

const PASSWORD = 'boleta del banco junto al parque central';

test('una persona de facturación reporta un depósito con su boleta y un administrador lo acredita una vez', async ({ browser }, testInfo) => {
  test.setTimeout(300_000);
  const { baseUrl } = settings();
  const stamp = Date.now().toString(36);
  const nombre = `recargas-${stamp}`;
  const billingEmail = `pagos-${stamp}@example.com`;
  const reference = `88${stamp.toUpperCase()}`;

  const adminContext = await browser.newContext({ viewport: DESKTOP, extraHTTPHeaders: { 'x-forwarded-for': '10.62.0.1' } });
  const admin = await adminContext.newPage();
  await openConsoleAsAdmin(admin);
  const { id } = await createIntegrationThroughConsole(admin, { nombre, balance: '100.00' });
  await inviteThroughConsole(admin, id, billingEmail, 'Facturación');

  const context = await browser.newContext({ viewport: DESKTOP, extraHTTPHeaders: { 'x-forwarded-for': '10.62.0.2' } });
  const billing = await context.newPage();
  await acceptPrintedInvitation(billing, { email: billingEmail, name: 'Pagos de recargas', password: PASSWORD }, nombre);

  // The report: bank, reference with spaces as the slip prints it, date, amount and the slip.
  await openSection(billing, 'Recargas');
  // Where to deposit, beside the form: development's sample account, and the login to write on the slip.
  await expect(billing.getByTestId('deposit-account')).toContainText('Cuenta de desarrollo, no deposite');
  await expect(billing.getByTestId('deposit-slip-note')).toContainText(`escriba el login de su integración, ${nombre}:`);
  await checkBothSizes(billing, testInfo, 'recargas-vacia');
  const report = async (typedReference: string) => {
    await billing.getByLabel('Banco').selectOption({ label: 'Banco Industrial' });
    await billing.getByLabel('Número de referencia').fill(typedReference);
    await billing.getByLabel('Fecha del depósito').fill(depositDaysAgo(7));
    await billing.getByLabel('Monto (Q)').fill('1,500.00');
    await billing.getByLabel('Boleta (opcional)').setInputFiles({ name: 'boleta.png', mimeType: 'image/png', buffer: slipPng() });
    await billing.getByRole('button', { name: 'Reportar depósito' }).click();
  };
  await report(` ${reference.slice(0, 4)} ${reference.slice(4)} `);
  await expect(billing.getByText('La administración lo revisará')).toBeVisible();
  const row = billing.getByTestId('portal-top-up-row').filter({ hasText: reference.slice(4) });
  await expect(row).toContainText('Pendiente de revisión');
  await expect(row).toContainText('Q 1,500.00');
  await checkBothSizes(billing, testInfo, 'recargas');

  // The administrator: the count in the navigation, the slip inline, the approval confirmed.
  await admin.goto(`${baseUrl}/admin/recargas`);
  const count = admin.getByRole('navigation', { name: 'Secciones de la consola' }).getByTestId('nav-count');
  const pendingBefore = Number(await count.textContent());
  expect(pendingBefore).toBeGreaterThanOrEqual(1);
  const card = admin.getByTestId('pending-top-up').filter({ hasText: nombre });
  await expect(card).toContainText('Banco Industrial');
  const slip = card.getByRole('img', { name: /Boleta del depósito/ });
  await expect(slip).toBeVisible();
  expect(await slip.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(8);
  for (const viewport of [DESKTOP, PHONE]) {
    await admin.setViewportSize(viewport);
    expect(await seriousAccessibilityViolations(admin), `recargas pendientes ${viewport.width}`).toEqual([]);
    expect(await admin.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  }
  await admin.setViewportSize(DESKTOP);
  await card.getByRole('button', { name: 'Aprobar y acreditar' }).click();
  await admin.getByRole('dialog', { name: `¿Acreditar Q 1,500.00 a «${nombre}»?` }).getByRole('button', { name: 'Aprobar y acreditar' }).click();
  await expect(admin.getByTestId('top-up-notice')).toContainText('Recarga de Q 1,500.00 acreditada');
  await admin.reload();
  await expect(admin.getByTestId('pending-top-up').filter({ hasText: nombre })).toHaveCount(0);
  if (pendingBefore > 1) await expect(count).toHaveText(String(pendingBefore - 1));
  else await expect(count).toHaveCount(0);
  await adminContext.close();

  // The integration: the balance, the movement with the bank and the reference, the state.
  await openSection(billing, 'Movimientos');
  await expect(billing.getByTestId('portal-current-balance')).toHaveText('Q 1,600.00');
  const movement = billing.getByTestId('portal-movements').locator('tbody tr').first();
  await expect(movement).toContainText('Q 1,500.00');
  await expect(movement).toContainText(`Depósito Banco Industrial, referencia ${reference.slice(0, 4)} ${reference.slice(4)}, del ${shownDay(depositDaysAgo(7))}`);
  await expect(movement).not.toContainText('solicitud');
  await checkBothSizes(billing, testInfo, 'movimientos-recarga');
  await openSection(billing, 'Recargas');
  await expect(row).toContainText('Acreditada');

  // The same deposit again, typed without spaces: refused, nothing added.
  await report(reference);
  await expect(billing.getByRole('alert').first()).toContainText(TOP_UP_MESSAGES.duplicate);
  await expect(billing.getByTestId('portal-top-up-row')).toHaveCount(1);
  await checkBothSizes(billing, testInfo, 'recargas-repetida');
  await context.close();
});

// Correcting reports: the reporter cancels a pending one (asked first); an administrator credits
// another amount than reported with a note, and both amounts and the note reach the portal; the
// history under "Recargas pendientes" shows both decisions, at 1366 and 390 px with axe.
test('quien reportó cancela un reporte pendiente y un administrador acredita otro monto con una nota', async ({ browser }, testInfo) => {
  test.setTimeout(300_000);
  const { baseUrl, adminEmail } = settings();
  const stamp = Date.now().toString(36);
  const nombre = `correcciones-${stamp}`;
  const billingEmail = `caja-${stamp}@example.com`;
  const [kept, withdrawn] = [`70${stamp.toUpperCase()}`, `71${stamp.toUpperCase()}`];

  const adminContext = await browser.newContext({ viewport: DESKTOP, extraHTTPHeaders: { 'x-forwarded-for': '10.62.0.3' } });
  const admin = await adminContext.newPage();
  await openConsoleAsAdmin(admin);
  const { id } = await createIntegrationThroughConsole(admin, { nombre, balance: '100.00' });
  await inviteThroughConsole(admin, id, billingEmail, 'Facturación');

  const context = await browser.newContext({ viewport: DESKTOP, extraHTTPHeaders: { 'x-forwarded-for': '10.62.0.4' } });
  const billing = await context.newPage();
  await acceptPrintedInvitation(billing, { email: billingEmail, name: 'Caja', password: PASSWORD }, nombre);
  await openSection(billing, 'Recargas');
  for (const [reference, amount] of [
    [kept, '1,500.00'],
    [withdrawn, '800.00'],
  ] as const) {
    await billing.getByLabel('Banco').selectOption({ label: 'Banco Industrial' });
    await billing.getByLabel('Número de referencia').fill(reference);
    await billing.getByLabel('Fecha del depósito').fill(depositDaysAgo(3));
    await billing.getByLabel('Monto (Q)').fill(amount);
    await billing.getByRole('button', { name: 'Reportar depósito' }).click();
    await expect(billing.getByTestId('portal-top-up-row').filter({ hasText: reference })).toContainText('Pendiente de revisión');
  }

  // The reporter withdraws the second report, asked first.
  const withdrawnRow = billing.getByTestId('portal-top-up-row').filter({ hasText: withdrawn });
  await withdrawnRow.getByRole('button', { name: 'Cancelar reporte' }).click();
  const dialog = billing.getByRole('dialog', { name: '¿Cancelar este reporte?' });
  await expect(dialog).toContainText(`El depósito de Q 800.00 en Banco Industrial, referencia ${withdrawn}`);
  await dialog.getByRole('button', { name: 'Cancelar reporte' }).click();
  await expect(withdrawnRow).toContainText('Cancelada');
  await expect(withdrawnRow.getByRole('button', { name: 'Cancelar reporte' })).toHaveCount(0);
  await checkBothSizes(billing, testInfo, 'recargas-cancelada');

  // The administrator credits Q 1,450.00 of the Q 1,500.00 reported, with a note.
  await admin.goto(`${baseUrl}/admin/recargas`);
  const card = admin.getByTestId('pending-top-up').filter({ hasText: kept });
  await expect(card.getByLabel('Monto a acreditar (Q)')).toHaveValue('1,500.00');
  await card.getByLabel('Monto a acreditar (Q)').fill('1,450.00');
  await card.getByLabel('Nota (obligatoria si cambia el monto)').fill('El banco acreditó Q 1,450.00: comisión de Q 50.00');
  await card.getByRole('button', { name: 'Aprobar y acreditar' }).click();
  const question = admin.getByRole('dialog', { name: `¿Acreditar Q 1,450.00 a «${nombre}»?` });
  await expect(question).toContainText('Se reportaron Q 1,500.00; se acreditará Q 1,450.00');
  await question.getByRole('button', { name: 'Aprobar y acreditar' }).click();
  await expect(admin.getByTestId('top-up-notice')).toContainText('Recarga de Q 1,450.00 acreditada en lugar de los Q 1,500.00 reportados');
  await admin.reload();
  const history = admin.getByTestId('top-up-history-row');
  await expect(history.filter({ hasText: kept })).toContainText('Acreditada');
  await expect(history.filter({ hasText: kept })).toContainText(adminEmail);
  await expect(history.filter({ hasText: withdrawn })).toContainText('Cancelada');
  await expect(history.filter({ hasText: withdrawn })).toContainText(`Integrador: ${billingEmail}`);
  for (const viewport of [DESKTOP, PHONE]) {
    await admin.setViewportSize(viewport);
    expect(await seriousAccessibilityViolations(admin), `recargas con historial ${viewport.width}`).toEqual([]);
    expect(await admin.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  }
  await adminContext.close();

  // The integration reads what was credited, what it reported and why.
  await billing.reload();
  const keptRow = billing.getByTestId('portal-top-up-row').filter({ hasText: kept });
  await expect(keptRow).toContainText('Acreditada');
  await expect(keptRow).toContainText('Q 1,450.00 acreditados');
  await expect(keptRow).toContainText('Reportado: Q 1,500.00');
  await expect(keptRow).toContainText('Nota de la administración: El banco acreditó Q 1,450.00: comisión de Q 50.00');
  await checkBothSizes(billing, testInfo, 'recargas-otro-monto');
  await context.close();
});
