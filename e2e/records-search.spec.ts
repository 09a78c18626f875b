// Support finds a taxpayer's queries with the records page's one "NIT, CUI o id de solicitud"
// box, whatever way the NIT or the CUI is written, /rtu/nits batches that contain the NIT
// included; a request id opens its query, and one that left no record says why: a refusal, or an
// answer the service could not serve and what the integrator should do.
import { createHash } from 'node:crypto';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { demoToken, openConsoleAsAdmin, screenshot, seriousAccessibilityViolations, settings } from './support/console';
import { withAppDatabase } from './support/database';

const SEARCH_BOX = 'NIT, CUI o id de solicitud';

// The simulator's showcase taxpayer, present in every population (simulator/population.ts).
const NIT = '576937-K';
const CUI = '1587564440904';

async function lookup(request: APIRequestContext, path: string, body: unknown): Promise<string> {
  const response = await request.post(`${settings().baseUrl}/api${path}`, {
    // A client address of its own, so these queries do not spend the global per-IP limit of others.
    headers: { 'x-integracion-login': 'demo', 'x-integracion-token': demoToken(), 'x-forwarded-for': '198.51.100.13' },
    data: body,
  });
  expect(response.status(), `${path}: ${await response.text()}`).toBe(200);
  return response.headers()['x-request-id']!;
}

async function search(page: Page, typed: string) {
  await page.goto(`${settings().baseUrl}/admin/registros`);
  await page.getByLabel(SEARCH_BOX).fill(typed);
  await page.getByRole('button', { name: 'Filtrar' }).click();
  // The NIT or CUI is posted and stays out of the address: the list opens with a reference (issue 30, point 5).
  await expect(page).toHaveURL(/\/admin\/registros\?busqueda=bq_[A-Za-z0-9_-]{22}$/);
  expect(page.url().replace(/[\s-]/g, '').toUpperCase()).not.toContain(typed.replace(/[\s-]/g, '').toUpperCase());
  await expect(page.getByLabel(SEARCH_BOX)).toHaveValue(typed);
  return page.getByTestId('records').locator('tbody tr');
}

test('el buscador «NIT, CUI o id de solicitud» encuentra las consultas de un NIT, lotes de RTU incluidos, y de un CUI escrito con espacios', async ({ page, request }) => {
  await lookup(request, '/catalogos/cui-nit', { nit: NIT });
  await lookup(request, '/rtu/nits', { nits: ['7108-0', '576937k'] });
  await lookup(request, '/catalogos/omisos', { cui: CUI });
  await openConsoleAsAdmin(page);

  const byNit = await search(page, '576937-k');
  // Masked for administrators too.
  await expect(byNit.filter({ hasText: 'Catálogo CUI/NIT' }).first().getByTestId('record-identifier')).toHaveText('5769••-K');
  await expect(byNit.filter({ hasText: 'RTU por NIT' }).first().getByTestId('record-identifier')).toHaveText('71••-0, 5769••-K');
  // Only that NIT's queries (the query by CUI above is not among them).
  for (const identifier of await byNit.getByTestId('record-identifier').allTextContents()) expect(identifier).toContain('5769••-K');

  const byCui = await search(page, '1587 56444 0904');
  await expect(byCui.filter({ hasText: 'Catálogo omisos' }).first().getByTestId('record-identifier')).toHaveText('1587 •••• 0904');
  for (const identifier of await byCui.getByTestId('record-identifier').allTextContents()) expect(identifier).toContain('1587 •••• 0904');
  // Paging back from a record keeps the search (the reference) and still says what was typed.
  await byCui.first().getByRole('link').first().click();
  await expect(page.getByRole('heading', { name: /^Consulta \d+$/, level: 1 })).toBeVisible();
  await page.getByRole('link', { name: '← Registros de consultas' }).click();
  await expect(page).toHaveURL(/busqueda=bq_/);
  await expect(page.getByLabel(SEARCH_BOX)).toHaveValue('1587 56444 0904');
});

