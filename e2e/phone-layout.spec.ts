// Issue 32, point 6, "Phone (390 px) breaks", each seen in a screenshot and measured here at 390
// and 1366 px as issue 24's were: the NIT/CUI column of Registros (a 12-NIT batch was a
// screen-tall strip of three or four characters a line, and at 1366 px its NITs broke inside a
// NIT); Fuentes' «Último error» one letter a line; the form to see a record's identifiers in full
// 21 px wider than the screen; dates and names broken mid-word in Usuarios, Accesos and Alertas;
// the charts' labels drawn at 5 to 9 px. (The statements' PDF link is measured in billing.spec.ts.)
import { expect, test, type APIRequestContext, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { maskNit } from '../lib/core/sealing/masking';
import { FAULT_IDENTIFIERS } from '../simulator/faults';
import { createUserThroughForm, demoToken, openConsoleAsAdmin, screenshot, seriousAccessibilityViolations, settings, signInFirstTime } from './support/console';

const WIDTHS = [
  [1366, 900],
  [390, 844],
] as const;

// Twelve NITs in one /rtu/nits batch, as an integrator checking a client list sends them.
const BATCH = Array.from({ length: 12 }, (_, index) => `${2400000 + index * 7919}${index % 10}`);
// Names as long as real ones: a person's two given names and two surnames, an integration's login.
const USER_NAME = 'María Fernanda Castañeda Villatoro';
const suffix = Date.now().toString(36);
const USER_EMAIL = `maria.castaneda.${suffix}@example.com`;
const INTEGRATION_NAME = `cooperativa_ahorro_occidente_${suffix}`;
const REVEAL_REASON = 'Ticket 4821, el integrador reclama un cobro duplicado';

async function lookup(request: APIRequestContext, path: string, body: unknown, status: number): Promise<string> {
  const response = await request.post(`${settings().baseUrl}/api${path}`, {
    // A client address of its own, so these queries do not spend the per-IP limit other specs use.
    headers: { 'x-integracion-login': 'demo', 'x-integracion-token': demoToken(), 'x-forwarded-for': '198.51.100.32' },
    data: body,
  });
  expect(response.status(), `${path}: ${await response.text()}`).toBe(status);
  return response.headers()['x-request-id']!;
}

/** Nothing on the page is wider than the window; if something is, the message names what sticks out. */
async function expectNoSidewaysScroll(page: Page, width: number): Promise<void> {
  const { scrollWidth, stickingOut } = await page.evaluate((width) => {
    // The innermost elements that reach past the window's edge, with their box or with text
    // spilling out of it: none of their children does.
    const reach = (element: Element) => {
      const range = document.createRange();
      range.selectNodeContents(element);
      return Math.max(element.getBoundingClientRect().right, range.getBoundingClientRect().right) + window.scrollX;
    };
    const past = new Set([...document.querySelectorAll('body *')].filter((element) => reach(element) > width + 0.5));
    const innermost = [...past].filter((element) => ![...element.children].some((child) => past.has(child)));
    return {
      scrollWidth: document.documentElement.scrollWidth,
      stickingOut: innermost.slice(0, 5).map((element) => `<${element.tagName.toLowerCase()} class="${element.className}"> ${element.textContent?.trim().slice(0, 40)}: hasta ${Math.round(reach(element))} px`),
    };
  }, width);
  expect(scrollWidth, `la página es más ancha que la pantalla (${stickingOut.join('; ')})`).toBeLessThanOrEqual(width);
}

/**
 * The words (runs of text without spaces) of an element that the layout split over two lines or
 * more, such as a date broken after "24/1" or a name one letter a line. Hidden text is skipped,
 * but the element itself must be on screen: a list streams in after its skeleton, and text still
 * in React's hidden chunk has no lines to measure.
 */
async function splitWords(locator: Locator): Promise<string[]> {
  return locator.evaluate((element) => {
    if (!element.checkVisibility()) throw new Error(`Nothing to measure: ${element.outerHTML.slice(0, 80)} is not on screen`);
    const split: string[] = [];
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const word of (node.textContent ?? '').matchAll(/\S+/g)) {
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        const lines = new Set([...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.bottom)));
        if (lines.size > 1) split.push(`«${word[0]}» en ${lines.size} líneas`);
      }
    }
    return split;
  });
}

