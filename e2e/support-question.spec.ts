// The support question issue 24 was filed for, end to end, as a support user answers it: "our
// lookup for NIT X failed at 10:32, request id req_…, why, and were we charged?". The request id
// typed into the records search opens the query; its page says why it failed and that nothing was
// charged (the hold released); the day's 502s exported as CSV hold its row, with the NIT masked.
import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { FAULT_IDENTIFIERS } from '../simulator/faults';
import { createUserThroughForm, csvRows, demoToken, openConsoleAsAdmin, screenshot, settings, signInFirstTime } from './support/console';
import { onOneGuatemalanDay } from './support/guatemalan-days';

const FAILING_NIT = FAULT_IDENTIFIERS.server_error.nit;

test('soporte responde «¿por qué falló req_… y se nos cobró?» con el id de solicitud, la página de la consulta y su fila del CSV', async ({ browser, request }, testInfo) => {
  const { baseUrl } = settings();

  // The integrator's failed lookup: the request id is all it has to give support. Its day in
  // Guatemala decides which date preset lists it (a lookup straddling midnight is made again).
  const { day: lookupDay, value: answer } = await onOneGuatemalanDay(() =>
    request.post(`${baseUrl}/api/catalogos/omisos`, {
      headers: { 'x-integracion-login': 'demo', 'x-integracion-token': demoToken(), 'x-forwarded-for': '198.51.100.31' },
      data: { nit: FAILING_NIT },
    }),
  );
  expect(answer.status(), await answer.text()).toBe(502);
  const requestId = answer.headers()['x-request-id']!;
  expect(requestId).toMatch(/^req_[0-9a-f]{20}$/);

  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await openConsoleAsAdmin(admin);
  const email = `soporte-pregunta-${Date.now().toString(36)}@example.com`;
  const password = await createUserThroughForm(admin, email, 'Soporte pregunta');
  await adminContext.close();

  const supportContext = await browser.newContext({ acceptDownloads: true });
  const support = await supportContext.newPage();
  await signInFirstTime(support, email, password);

  // Why, and was it charged: the request id opens the query.
  await support.goto(`${baseUrl}/admin/registros`);
  await support.getByLabel('NIT, CUI o id de solicitud').fill(requestId);
  await support.getByRole('button', { name: 'Filtrar' }).click();
  await expect(support).toHaveURL(/\/admin\/registros\/\d+$/);
  await expect(support.getByTestId('record-explanation')).toHaveText(
    'La fuente de catálogos respondió HTTP 503 (servicio no disponible): la fuente falló. La integración recibió 502.',
  );
  await expect(support.getByTestId('record-charged')).toHaveText('Sin cobro. Solo se cobra una respuesta 200 y esta terminó en 502: la reserva se liberó.');
  await expect(support.getByTestId('record-movements-total')).toHaveText('Q 0.00');
  // Support sees the taxpayer's NIT masked, never in full.
  await expect(support.getByTestId('record-nit')).not.toContainText(FAILING_NIT);
  await expect(support.locator('body')).not.toContainText(FAILING_NIT);
  await screenshot(support, testInfo, 'pregunta-de-soporte-consulta');

  // Its CSV row: the day's 502s, exported. «Hoy» lists them, or «Ayer» once midnight in Guatemala
  // has passed since the lookup.
  await support.goto(`${baseUrl}/admin/registros?estado=502`);
  const presets = support.getByRole('navigation', { name: 'Periodos rápidos' });
  const todayHref = await presets.getByRole('link', { name: 'Hoy', exact: true }).getAttribute('href');
  const preset = new URL(todayHref!, baseUrl).searchParams.get('desde') === lookupDay ? 'Hoy' : 'Ayer';
  await presets.getByRole('link', { name: preset, exact: true }).click();
  await expect(support).toHaveURL(new RegExp(`desde=${lookupDay}`));
  await screenshot(support, testInfo, 'pregunta-de-soporte-lista');
  const [download] = await Promise.all([support.waitForEvent('download'), support.getByTestId('export-masked').click()]);
  const csv = fs.readFileSync((await download.path())!, 'utf8');
  const rows = csvRows(csv);
  const row = rows.find((candidate) => candidate.request_id === requestId);
  expect(row, `no row with ${requestId} among ${rows.length}`).toBeDefined();
  expect(row).toMatchObject({ integracion: 'demo', estado_http: '502', cobrado: '0.00' });
  expect(csv).not.toContain(FAILING_NIT);
  await supportContext.close();
});