for (const [width, height] of [
  [1366, 900],
  [390, 844],
] as const) {
  test(`un id de solicitud escrito en el buscador abre su consulta; uno sin registro explica por qué (${width} px)`, async ({ page, request, context }, testInfo) => {
    const { baseUrl } = settings();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
    const requestId = await lookup(request, '/catalogos/cui-nit', { nit: NIT });
    expect(requestId).toMatch(/^req_[0-9a-f]{20}$/);
    await page.setViewportSize({ width, height });
    await openConsoleAsAdmin(page);

    // The list shows each query's short request id; its button copies the whole id.
    await page.goto(`${baseUrl}/admin/registros`);
    const row = page.getByTestId('records').locator('tbody tr', { has: page.locator(`[title="${requestId}"]`) });
    const cell = row.getByTestId('record-request-id');
    await expect(cell).toContainText(`${requestId.slice(0, 14)}…`);
    await row.getByRole('button', { name: `Copiar el id de solicitud ${requestId}` }).click();
    await expect(row.getByRole('button', { name: `Copiar el id de solicitud ${requestId}` })).toHaveText('Copiado ✓');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(requestId);
    // Nothing wider than the screen: the row reflows on a phone, the column fits at 1366 px.
    const box = (await cell.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(width);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await screenshot(page, testInfo, `registros-id-de-solicitud-${width}`);

    // Pasted from an integrator's e-mail: spaces around it.
    await page.getByLabel(SEARCH_BOX).fill(`  ${requestId} `);
    await page.getByRole('button', { name: 'Filtrar' }).click();
    await expect(page).toHaveURL(/\/admin\/registros\/\d+$/);
    await expect(page.getByTestId('record-request-id')).toHaveText(requestId);
    await expect(page.getByRole('button', { name: 'Copiar el id de solicitud' })).toBeVisible();
    await screenshot(page, testInfo, `registro-por-id-de-solicitud-${width}`);

    // A request refused before the source (a bad token) answers with a request id but leaves no record.
    const refused = await request.post(`${baseUrl}/api/catalogos/cui-nit`, {
      headers: { 'x-integracion-login': 'demo', 'x-integracion-token': 'no-es-el-token', 'x-forwarded-for': '198.51.100.13' },
      data: { nit: NIT },
    });
    expect([401, 403]).toContain(refused.status());
    const refusedId = refused.headers()['x-request-id']!;
    await page.goto(`${baseUrl}/admin/registros`);
    await page.getByLabel(SEARCH_BOX).fill(refusedId);
    await page.getByRole('button', { name: 'Filtrar' }).click();
    // Its trace is written within a second (each instance writes them with the refusal counts): it
    // says in one sentence who, which lookup, why, when and that nothing was charged (issue 32, point 1).
    await expect(async () => {
      await page.reload();
      await expect(page.getByTestId('request-traced-summary')).toContainText(
        `${refusedId}: sin integración identificada, /api/catalogos/cui-nit, ${refused.status()} credenciales no válidas,`,
        { timeout: 1_000 },
      );
    }).toPass({ timeout: 30_000 });
    await expect(page.getByTestId('request-traced-summary')).toContainText('sin cobro');
    await expect(page.getByTestId('request-traced')).toContainText('El servicio la rechazó antes de consultar ninguna fuente');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await screenshot(page, testInfo, `registros-id-sin-registro-${width}`);
  });
}

for (const [width, height] of [
  [1366, 900],
  [390, 844],
] as const) {
  test(`un id de solicitud de un 500 sin registro dice qué pasó, que no se cobró y qué hacer (${width} px)`, async ({ page, request }, testInfo) => {
    const { baseUrl } = settings();
    // A key whose stored request was sealed with a personal-data key the deployment no longer has
    // (a rotation whose previous key was dropped too soon): the lookup fails closed with a 500
    // before any record, an unexpected error as the integrator sees it.
    const key = `clave-sellada-con-otra-llave-${width}-${Date.now()}`;
    const retired = `pd1:0badc0de:${'A'.repeat(43)}`;
    await withAppDatabase(
      (sql) => sql`
        insert into idempotency_keys (integration_id, key_hash, request_sealed, owner_request_id, state, answer_status, answer_sealed)
        select id, ${createHash('sha256').update(key, 'utf8').digest('hex')}, ${retired}, 'req_00000000000000000000', 'done', 200, ${retired}
          from integrations where nombre = 'demo'`,
    );
    const failed = await request.post(`${baseUrl}/api/catalogos/cui-nit`, {
      headers: { 'x-integracion-login': 'demo', 'x-integracion-token': demoToken(), 'x-forwarded-for': '198.51.100.14', 'idempotency-key': key },
      data: { nit: NIT },
    });
    expect(failed.status(), await failed.text()).toBe(500);
    const failedId = failed.headers()['x-request-id']!;

    await page.setViewportSize({ width, height });
    await openConsoleAsAdmin(page);
    await page.goto(`${baseUrl}/admin/registros`);
    await page.getByLabel(SEARCH_BOX).fill(failedId);
    await page.getByRole('button', { name: 'Filtrar' }).click();
    // Traced within a second (ROLLUP_INTERVAL_MS): one sentence support can repeat (issue 32, point 1).
    await expect(async () => {
      await page.reload();
      await expect(page.getByTestId('request-traced-summary')).toContainText(`${failedId}: demo, /api/catalogos/cui-nit, 500 error interno del servicio,`, {
        timeout: 1_000,
      });
    }).toPass({ timeout: 30_000 });
    await expect(page.getByTestId('request-traced-summary')).toContainText('sin cobro: reintente; si vuelve a fallar, avísenos');
    await expect(page.getByTestId('request-traced')).toContainText(
      'El servicio no pudo atenderla: falló por un error interno antes de registrar la consulta; el registro de la aplicación tiene el error con este id. No es una consulta registrada y no se cobró.',
    );
    await expect(page.getByRole('link', { name: 'Ver la integración demo' })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, testInfo, `registros-id-sin-atender-${width}`);
  });
}
