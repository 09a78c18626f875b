// The console's lists as support people use them (issue 24, defect 5 and "lists support people
// expect"): the records list's filters fit at 1366 px, a long /rtu/nits batch keeps "Cobrado" in
// sight, the integration filter is typed (with suggestions, and without JavaScript), every date range
// has presets in Guatemala's time, ids and token prefixes have copy buttons, and a request id with
// no record offers no CSV export.
import { expect, test, type APIRequestContext, type Browser, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { demoToken, openConsoleAsAdmin, screenshot, settings } from './support/console';
import { guatemalanDayBefore } from '../lib/platform/time/guatemala-time';
import { onOneGuatemalanDay } from './support/guatemalan-days';

const WIDTHS = [
  [1366, 900],
  [390, 844],
] as const;

// Long enough to be a problem in one table cell: 50 NITs, the most a batch takes, written without spaces.
const LONG_BATCH = Array.from({ length: 50 }, (_, index) => `${1000000 + index * 7919}${index % 10}`);

async function lookup(request: APIRequestContext, path: string, body: unknown): Promise<void> {
  const response = await request.post(`${settings().baseUrl}/api${path}`, {
    // An address of its own, so these queries do not spend the per-IP limit other tests use.
    headers: { 'x-integracion-login': 'demo', 'x-integracion-token': demoToken(), 'x-forwarded-for': '198.51.100.24' },
    data: body,
  });
  expect(response.status(), `${path}: ${await response.text()}`).toBe(200);
}

// One sign-in for the file (scrypt at 128 MiB is slow on a busy machine); each test opens its own
// browser context with that session.
let session: Awaited<ReturnType<BrowserContext['storageState']>>;

test.beforeAll(async ({ browser }) => {
  const context = await browser.newContext();
  await openConsoleAsAdmin(await context.newPage());
  session = await context.storageState();
  await context.close();
});

// Each test's contexts close when it ends: left open, their pages (one session, one address) kept
// asking, and a later test's navigation met the session's bound of pages at once (429).
const opened: BrowserContext[] = [];
test.afterEach(async () => {
  await Promise.all(opened.splice(0).map((context) => context.close()));
});

async function signedIn(browser: Browser, width: number, height: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height }, storageState: session });
  opened.push(context);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: settings().baseUrl });
  return context.newPage();
}

async function demoIntegrationId(page: Page): Promise<number> {
  await page.goto(`${settings().baseUrl}/admin/integraciones?buscar=demo`);
  const href = await page.getByRole('link', { name: 'demo', exact: true }).getAttribute('href');
  return Number(/\/(\d+)$/.exec(href!)![1]);
}

