// Issue 33's "done when" for Consultas, in chromium at 1366 and 390 px with axe: an integration's
// owner finds a failed query (a 502: the simulator's catalog source answered 503) by the request id
// its system logged, reads why it failed and that it was not charged, reveals the NIT it sent
// (written to the access log first), searches that NIT without it ever reaching the address bar,
// and downloads the day's queries as CSV with the NIT masked.
import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { FAULT_IDENTIFIERS } from '../simulator/faults';
import { csvRows, expectKeptWhole, openConsoleAsAdmin, settings } from './support/console';
import { acceptPrintedInvitation, checkBothSizes, createIntegrationThroughConsole, DESKTOP, inviteThroughConsole, PHONE } from './support/portal';

const PASSWORD = 'quetzal sobre el cerro de la cruz';
const FAILING_NIT = FAULT_IDENTIFIERS.server_error.nit;

test('el propietario encuentra una consulta fallida por su id de solicitud, ve que no se cobró, muestra su NIT y descarga el CSV', async ({ browser, request }, testInfo) => {
  test.setTimeout(300_000);
  const { baseUrl } = settings();
  const stamp = Date.now().toString(36);
  const nombre = `consultas-${stamp}`;
  const ownerEmail = `duena-consultas-${stamp}@example.com`;

  // The administrator creates the integration (a tariff and a balance) and invites its owner.
  const adminContext = await browser.newContext({ viewport: DESKTOP, extraHTTPHeaders: { 'x-forwarded-for': '10.62.0.1' } });
  const admin = await adminContext.newPage();
  await openConsoleAsAdmin(admin);
  const { token, id } = await createIntegrationThroughConsole(admin, { nombre, tariff: '1.50', balance: '50.00', omisos: true });
  await inviteThroughConsole(admin, id, ownerEmail);

  // The integrator's system asks for a NIT whose source fails, and logs the x-request-id it got.
  const answer = await request.post(`${baseUrl}/api/catalogos/omisos`, {
    headers: { 'x-integracion-login': nombre, 'x-integracion-token': token, 'x-forwarded-for': '198.51.100.62' },
    data: { nit: FAILING_NIT },
  });
  expect(answer.status(), await answer.text()).toBe(502);
  const requestId = answer.headers()['x-request-id']!;
  expect(requestId).toMatch(/^req_/);

  const context = await browser.newContext({ viewport: DESKTOP, extraHTTPHeaders: { 'x-forwarded-for': '10.62.0.2' }, acceptDownloads: true });
  const owner = await context.newPage();
  await acceptPrintedInvitation(owner, { email: ownerEmail, name: 'Dueña de consultas', password: PASSWORD }, nombre);

  // Consultas from the menu: the 502, not charged, its NIT masked.
  await owner.getByRole('navigation', { name: 'Secciones del portal' }).getByRole('link', { name: 'Consultas', exact: true }).click();
  await expect(owner.getByRole('heading', { name: 'Consultas', level: 1 })).toBeVisible();
  const row = owner.getByTestId('portal-records').locator('tbody tr');
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId('record-status')).toHaveText('502');
  await expect(row.getByTestId('record-charged')).toHaveText('Q 0.00');
  await expect(row.getByTestId('record-identifier')).not.toContainText(FAILING_NIT);
  await checkBothSizes(owner, testInfo, 'consultas');

  // The request id its system logged opens the query: why it failed, and that it was not charged.
  await owner.getByLabel('Id de solicitud, NIT o CUI').fill(requestId);
  await owner.getByRole('button', { name: 'Filtrar' }).click();
  await expect(owner).toHaveURL(`${baseUrl}/portal/consultas/${requestId}`);
  await expect(owner.getByTestId('record-explanation')).toHaveText(
    'La fuente de catálogos respondió HTTP 503 (servicio no disponible): la fuente falló. La integración recibió 502.',
  );
  await expect(owner.getByTestId('record-charged')).toHaveText('Sin cobro. Solo se cobra una respuesta 200 y esta terminó en 502: la reserva se liberó.');
  await expect(owner.getByTestId('record-nit')).not.toContainText(FAILING_NIT);
  await checkBothSizes(owner, testInfo, 'consulta');
  // On a phone the route and the request id are read and copied as one word: never split inside one.
  await owner.setViewportSize(PHONE);
  await expectKeptWhole(owner.getByTestId('record-detail').getByText('/api/catalogos/omisos', { exact: true }), 'route');
  await expectKeptWhole(owner.getByTestId('record-request-id'), 'request id');
  await owner.setViewportSize(DESKTOP);

  // "Mostrar" with a reason: the NIT as it was sent, once the access is logged.
  await owner.getByTestId('reveal-start').click();
  await owner.getByTestId('reveal-reason').fill('Conciliar con nuestro registro');
  await owner.getByRole('button', { name: 'Mostrar identificadores' }).click();
  await expect(owner.getByTestId('revealed-nit')).toHaveText(FAILING_NIT);
  await checkBothSizes(owner, testInfo, 'consulta-mostrada');

  // A NIT search: posted, so the address holds a reference and never the NIT.
  await owner.goto(`${baseUrl}/portal/consultas`);
  await owner.getByLabel('Id de solicitud, NIT o CUI').fill(FAILING_NIT);
  await owner.getByRole('button', { name: 'Filtrar' }).click();
  await expect(owner).toHaveURL(/\/portal\/consultas\?busqueda=bq_/);
  expect(owner.url()).not.toContain(FAILING_NIT);
  await expect(owner.getByTestId('portal-records').locator('tbody tr')).toHaveCount(1);

  // The day's queries as CSV, the NIT masked.
  const [download] = await Promise.all([owner.waitForEvent('download'), owner.getByRole('button', { name: 'Descargar CSV' }).click()]);
  expect(new URL(download.url()).pathname).toBe('/portal/consultas/exportar');
  expect(download.url()).not.toContain(FAILING_NIT);
  const rows = csvRows(fs.readFileSync((await download.path())!, 'utf8'));
  expect(rows.map((line) => [line.request_id, line.estado_http, line.cobrado])).toEqual([[requestId, '502', '0.00']]);
  expect(rows[0]!.nit).not.toBe(FAILING_NIT);
  expect(rows[0]!.nit).toMatch(/•/);
  await context.close();

  // The administrators see the reveal where the console's are, with the owner as who.
  await admin.goto(`${baseUrl}/admin/datos-personales`);
  await expect(admin.getByTestId('personal-data-access').locator('tbody tr').first()).toContainText(`Integrador: ${ownerEmail} (${nombre})`);
  await adminContext.close();
});
