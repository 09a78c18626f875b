// The support question "was this query charged, and why did it fail?" answered on a query's page
// (issue 24, defects 6 and 15), in chromium at 1366 and 390 px: a catalog 200 that came back empty
// says so and that it was charged, with `actualizado` and whether `date_of_birth` was sent; the
// charge is one line with the movements behind it adding up; a failure is explained in Spanish
// with the source's English detail folded under "Detalle técnico". Nothing scrolls sideways, and
// the route and the request id are never split inside a word.
import { expect, test, type APIRequestContext } from '@playwright/test';
import { FAULT_IDENTIFIERS } from '../simulator/faults';
import { demoToken, expectKeptWhole, openConsoleAsAdmin, screenshot, settings } from './support/console';

async function lookup(request: APIRequestContext, path: string, body: unknown, status: number): Promise<string> {
  const response = await request.post(`${settings().baseUrl}/api${path}`, {
    // A client address of its own, so these queries do not spend the global per-IP limit of others.
    headers: { 'x-integracion-login': 'demo', 'x-integracion-token': demoToken(), 'x-forwarded-for': '198.51.100.24' },
    data: body,
  });
  expect(response.status(), `${path}: ${await response.text()}`).toBe(status);
  return response.headers()['x-request-id']!;
}

for (const [width, height] of [
  [1366, 900],
  [390, 844],
] as const) {
  test(`una consulta explica su respuesta vacía, su cobro y su error en español (${width} px)`, async ({ page, request }, testInfo) => {
    const { baseUrl } = settings();
    const empty = await lookup(request, '/catalogos/rtu', { nit: FAULT_IDENTIFIERS.empty_success.nit, actualizado: true, date_of_birth: '1985-03-14' }, 200);
    const failed = await lookup(request, '/catalogos/omisos', { nit: FAULT_IDENTIFIERS.server_error.nit }, 502);
    await page.setViewportSize({ width, height });
    await openConsoleAsAdmin(page);

    await page.goto(`${baseUrl}/admin/registros?${new URLSearchParams({ identificador: empty })}`);
    await expect(page).toHaveURL(/\/admin\/registros\/\d+$/);
    await expect(page.getByTestId('record-answer')).toHaveText(/^Vacía: la fuente respondió 200 sin ningún dato \(todos los campos en null\)\. Se cobró igual \(Q \d+\.\d\d\)/);
    await expect(page.getByTestId('record-actualizado')).toHaveText('Pedidos: la fuente debía consultar a la autoridad en ese momento');
    await expect(page.getByTestId('record-date-of-birth')).toHaveText('Enviada a la fuente (la fecha no se guarda)');
    await expect(page.locator('body')).not.toContainText('1985-03-14');
    const charged = page.getByTestId('record-charged');
    await expect(charged).toHaveText(/^Cobrado: Q \d+\.\d\d$/);
    const amount = (await charged.textContent())!.replace('Cobrado: ', '');
    const movements = page.getByTestId('record-movements');
    await expect(movements.locator('tr', { hasText: 'Reserva del saldo al iniciar la consulta' })).toContainText(`-${amount}`);
    await expect(movements.locator('tr', { hasText: 'Cobro confirmado' })).toContainText('Q 0.00');
    await expect(page.getByTestId('record-movements-total')).toHaveText(`-${amount}`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    // Values stay readable on a phone: the labels' column does not squeeze them to a few letters a line.
    expect((await page.getByTestId('record-answer').boundingBox())!.width).toBeGreaterThan(120);
    // The route and the request id are read and copied as one word: never split inside one.
    await expectKeptWhole(page.getByTestId('record-detail').getByText('/api/catalogos/rtu', { exact: true }), 'route');
    await expectKeptWhole(page.getByTestId('record-request-id'), 'request id');
    await screenshot(page, testInfo, `registro-respuesta-vacia-${width}`);

    await page.goto(`${baseUrl}/admin/registros?${new URLSearchParams({ identificador: failed })}`);
    await expect(page).toHaveURL(/\/admin\/registros\/\d+$/);
    await expect(page.getByTestId('record-explanation')).toHaveText(
      'La fuente de catálogos respondió HTTP 503 (servicio no disponible): la fuente falló. La integración recibió 502.',
    );
    const raw = page.getByTestId('record-error-raw');
    await expect(raw).toBeHidden();
    await page.getByText('Detalle técnico').click();
    await expect(raw).toContainText('catalog source answered HTTP 503');
    await expect(page.getByTestId('record-charged')).toHaveText('Sin cobro. Solo se cobra una respuesta 200 y esta terminó en 502: la reserva se liberó.');
    await expect(page.getByTestId('record-movements').locator('tr', { hasText: 'Reserva liberada: el saldo se devuelve' })).toContainText(`+${amount}`);
    await expect(page.getByTestId('record-movements-total')).toHaveText('Q 0.00');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    expect((await page.getByTestId('record-explanation').boundingBox())!.width).toBeGreaterThan(120);
    await screenshot(page, testInfo, `registro-error-explicado-${width}`);
  });
}