/** Nothing on the page is wider than the window. */
async function expectNoHorizontalOverflow(page: Page, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

/**
 * The blank space above each field of a filter box: from the nearest field above it (or the top of
 * the box's content) to the field's own top. A field pushed down a row by a taller neighbour shows
 * as a large gap.
 */
async function blankAboveFields(form: Locator): Promise<Array<{ field: string; gap: number }>> {
  return form.evaluate((element) => {
    const style = getComputedStyle(element);
    const formBox = element.getBoundingClientRect();
    const contentTop = formBox.top + parseFloat(style.borderTopWidth) + parseFloat(style.paddingTop);
    const fields = [...element.querySelectorAll<HTMLElement>(':scope > .field, :scope > * > .field, :scope > .date-presets')];
    return fields.map((field) => {
      const box = field.getBoundingClientRect();
      let above = contentTop;
      for (const other of fields) {
        if (other === field) continue;
        const otherBox = other.getBoundingClientRect();
        const overlaps = otherBox.left < box.right && otherBox.right > box.left;
        if (overlaps && otherBox.bottom <= box.top + 1) above = Math.max(above, otherBox.bottom);
      }
      return { field: field.querySelector('label, .label')?.textContent ?? field.className, gap: Math.round(box.top - above) };
    });
  });
}

for (const [width, height] of WIDTHS) {
  test(`la lista de registros cabe a ${width} px: buscador entero, filtros sin huecos, «Cobrado» a la vista con un lote largo`, async ({ browser, request }, testInfo) => {
    await lookup(request, '/rtu/nits', { nits: LONG_BATCH });
    await lookup(request, '/catalogos/cui-nit', { nit: '576937-K' });
    const page = await signedIn(browser, width, height);
    await page.goto(`${settings().baseUrl}/admin/registros`);

    // The search box shows its whole example.
    // Measured once the page has settled: a measurement taken while the streamed page was still
    // laying out saw a 20 px box (CI, once).
    const search = page.getByLabel('NIT, CUI o id de solicitud');
    await expect(search).toBeVisible();
    const spareRoom = () =>
      search.evaluate((input: HTMLInputElement) => {
        const style = getComputedStyle(input);
        const context = document.createElement('canvas').getContext('2d')!;
        context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
        const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        return room - Math.ceil(context.measureText(input.placeholder).width);
      });
    await expect.poll(spareRoom, { message: 'the placeholder fits the search box' }).toBeGreaterThanOrEqual(0);

    // No field sits under a blank area (the gap between fields is 0.6 rem, under 12 px).
    for (const { field, gap } of await blankAboveFields(page.getByRole('search', { name: 'Filtros' }))) {
      expect.soft(gap, `blank space above «${field}»`).toBeLessThanOrEqual(24);
    }

    // Every row's charge is inside what the table shows, the long batch's row too.
    const batchRow = page.getByTestId('records').locator('tbody tr').filter({ hasText: 'RTU por NIT' }).first();
    await expect(batchRow).toBeVisible();
    const region = page.getByRole('region', { name: 'Consultas' });
    const visible = (await region.boundingBox())!;
    for (const cell of await page.getByTestId('record-charged').all()) {
      const box = (await cell.boundingBox())!;
      expect.soft(box.x + box.width, '«Cobrado» inside the table’s visible area').toBeLessThanOrEqual(visible.x + visible.width + 1);
      expect.soft(box.x + box.width, '«Cobrado» inside the window').toBeLessThanOrEqual(width);
    }
    await expectNoHorizontalOverflow(page, width);
    await screenshot(page, testInfo, `listas-registros-${width}`);
  });

  test(`«Últimas consultas» de una integración muestra el cobro entero a ${width} px`, async ({ browser, request }, testInfo) => {
    await lookup(request, '/catalogos/cui-nit', { nit: '576937-K' });
    await lookup(request, '/rtu/nits', { nits: LONG_BATCH });
    const page = await signedIn(browser, width, height);
    const id = await demoIntegrationId(page);
    // The latest queries are in the integration's "Uso", its tokens in "Credenciales".
    await page.goto(`${settings().baseUrl}/admin/integraciones/${id}/uso`);
    const region = page.locator('section[aria-labelledby="recent-title"] .table-wrap');
    await region.scrollIntoViewIfNeeded();
    const visible = (await region.boundingBox())!;
    const charged = region.locator('tbody td:last-child');
    await expect(charged.filter({ hasText: 'Q 1.50' }).first()).toBeVisible();
    for (const cell of await charged.all()) {
      const { scrollWidth, clientWidth } = await cell.evaluate((element) => ({ scrollWidth: element.scrollWidth, clientWidth: element.clientWidth }));
      expect.soft(scrollWidth, 'the charge is not clipped').toBeLessThanOrEqual(clientWidth);
      const box = (await cell.boundingBox())!;
      expect.soft(box.x + box.width, 'the charge is inside the table’s visible area').toBeLessThanOrEqual(visible.x + visible.width + 1);
    }
    await expectNoHorizontalOverflow(page, width);
    await screenshot(page, testInfo, `listas-integracion-${width}`);
    // The token prefixes have copy buttons; the demo's first token is there.
    await page.goto(`${settings().baseUrl}/admin/integraciones/${id}/credenciales`);
    const tokenCell = page.getByTestId('tokens').locator('td[data-label="Token"]').first();
    const prefix = /(\S+)…/.exec((await tokenCell.textContent())!)![1]!;
    const copy = tokenCell.getByRole('button', { name: `Copiar el prefijo del token ${prefix}` });
    await expect(copy).toBeVisible();
    await copy.click();
    await expect(copy).toHaveText('Copiado ✓');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(prefix);
    await expectNoHorizontalOverflow(page, width);
    await screenshot(page, testInfo, `listas-integracion-credenciales-${width}`);
  });
}

test('un id de solicitud sin registro no ofrece exportar un CSV vacío', async ({ browser }, testInfo) => {
  const page = await signedIn(browser, 1366, 900);
  await page.goto(`${settings().baseUrl}/admin/registros?identificador=req_0000000000deadbeef00`);
  await expect(page.getByTestId('request-id-not-recorded')).toBeVisible();
  await expect(page.getByTestId('export-masked')).toHaveCount(0);
  await expect(page.getByTestId('export-full')).toHaveCount(0);
  await screenshot(page, testInfo, 'listas-id-sin-registro-sin-exportar');
  // With records to show, the export is there.
  await page.goto(`${settings().baseUrl}/admin/registros`);
  await expect(page.getByTestId('export-masked')).toBeVisible();
});

test.describe('el filtro de integración se escribe, con sugerencias', () => {
  for (const [width, height] of WIDTHS) {
    test(`en registros y auditoría, sin listar todas las integraciones (${width} px)`, async ({ browser, request }, testInfo) => {
      await lookup(request, '/catalogos/cui-nit', { nit: '576937-K' });
      const page = await signedIn(browser, width, height);
      const id = await demoIntegrationId(page);
      const { baseUrl } = settings();

      await page.goto(`${baseUrl}/admin/registros`);
      // A text field, never a menu of every integration.
      const field = page.getByRole('combobox', { name: 'Integración' });
      await expect(field).toHaveAttribute('list', /.+/);
      await expect(page.locator('select[name="integracion"]')).toHaveCount(0);
      await field.pressSequentially('dem');
      const suggestion = `demo (n.º ${id})`;
      await expect(page.locator(`datalist option[value="${suggestion}"]`)).toHaveCount(1);
      await field.fill(suggestion);
      await page.getByRole('button', { name: 'Filtrar' }).click();
      await expect(page).toHaveURL(new RegExp(`/admin/registros\\?integracion=${id}$`));
      await expect(page.getByRole('combobox', { name: 'Integración' })).toHaveValue(suggestion);
      for (const name of await page.getByTestId('records').locator('td[data-label="Integración"]').allTextContents()) expect(name).toContain('demo');
      await expectNoHorizontalOverflow(page, width);
      await screenshot(page, testInfo, `listas-registros-por-integracion-${width}`);

      await page.goto(`${baseUrl}/admin/auditoria`);
      await expect(page.locator('select[name="integracion"]')).toHaveCount(0);
      const auditField = page.getByRole('combobox', { name: 'Integración' });
      await auditField.pressSequentially('dem');
      await expect(page.locator(`datalist option[value="${suggestion}"]`)).toHaveCount(1);
      await auditField.fill(suggestion);
      await page.getByRole('button', { name: 'Filtrar' }).click();
      await expect(page).toHaveURL(new RegExp(`/admin/auditoria\\?tipo=integration&id=${id}$`));
      await expect(page.getByRole('combobox', { name: 'Integración' })).toHaveValue(suggestion);
      for (const target of await page.getByTestId('audit').locator('td[data-label="Objeto"]').allTextContents()) expect(target).toBe('Integración demo');
      await expectNoHorizontalOverflow(page, width);
      await screenshot(page, testInfo, `listas-auditoria-por-integracion-${width}`);
    });
  }

  test('sin JavaScript es un campo de texto que acepta el nombre, y dice cuándo ninguna se llama así', async ({ browser }) => {
    const page = await signedIn(browser, 1366, 900);
    const { baseUrl } = settings();
    // The server's HTML has a plain text field (the suggestions are the only part that needs script).
    const html = await (await page.request.get(`${baseUrl}/admin/registros`)).text();
    expect(html).toMatch(/<input[^>]*name="integracion"/);
    expect(html).not.toMatch(/<select[^>]*name="integracion"/);
    // What the GET form sends without script: each field as typed, the empty ones too.
    const sent = (fields: Record<string, string>) => new URLSearchParams({ identificador: '', consulta: '', estado: '', desde: '', hasta: '', ...fields });
    await page.goto(`${baseUrl}/admin/registros?${sent({ integracion: 'DEMO' })}`);
    await expect(page).toHaveURL(/\/admin\/registros\?integracion=\d+$/);
    await expect(page.getByRole('combobox', { name: 'Integración' })).toHaveValue(/^demo \(n\.º \d+\)$/);
    for (const name of await page.getByTestId('records').locator('td[data-label="Integración"]').allTextContents()) expect(name).toBe('demo');

    await page.goto(`${baseUrl}/admin/registros?${sent({ integracion: 'no-existe-esta' })}`);
    await expect(page.locator('#integracion-error')).toContainText('Ninguna integración se llama «no-existe-esta»');
    await expect(page.getByRole('combobox', { name: 'Integración' })).toHaveValue('no-existe-esta');
    await expect(page.getByRole('combobox', { name: 'Integración' })).toHaveAttribute('aria-invalid', 'true');

    const audit = new URLSearchParams({ quien: '', accion: '', tipo: '', integracion: 'demo', desde: '', hasta: '' });
    await page.goto(`${baseUrl}/admin/auditoria?${audit}`);
    await expect(page).toHaveURL(/\/admin\/auditoria\?tipo=integration&id=\d+$/);
    await expect(page.getByRole('combobox', { name: 'Integración' })).toHaveValue(/^demo \(n\.º \d+\)$/);
    audit.set('integracion', 'no-existe-esta');
    await page.goto(`${baseUrl}/admin/auditoria?${audit}`);
    await expect(page.locator('#integracion-error')).toContainText('Ninguna integración se llama «no-existe-esta»');
  });
});

test.describe('atajos de fechas en hora de Guatemala', () => {
  for (const [width, height] of WIDTHS) {
    test(`hoy, ayer, 7 días y 30 días en cada lista con fechas, sin perder los otros filtros (${width} px)`, async ({ browser }, testInfo) => {
      const page = await signedIn(browser, width, height);
      const id = await demoIntegrationId(page);
      const { baseUrl } = settings();
      const lists = [
        { name: 'registros', path: '/admin/registros', other: ['consulta', 'omisos'] },
        { name: 'auditoria', path: '/admin/auditoria', other: ['accion', 'integration.set_tariff'] },
        { name: 'movimientos', path: `/admin/integraciones/${id}/movimientos`, other: ['tipo', 'top_up'] },
        { name: 'datos-personales', path: '/admin/datos-personales', other: ['tipo', 'reveal'] },
      ] as const;
      for (const list of lists) {
        // The presets count from the day the page was rendered on, so the expectations do too.
        const presets = page.getByRole('navigation', { name: 'Periodos rápidos' });
        const { day: renderedOn } = await onOneGuatemalanDay(async () => {
          await page.goto(`${baseUrl}${list.path}?${new URLSearchParams([[...list.other]])}`);
          await expect(presets.getByRole('link')).toHaveCount(4);
        });
        const dayBefore = (days: number) => guatemalanDayBefore(renderedOn, days);
        for (const [label, desde, hasta] of [
          ['Hoy', renderedOn, renderedOn],
          ['Ayer', dayBefore(1), dayBefore(1)],
          ['7 días', dayBefore(6), renderedOn],
          ['30 días', dayBefore(29), renderedOn],
        ] as const) {
          const href = await presets.getByRole('link', { name: label, exact: true }).getAttribute('href');
          const target = new URL(href!, baseUrl);
          expect(target.pathname, `${list.name}: ${label}`).toBe(list.path);
          expect(target.searchParams.get('desde'), `${list.name}: ${label}`).toBe(desde);
          expect(target.searchParams.get('hasta'), `${list.name}: ${label}`).toBe(hasta);
          expect(target.searchParams.get(list.other[0]), `${list.name}: ${label} keeps the other filters`).toBe(list.other[1]);
        }
        await presets.getByRole('link', { name: '7 días', exact: true }).click();
        await expect(page.getByLabel('Desde')).toHaveValue(dayBefore(6));
        await expect(page.getByLabel('Hasta (incluido)')).toHaveValue(renderedOn);
        await expect(presets.getByRole('link', { name: '7 días', exact: true })).toHaveAttribute('aria-current', 'true');
        await expectNoHorizontalOverflow(page, width);
        await screenshot(page, testInfo, `listas-atajos-${list.name}-${width}`);
      }
    });
  }
});

test(`botones de copiar en la lista de integraciones y en el registro de accesos`, async ({ browser }, testInfo) => {
  const page = await signedIn(browser, 1366, 900);
  await page.goto(`${settings().baseUrl}/admin/integraciones?buscar=demo`);
  const copy = page.getByRole('button', { name: 'Copiar el nombre de la integración demo' });
  await expect(copy).toBeVisible();
  await copy.click();
  await expect(copy).toHaveText('Copiado ✓');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('demo');
  await screenshot(page, testInfo, 'listas-integraciones-copiar-1366');
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoHorizontalOverflow(page, 390);
  await screenshot(page, testInfo, 'listas-integraciones-copiar-390');
});