/**
 * How many of its lines the text an element shows is tall, from the top of its first line of text
 * to the bottom of its last (its text only: a table cell is as tall as its row).
 */
async function linesTall(locator: Locator): Promise<number> {
  return locator.evaluate((element) => {
    const rects: DOMRect[] = [];
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.textContent?.trim() || !node.parentElement?.checkVisibility()) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      rects.push(...[...range.getClientRects()].filter((rect) => rect.width > 0));
    }
    if (rects.length === 0) throw new Error(`Nothing to measure: ${element.outerHTML.slice(0, 80)} shows no text`);
    const height = Math.max(...rects.map((rect) => rect.bottom)) - Math.min(...rects.map((rect) => rect.top));
    return height / parseFloat(getComputedStyle(element).lineHeight);
  });
}

/**
 * How far an element reaches across the page, with its box or with text spilling out of it, in
 * the page's coordinates: a page scrolled sideways to show a focused field moves the window, and
 * a box measured against the window would seem inside it.
 */
async function horizontalExtent(locator: Locator): Promise<{ left: number; right: number }> {
  return locator.evaluate((element) => {
    const range = document.createRange();
    range.selectNodeContents(element);
    const [box, text] = [element.getBoundingClientRect(), range.getBoundingClientRect()];
    const [left, right] = text.width > 0 ? [Math.min(box.left, text.left), Math.max(box.right, text.right)] : [box.left, box.right];
    return { left: left + window.scrollX, right: right + window.scrollX };
  });
}

/** Where an element's text is drawn (its glyphs, which may spill out of a squeezed box). */
async function textBox(locator: Locator): Promise<{ x: number; width: number }> {
  return locator.evaluate((element) => {
    const range = document.createRange();
    range.selectNodeContents(element);
    const { x, width } = range.getBoundingClientRect();
    return { x, width };
  });
}

/**
 * Each text of the page's charts with the size it is drawn at on screen, in px: its font size,
 * times the scale of the drawing it is in (an SVG shrunk to its box shrinks its letters too).
 */
async function chartTextSizes(page: Page): Promise<Array<{ text: string; px: number }>> {
  return page.locator('figure.chart').evaluateAll((figures) =>
    figures.flatMap((figure) => {
      const sizes: Array<{ text: string; px: number }> = [];
      const walker = document.createTreeWalker(figure, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent?.trim();
        const element = node.parentElement;
        if (!text || !element || !element.checkVisibility()) continue;
        const scale = element instanceof SVGGraphicsElement ? (element.getScreenCTM()?.a ?? 1) : 1;
        sizes.push({ text, px: Math.round(parseFloat(getComputedStyle(element).fontSize) * scale * 10) / 10 });
      }
      return sizes;
    }),
  );
}

