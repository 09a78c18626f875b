// A support user sees a taxpayer's NIT masked, reveals it on one record with a reason, and an
// administrator finds that access, with the reason, in "Accesos a datos personales".
import { expect, test, type Browser } from '@playwright/test';
import { createUserThroughForm, demoToken, openConsoleAsAdmin, screenshot, settings, signInFirstTime } from './support/console';

// The simulator's showcase taxpayer, present in every population (simulator/population.ts).
const NIT = '576937-K';

async function newSupportUser(browser: Browser) {
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await openConsoleAsAdmin(admin);
  const email = `soporte-datos-${Date.now().toString(36)}@example.com`;
  const password = await createUserThroughForm(admin, email, 'Soporte datos personales');
  return { admin, adminContext, email, password };
}

test('soporte ve el NIT enmascarado, lo muestra en una consulta indicando el motivo, y el acceso queda registrado', async ({ browser, request }, testInfo) => {
  const { baseUrl } = settings();
  const lookup = await request.post(`${baseUrl}/api/rtu/nits`, {
    headers: { 'x-integracion-login': 'demo', 'x-integracion-token': demoToken(), 'x-forwarded-for': '198.51.100.23' },
    data: { nits: [NIT] },
  });
  expect(lookup.status(), await lookup.text()).toBe(200);
  const { admin, adminContext, email, password } = await newSupportUser(browser);

  const supportContext = await browser.newContext();
  const support = await supportContext.newPage();
  await signInFirstTime(support, email, password);
  await support.goto(`${baseUrl}/admin/registros`);
  await support.getByLabel('NIT, CUI o id de solicitud').fill(NIT);
  await support.getByRole('button', { name: 'Filtrar' }).click();
  await expect(support).toHaveURL(/busqueda=bq_/);
  const row = support.getByTestId('records').locator('tbody tr').filter({ hasText: 'RTU por NIT' }).first();
  await expect(row.getByTestId('record-identifier')).toHaveText('5769••-K');
  await row.getByRole('link').first().click();
  await expect(support.getByTestId('record-nit')).toHaveText('5769••-K');

  await support.getByRole('button', { name: 'Mostrar', exact: true }).click();
  // The reason is required: without one nothing is shown.
  await support.getByRole('button', { name: 'Mostrar identificadores' }).click();
  await expect(support.getByText('Escriba el motivo o el número de ticket')).toBeVisible();
  await expect(support.getByTestId('revealed-identifiers')).toHaveCount(0);
  await support.getByLabel('Motivo (obligatorio)').fill('Ticket 5120: el integrador pregunta por esta consulta');
  await support.getByRole('button', { name: 'Mostrar identificadores' }).click();
  await expect(support.getByTestId('revealed-nit')).toHaveText(NIT);
  await screenshot(support, testInfo, 'datos-personales-mostrar');
  const recordId = /\/admin\/registros\/(\d+)/.exec(support.url())![1]!;

  await admin.goto(`${baseUrl}/admin/datos-personales`);
  await expect(admin.getByRole('heading', { name: 'Accesos a datos personales', level: 1 })).toBeVisible();
  const entry = admin.getByTestId('personal-data-access').locator('tbody tr').filter({ hasText: 'Ticket 5120' });
  await expect(entry).toHaveCount(1);
  await expect(entry).toContainText(email);
  await expect(entry).toContainText('Mostró los identificadores');
  await expect(entry.getByRole('link', { name: recordId })).toBeVisible();
  await screenshot(admin, testInfo, 'datos-personales-accesos');
  await supportContext.close();
  await adminContext.close();
});