test.describe.serial('en el teléfono (390 px) y en escritorio (1366 px), nada se parte ni se sale de la pantalla', () => {
  let adminContext: BrowserContext;
  let admin: Page;
  let batchRequestId = '';
  let revealRequestId = '';
  let userPassword = '';

  test.beforeAll(async ({ browser, request }) => {
    batchRequestId = await lookup(request, '/rtu/nits', { nits: BATCH }, 200);
    revealRequestId = await lookup(request, '/catalogos/cui-nit', { nit: '576937-K' }, 200);
    // The catalog source fails: Fuentes shows it as the catalog's last error.
    await lookup(request, '/catalogos/omisos', { nit: FAULT_IDENTIFIERS.server_error.nit }, 502);
    adminContext = await browser.newContext();
    admin = await adminContext.newPage();
    await openConsoleAsAdmin(admin);
  });

  test.afterAll(async () => {
    await adminContext?.close();
  });

  test('Registros: cada NIT de un lote entero en su línea, los primeros a la vista y el resto bajo «y 9 más»', async ({}, testInfo) => {
    const { baseUrl } = settings();
    for (const [width, height] of WIDTHS) {
      await admin.setViewportSize({ width, height });
      await admin.goto(`${baseUrl}/admin/registros`);
      const row = admin.getByTestId('records').locator('tbody tr', { has: admin.locator(`[title="${batchRequestId}"]`) });
      const cell = row.getByTestId('record-identifier');
      await expect(cell).toContainText(maskNit(BATCH[0]!));
      await expect(cell).toBeVisible();
      expect(await splitWords(cell), `NIT partidos a ${width} px`).toEqual([]);
      // Three lines at most, not a strip as tall as the screen.
      expect(await linesTall(cell), `alto del lote a ${width} px, en líneas`).toBeLessThan(3.5);
      expect((await horizontalExtent(cell)).right).toBeLessThanOrEqual(width);
      await expectNoSidewaysScroll(admin, width);
      await screenshot(admin, testInfo, `telefono-registros-lote-${width}`);

      // The rest of the batch opens from the keyboard, each NIT whole too.
      const more = cell.getByText('y 9 más', { exact: true });
      await more.focus();
      await admin.keyboard.press('Enter');
      for (const nit of BATCH) await expect(cell.getByText(maskNit(nit))).toBeVisible();
      expect(await splitWords(cell), `NIT partidos a ${width} px con el lote abierto`).toEqual([]);
      await expectNoSidewaysScroll(admin, width);
      expect(await seriousAccessibilityViolations(admin)).toEqual([]);
      await screenshot(admin, testInfo, `telefono-registros-lote-abierto-${width}`);
    }
  });

  test('Fuentes: «Último error» se lee en líneas enteras, no una letra por línea', async ({}, testInfo) => {
    const { baseUrl } = settings();
    for (const [width, height] of WIDTHS) {
      await admin.setViewportSize({ width, height });
      await admin.goto(`${baseUrl}/admin/fuentes`);
      const lastError = admin.getByTestId('sources').locator('tr[data-source="catalog"] td[data-label="Último error"]');
      await expect(lastError).toContainText('503');
      await expect(lastError).toBeVisible();
      expect(await splitWords(lastError), `palabras partidas a ${width} px`).toEqual([]);
      // Its date and time on one line, inside the cell.
      const date = lastError.getByText(/^\d{2}\/\d{2}\/\d{4},? \d{2}:\d{2}:\d{2}$/);
      expect(await linesTall(date)).toBeLessThan(1.5);
      const [text, cell] = [await textBox(date), (await lastError.boundingBox())!];
      expect(text.x).toBeGreaterThanOrEqual(cell.x);
      expect(text.x + text.width).toBeLessThanOrEqual(cell.x + cell.width);
      await expectNoSidewaysScroll(admin, width);
      expect(await seriousAccessibilityViolations(admin)).toEqual([]);
      await screenshot(admin, testInfo, `telefono-fuentes-${width}`);
    }
  });

  test('las gráficas del Panel y de una integración, el tiempo de respuesta incluido, con letra de 12 px o más', async ({}, testInfo) => {
    const { baseUrl } = settings();
    await admin.goto(`${baseUrl}/admin/integraciones?buscar=demo`);
    const demo = await admin.getByRole('link', { name: 'demo', exact: true }).getAttribute('href');
    for (const [width, height] of WIDTHS) {
      await admin.setViewportSize({ width, height });
      for (const [name, path] of [
        ['panel', '/admin'],
        // An integration's charts are in its Uso section (issue 32, point 5).
        ['integracion', `${demo!}/uso`],
      ] as const) {
        // The dashboard reads rollups, which take in new records within half a second.
        await expect(async () => {
          await admin.goto(`${baseUrl}${path}`);
          await expect(admin.getByRole('img', { name: 'Percentiles 50 y 95 del tiempo de respuesta por tipo de consulta' })).toBeVisible({ timeout: 1_000 });
        }).toPass({ timeout: 15_000 });
        const sizes = await chartTextSizes(admin);
        // Axis labels, the latencies in ms and the legends of the three charts.
        expect(sizes.filter(({ text }) => / ms$/.test(text)).length, 'cifras de la gráfica de tiempo de respuesta').toBeGreaterThan(0);
        expect(sizes.filter(({ text }) => /^\d{2}\/\d{2}/.test(text)).length, 'fechas en el eje de las gráficas de consultas').toBeGreaterThan(0);
        expect(sizes.filter(({ px }) => px < 12), `letra de menos de 12 px en ${path} a ${width} px`).toEqual([]);
        await expectNoSidewaysScroll(admin, width);
        expect(await seriousAccessibilityViolations(admin)).toEqual([]);
        await screenshot(admin, testInfo, `telefono-graficas-${name}-${width}`);
      }
    }
  });

  test('Usuarios: el nombre, el correo y la fecha de cambio de contraseña enteros', async ({}, testInfo) => {
    const { baseUrl } = settings();
    userPassword = await createUserThroughForm(admin, USER_EMAIL, USER_NAME);
    for (const [width, height] of WIDTHS) {
      await admin.setViewportSize({ width, height });
      await admin.goto(`${baseUrl}/admin/usuarios`);
      const row = admin.getByTestId('users').locator('tbody tr', { hasText: USER_EMAIL });
      await expect(row).toContainText('Debe cambiarla al entrar');
      await expect(row).toBeVisible();
      for (const label of ['Usuario', 'Contraseña cambiada']) {
        expect(await splitWords(row.locator(`td[data-label="${label}"]`)), `«${label}» a ${width} px`).toEqual([]);
      }
      await expectNoSidewaysScroll(admin, width);
      expect(await seriousAccessibilityViolations(admin)).toEqual([]);
      await screenshot(admin, testInfo, `telefono-usuarios-${width}`);
    }
  });

  test('ver los identificadores completos: el formulario del motivo cabe en la pantalla, y Accesos lee fecha y nombre enteros', async ({ browser }, testInfo) => {
    const { baseUrl } = settings();
    // Support staff (the user above, on their first sign-in) reveal a record's identifiers with a reason.
    const supportContext = await browser.newContext();
    try {
      const support = await supportContext.newPage();
      await signInFirstTime(support, USER_EMAIL, userPassword);
      for (const [width, height] of WIDTHS) {
        await support.setViewportSize({ width, height });
        await support.goto(`${baseUrl}/admin/registros?${new URLSearchParams({ identificador: revealRequestId })}`);
        await expect(support).toHaveURL(/\/admin\/registros\/\d+$/);
        await support.getByTestId('reveal-start').click();
        const reason = support.getByLabel('Motivo (obligatorio)');
        await expect(reason).toBeFocused();
        const form = reason.locator('xpath=ancestor::form');
        // Its field took the width of its button, too wide for the column beside «Datos personales»:
        // the page went 21 px wider than the screen and scrolled sideways to the focused field.
        for (const part of [form, reason, support.getByRole('button', { name: 'Mostrar identificadores' })]) {
          const { left, right } = await horizontalExtent(part);
          expect(left, `el formulario empieza dentro de la pantalla a ${width} px`).toBeGreaterThanOrEqual(0);
          expect(right, `el formulario termina dentro de la pantalla a ${width} px`).toBeLessThanOrEqual(width);
        }
        await expectNoSidewaysScroll(support, width);
        expect(await seriousAccessibilityViolations(support)).toEqual([]);
        await screenshot(support, testInfo, `telefono-ver-completos-${width}`);

        await reason.fill(REVEAL_REASON);
        await support.getByRole('button', { name: 'Mostrar identificadores' }).click();
        const revealed = support.getByTestId('revealed-identifiers');
        await expect(support.getByTestId('revealed-nit')).toHaveText('576937-K');
        expect((await horizontalExtent(revealed)).right, `los identificadores mostrados caben a ${width} px`).toBeLessThanOrEqual(width);
        await expectNoSidewaysScroll(support, width);
        await screenshot(support, testInfo, `telefono-ver-completos-mostrados-${width}`);
      }
    } finally {
      await supportContext.close();
    }

    for (const [width, height] of WIDTHS) {
      await admin.setViewportSize({ width, height });
      await admin.goto(`${baseUrl}/admin/datos-personales`);
      const access = admin.getByTestId('personal-data-access').locator('tbody tr', { hasText: USER_EMAIL }).first();
      await expect(access).toContainText(REVEAL_REASON);
      await expect(access).toBeVisible();
      for (const label of ['Fecha', 'Quién', 'Motivo o detalle']) {
        expect(await splitWords(access.locator(`td[data-label="${label}"]`)), `«${label}» a ${width} px`).toEqual([]);
      }
      await expectNoSidewaysScroll(admin, width);
      expect(await seriousAccessibilityViolations(admin)).toEqual([]);
      await screenshot(admin, testInfo, `telefono-accesos-${width}`);
    }
  });

  test('Alertas: la fecha y el nombre de la integración de cada aviso enteros', async ({}, testInfo) => {
    const { baseUrl } = settings();
    // A tariff its balance no longer pays: the app writes a "Saldo agotado" alert at once.
    await admin.setViewportSize({ width: 1366, height: 900 });
    await admin.goto(`${baseUrl}/admin/integraciones/nueva`);
    await admin.getByLabel('Nombre (login)').fill(INTEGRATION_NAME);
    await admin.getByLabel('Tarifa por consulta de catálogo (Q)').fill('1.00');
    await admin.getByLabel('Saldo inicial (Q, opcional)').fill('2.00');
    await admin.getByRole('button', { name: 'Crear integración' }).click();
    await admin.getByRole('link', { name: 'Ir a la integración' }).click();
    await expect(admin.getByRole('heading', { name: INTEGRATION_NAME, level: 1 })).toBeVisible();
    // The tariff is set in the integration's Saldo section (issue 32, point 5).
    await admin.getByRole('navigation', { name: 'Secciones de la integración' }).getByRole('link', { name: 'Saldo y estados de cuenta', exact: true }).click();
    await admin.getByLabel('Tarifa por consulta (Q)').fill('3.00');
    await admin.getByRole('button', { name: 'Guardar tarifa' }).click();
    await admin.getByRole('dialog', { name: `¿Cambiar la tarifa de «${INTEGRATION_NAME}»?` }).getByRole('button', { name: 'Guardar tarifa Q 3.00' }).click();
    await expect(admin.getByText('Tarifa actualizada a Q 3.00 por consulta.')).toBeVisible();

    for (const [width, height] of WIDTHS) {
      await admin.setViewportSize({ width, height });
      await admin.goto(`${baseUrl}/admin/alertas`);
      const delivery = admin.getByTestId('alert-deliveries').locator('tbody tr', { hasText: INTEGRATION_NAME });
      await expect(delivery).toContainText(`Saldo agotado: ${INTEGRATION_NAME}`);
      await expect(delivery).toBeVisible();
      for (const label of ['Fecha', 'Condición']) {
        expect(await splitWords(delivery.locator(`td[data-label="${label}"]`)), `«${label}» a ${width} px`).toEqual([]);
      }
      await expectNoSidewaysScroll(admin, width);
      expect(await seriousAccessibilityViolations(admin)).toEqual([]);
      await screenshot(admin, testInfo, `telefono-alertas-${width}`);
    }
  });
});
