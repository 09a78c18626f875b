// Every console page (Lotes, a job's page and an invoice's included) and /docs, at a desktop size and at a phone's 390 px: nothing scrolls
// sideways, axe-core finds no serious or critical violation, and a full-page screenshot of each is
// kept in e2e-artifacts/<database>/screenshots (pagina-<page>-<escritorio|telefono>.png).
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { FAULT_IDENTIFIERS } from '../simulator/faults';
import { samplePopulation } from '../simulator/population';
import { demoToken, openConsoleAsAdmin, screenshot, seriousAccessibilityViolations, settings } from './support/console';

const VIEWPORTS = [
  { name: 'escritorio', size: { width: 1366, height: 900 } },
  { name: 'telefono', size: { width: 390, height: 844 } },
] as const;

interface Ids {
  integration: number;
  record: number;
  failedRecord: number;
  /** A bulk job of demo's (its public id). */
  job: string;
  /** The invoice of demo's initial balance. */
  invoice: number;
}

// Pages that need a session; the sign-in page and /docs are opened without one. `section`: a
// part of the page that must be there too (a form that only some pages have).
const PAGES: Array<{ name: string; heading: string | RegExp; path: (ids: Ids) => string; signedOut?: boolean; section?: string }> = [
  { name: 'panel', heading: 'Panel', path: () => '/admin' },
  { name: 'integraciones', heading: 'Integraciones', path: () => '/admin/integraciones' },
  { name: 'nueva-integracion', heading: 'Nueva integración', path: () => '/admin/integraciones/nueva' },
  // The integration's sections (issue 32, point 5), each at its own address.
  { name: 'integracion', heading: 'demo', path: (ids) => `/admin/integraciones/${ids.integration}`, section: 'Consultas habilitadas' },
  { name: 'integracion-credenciales', heading: 'demo', path: (ids) => `/admin/integraciones/${ids.integration}/credenciales`, section: 'Tokens' },
  { name: 'integracion-saldo', heading: 'demo', path: (ids) => `/admin/integraciones/${ids.integration}/saldo`, section: 'Alerta de saldo bajo' },
  { name: 'integracion-notificaciones', heading: 'demo', path: (ids) => `/admin/integraciones/${ids.integration}/notificaciones`, section: 'Notificaciones' },
  { name: 'integracion-datos', heading: 'demo', path: (ids) => `/admin/integraciones/${ids.integration}/datos`, section: 'Datos de la integración' },
  { name: 'integracion-uso', heading: 'demo', path: (ids) => `/admin/integraciones/${ids.integration}/uso`, section: 'Uso en los últimos 30 días' },
  { name: 'historial-de-saldo', heading: 'Historial de saldo de demo', path: (ids) => `/admin/integraciones/${ids.integration}/movimientos` },
  { name: 'vista-previa-estado-de-cuenta', heading: 'Vista previa del estado de cuenta de demo', path: (ids) => `/admin/integraciones/${ids.integration}/estados/vista-previa` },
  { name: 'registros', heading: 'Registros de consultas', path: () => '/admin/registros' },
  { name: 'registro', heading: /^Consulta \d+$/, path: (ids) => `/admin/registros/${ids.record}` },
  { name: 'registro-con-error', heading: /^Consulta \d+$/, path: (ids) => `/admin/registros/${ids.failedRecord}` },
  // Bulk jobs (issue 35): every integration's jobs, and one job's figures and masked rows.
  { name: 'lotes', heading: 'Lotes', path: () => '/admin/lotes' },
  { name: 'lote', heading: /^Lote lote_[0-9a-f]{20}$/, path: (ids) => `/admin/lotes/${ids.job}`, section: 'Filas' },
  // FEL invoices: the list (empty in this suite's production build, where FEL is off).
  { name: 'facturas', heading: 'Facturas', path: () => '/admin/facturas' },
  { name: 'factura', heading: /^Factura [0-9A-F]{8}-\d+$/, path: (ids) => `/admin/facturas/${ids.invoice}`, section: 'Datos de la factura' },
  { name: 'usuarios', heading: 'Usuarios', path: () => '/admin/usuarios' },
  { name: 'auditoria', heading: 'Auditoría', path: () => '/admin/auditoria' },
  { name: 'accesos-datos-personales', heading: 'Accesos a datos personales', path: () => '/admin/datos-personales' },
  {
    name: 'quien-consulto',
    heading: '¿Quién consultó este CUI o NIT?',
    // An old link that still carries the identifier: turned into a search reference (issue 30, point 5).
    path: () => `/admin/datos-personales/quien-consulto?referencia=Ticket+1&identificador=${encodeURIComponent(samplePopulation({ seed: Number(process.env.E2E_SIMULATOR_SEED) }).omiso.nit)}`,
    section: 'Integraciones que consultaron',
  },
  { name: 'alertas', heading: 'Alertas', path: () => '/admin/alertas' },
  { name: 'fuentes', heading: 'Fuentes', path: () => '/admin/fuentes' },
  { name: 'cuenta', heading: 'Mi cuenta', path: () => '/admin/cuenta' },
  { name: 'sin-permiso', heading: 'Sin permiso', path: () => '/admin/sin-permiso' },
  { name: 'no-encontrada', heading: 'No encontramos esta página', path: () => '/admin/integraciones/999999' },
  { name: 'inicio-de-sesion', heading: 'Consola de consultas de contribuyentes', path: () => '/admin/login', signedOut: true },
  { name: 'documentacion', heading: 'API de consulta de contribuyentes', path: () => '/docs', signedOut: true },
];

/**
 * A job of identifiers the gateway sets aside (so it runs no lookup, charges nothing and adds no
 * record to demo's): its page has figures and rows like any job's.
 */
async function setAsideJob(browser: Browser): Promise<string> {
  const context = await browser.newContext();
  const response = await context.request.post(`${settings().baseUrl}/api/lotes`, {
    headers: { 'x-integracion-login': 'demo', 'x-integracion-token': demoToken(), 'idempotency-key': `cada-pagina-${Date.now().toString(36)}` },
    data: { catalogo: 'omisos', identificadores: ['no-es-un-nit', '12345678'] },
  });
  expect(response.status()).toBe(202);
  const { id } = (await response.json()) as { id: string };
  await context.close();
  return id;
}

async function omisosQuery(browser: Browser, nit: string): Promise<number> {
  const context = await browser.newContext();
  const response = await context.request.post(`${settings().baseUrl}/api/catalogos/omisos`, {
    headers: { 'x-integracion-login': 'demo', 'x-integracion-token': demoToken() },
    data: { nit },
  });
  await response.body();
  await context.close();
  return response.status();
}

/** The id of the newest record of the integration with this status, from the records page. */
async function newestRecordId(page: Page, integrationId: number, status: string): Promise<number> {
  await page.goto(`${settings().baseUrl}/admin/registros?integracion=${integrationId}&estado=${status}`);
  const href = await page.getByTestId('records').locator('tbody tr').first().getByRole('link').first().getAttribute('href');
  return Number(/\/admin\/registros\/(\d+)/.exec(href ?? '')![1]);
}

/** The id of the newest invoice, once the worker has certified it (the seed's, a moment after start). */
async function certifiedInvoiceId(page: Page): Promise<number> {
  await expect(async () => {
    await page.goto(`${settings().baseUrl}/admin/facturas?estado=certified`);
    await expect(page.getByTestId('invoices').locator('tbody tr')).not.toHaveCount(0);
  }).toPass({ timeout: 30_000 });
  const href = await page.getByTestId('invoices').locator('tbody tr').first().locator('a[href^="/admin/facturas/"]').first().getAttribute('href');
  return Number(/\/admin\/facturas\/(\d+)/.exec(href ?? '')![1]);
}

test.describe.serial('cada página, en escritorio y en teléfono', () => {
  let adminContext: BrowserContext;
  let admin: Page;
  const ids: Ids = { integration: 0, record: 0, failedRecord: 0, job: '', invoice: 0 };

  test.beforeAll(async ({ browser }) => {
    const { baseUrl } = settings();
    // One charged query and one the catalog source fails (it answers an nginx HTML page).
    const population = samplePopulation({ seed: Number(process.env.E2E_SIMULATOR_SEED) });
    expect(await omisosQuery(browser, population.omiso.nit)).toBe(200);
    expect(await omisosQuery(browser, FAULT_IDENTIFIERS.server_error.nit)).toBe(502);
    ids.job = await setAsideJob(browser);

    adminContext = await browser.newContext();
    admin = await adminContext.newPage();
    await openConsoleAsAdmin(admin);
    await admin.goto(`${baseUrl}/admin/integraciones`);
    const href = await admin.getByRole('link', { name: 'demo', exact: true }).getAttribute('href');
    ids.integration = Number(/\/admin\/integraciones\/(\d+)/.exec(href ?? '')![1]);
    ids.record = await newestRecordId(admin, ids.integration, '200');
    ids.failedRecord = await newestRecordId(admin, ids.integration, '502');
    ids.invoice = await certifiedInvoiceId(admin);
  });

  test.afterAll(async () => {
    await adminContext?.close();
  });

  for (const viewport of VIEWPORTS) {
    for (const page of PAGES) {
      test(`${page.name} (${viewport.name}): sin desplazamiento lateral y sin fallas graves de accesibilidad`, async ({ browser }, testInfo) => {
        const { baseUrl } = settings();
        const context = page.signedOut ? await browser.newContext() : undefined;
        const tab = context ? await context.newPage() : admin;
        await tab.setViewportSize(viewport.size);
        await tab.goto(`${baseUrl}${page.path(ids)}`);
        await expect(tab.getByRole('heading', { level: 1, name: page.heading })).toBeVisible();
        if (page.section) await expect(tab.getByRole('heading', { level: 2, name: page.section })).toBeVisible();
        // /docs holds every schema: a full capture of it took over a minute on a busy machine.
        await screenshot(tab, testInfo, `pagina-${page.name}-${viewport.name}`, { fullPage: page.name !== 'documentacion' });

        const widths = await tab.evaluate(() => ({ page: document.documentElement.scrollWidth, screen: window.innerWidth }));
        expect(widths.page, `${page.path(ids)} es más ancha que la pantalla`).toBeLessThanOrEqual(viewport.size.width);
        expect(widths.screen).toBe(viewport.size.width);
        expect(await seriousAccessibilityViolations(tab)).toEqual([]);
        await context?.close();
      });
    }
  }

  test('en el teléfono, un menú muestra todas las secciones', async () => {
    const { baseUrl } = settings();
    await admin.setViewportSize(VIEWPORTS[1].size);
    await admin.goto(`${baseUrl}/admin`);
    const nav = admin.getByRole('navigation', { name: 'Secciones de la consola' });
    const menu = admin.getByRole('button', { name: 'Menú' });
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    await expect(nav.getByRole('link', { name: 'Auditoría' })).toBeHidden();
    // A compact header: one row with the brand and "Menú"; who is signed in and "Cerrar sesión"
    // are inside the menu.
    expect((await admin.locator('header.console-header').boundingBox())!.height).toBeLessThanOrEqual(64);
    const signOut = admin.getByRole('button', { name: 'Cerrar sesión' });
    await expect(signOut).toBeHidden();
    await menu.click();
    await expect(menu).toHaveAttribute('aria-expanded', 'true');
    await expect(signOut).toBeVisible();
    await expect(admin.getByTestId('current-role')).toBeVisible();
    for (const section of ['Panel', 'Integraciones', 'Registros de consultas', 'Usuarios', 'Auditoría']) {
      const link = nav.getByRole('link', { name: section, exact: true });
      await expect(link).toBeVisible();
      // A whole row of the menu, not a chip in a strip that scrolls sideways.
      expect((await link.boundingBox())!.width).toBeGreaterThan(300);
    }
    await nav.getByRole('link', { name: 'Auditoría' }).click();
    await expect(admin.getByRole('heading', { name: 'Auditoría', level: 1 })).toBeVisible();
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    // On a desktop the sections are always in the header, without a menu button.
    await admin.setViewportSize(VIEWPORTS[0].size);
    await expect(menu).toBeHidden();
    await expect(nav.getByRole('link', { name: 'Auditoría' })).toBeVisible();
  });

  test('la primera tecla Tab ofrece saltar la navegación, en la consola y en /docs', async () => {
    const { baseUrl } = settings();
    await admin.setViewportSize(VIEWPORTS[0].size);
    for (const path of ['/admin/integraciones', '/docs']) {
      await admin.goto(`${baseUrl}${path}`);
      const skip = admin.getByRole('link', { name: 'Saltar al contenido' });
      await expect(skip).not.toBeInViewport();
      await admin.keyboard.press('Tab');
      await expect(skip).toBeFocused();
      await expect(skip).toBeInViewport();
      await admin.keyboard.press('Enter');
      await expect(admin.locator('main#contenido')).toBeFocused();
    }
  });

  test('en el teléfono, registros e integraciones muestran estado, identificador y saldo sin desplazarse', async () => {
    const { baseUrl } = settings();
    await admin.setViewportSize(VIEWPORTS[1].size);
    const inView = async (locator: ReturnType<Page['locator']>) => {
      // The list streams in after its skeleton ("Cargando…"): measure the row once it is there.
      await expect(locator).toBeVisible();
      const box = (await locator.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
    };
    await admin.goto(`${baseUrl}/admin/registros?integracion=${ids.integration}&estado=200`);
    const record = admin.getByTestId('records').locator('tbody tr').first();
    await inView(record.getByTestId('record-status'));
    await inView(record.getByTestId('record-identifier'));
    await inView(record.getByTestId('record-charged'));

    await admin.goto(`${baseUrl}/admin/integraciones`);
    const demo = admin.getByTestId('integrations').locator('tbody tr', { hasText: 'demo' });
    await inView(demo.getByTestId('integration-status'));
    await inView(demo.getByTestId('integration-balance'));
  });

  test('en el teléfono, Escape cierra el menú y devuelve el foco a su botón (issue 24, punto 11)', async () => {
    const { baseUrl } = settings();
    await admin.setViewportSize(VIEWPORTS[1].size);
    await admin.goto(`${baseUrl}/admin`);
    const menu = admin.getByRole('button', { name: 'Menú' });
    await menu.click();
    const signOut = admin.getByRole('button', { name: 'Cerrar sesión' });
    await expect(signOut).toBeVisible();
    await signOut.focus();
    await admin.keyboard.press('Escape');
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    await expect(signOut).toBeHidden();
    await expect(menu).toBeFocused();
  });

  test('en el teléfono, el historial de saldo y el saldo bajo se leen sin desplazarse (issue 24, punto 11)', async () => {
    const { baseUrl } = settings();
    // An integration whose balance is below the default alert threshold (Q 100.00): on the Panel's low-balance list.
    const name = `saldo-bajo-${Date.now().toString(36)}`;
    await admin.setViewportSize(VIEWPORTS[0].size);
    await admin.goto(`${baseUrl}/admin/integraciones/nueva`);
    await admin.getByLabel('Nombre (login)').fill(name);
    await admin.getByLabel('Tarifa por consulta de catálogo (Q)').fill('1.00');
    await admin.getByLabel('Saldo inicial (Q, opcional)').fill('12.00');
    await admin.getByRole('checkbox', { name: /Catálogo CUI\/NIT/ }).check();
    await admin.getByRole('button', { name: 'Crear integración' }).click();
    await expect(admin.getByTestId('new-token')).toHaveText(/^tlk_/);

    await admin.setViewportSize(VIEWPORTS[1].size);
    const inView = async (locator: ReturnType<Page['locator']>) => {
      await expect(locator).toBeVisible();
      const box = (await locator.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
    };
    for (const path of [`/admin/integraciones/${ids.integration}/saldo`, `/admin/integraciones/${ids.integration}/movimientos`]) {
      await admin.goto(`${baseUrl}${path}`);
      const row = admin.getByTestId('balance-history').locator('tbody tr').first();
      // Date, balance after and origin: the first, fourth and last columns on a desktop.
      await inView(row.locator('td').first());
      await inView(row.getByTestId('balance-after'));
      await inView(row.locator('td').last());
      await expect(row.locator('td').last()).toHaveAttribute('data-label', 'Origen');
    }
    await expect(async () => {
      await admin.goto(`${baseUrl}/admin`);
      await expect(admin.getByTestId('low-balance').locator('tbody tr', { hasText: name })).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 15_000 });
    const low = admin.getByTestId('low-balance').locator('tbody tr', { hasText: name });
    await inView(low.getByRole('link', { name }));
    await inView(low.locator('td').nth(1));
    await inView(low.locator('td').nth(4));
    await expect(low.locator('td').nth(2)).toContainText('Q 100.00');
    await expect(low.locator('td').nth(4)).toContainText('12');
  });

  test('las gráficas tienen fechas en el eje, letra legible en el teléfono y cifras al pasar o tocar', async () => {
    const { baseUrl } = settings();
    await admin.setViewportSize(VIEWPORTS[0].size);
    const name = 'Consultas por tipo a lo largo del tiempo';
    await expect(async () => {
      await admin.goto(`${baseUrl}/admin`);
      await expect(admin.getByRole('img', { name })).toBeVisible({ timeout: 500 });
    }).toPass({ timeout: 15_000 });
    const chart = admin.getByRole('img', { name });
    // Hourly columns say which day they are: a 24-hour axis passes the same clock time twice.
    const labels = (await chart.locator('.chart-label:visible').allTextContents()).filter((label) => label.includes(':'));
    expect(labels.length).toBeGreaterThan(2);
    for (const label of labels) expect(label).toMatch(/^\d{2}\/\d{2} \d{2}:\d{2}$/);
    await chart.locator('[data-tip]').last().hover();
    const tooltip = admin.getByTestId('chart-tooltip').first();
    await expect(tooltip).toContainText('Catálogo omisos: ');
    await expect(tooltip).toContainText('Total: ');

    await admin.setViewportSize(VIEWPORTS[1].size);
    const narrow = admin.getByRole('img', { name });
    await expect(narrow).toBeVisible();
    const letterHeight = await narrow.locator('.chart-label:visible').first().evaluate((element) => element.getBoundingClientRect().height);
    expect(letterHeight).toBeGreaterThanOrEqual(10);
    await admin.mouse.move(1, 1);
    await expect(admin.getByTestId('chart-tooltip')).toHaveCount(0);
    await narrow.locator('[data-tip]').last().click();
    await expect(admin.getByTestId('chart-tooltip').first()).toContainText('Total: ');
  });

  test('las páginas tienen un ícono (favicon)', async () => {
    const { baseUrl } = settings();
    await admin.goto(`${baseUrl}/admin`);
    const href = await admin.locator('link[rel="icon"]').first().getAttribute('href');
    expect(href).toBeTruthy();
    const icon = await admin.request.get(new URL(href!, baseUrl).toString());
    expect(icon.status()).toBe(200);
    expect(icon.headers()['content-type']).toContain('image/svg+xml');
  });

  test('un id que no existe da una página 404 en español', async () => {
    const { baseUrl } = settings();
    await admin.setViewportSize(VIEWPORTS[0].size);
    for (const path of ['/admin/integraciones/999999', '/admin/integraciones/999999/credenciales', '/admin/registros/999999999', '/admin/integraciones/abc', '/admin/integraciones/abc/uso', '/admin/no-existe']) {
      const response = await admin.goto(`${baseUrl}${path}`);
      expect(response!.status(), path).toBe(404);
      await expect(admin.getByRole('heading', { level: 1, name: 'No encontramos esta página' })).toBeVisible();
      await expect(admin.locator('body')).not.toContainText('could not be found');
    }
  });

  test('el error de una consulta se explica en español y el detalle técnico queda plegado', async () => {
    const { baseUrl } = settings();
    await admin.goto(`${baseUrl}/admin/registros/${ids.failedRecord}`);
    const detail = admin.getByTestId('record-detail');
    await expect(detail).toContainText('La fuente de catálogos respondió HTTP 503 (servicio no disponible): la fuente falló. La integración recibió 502.');
    await expect(detail).not.toContainText('Request id');
    await expect(detail).toContainText('Id de solicitud');
    const raw = detail.getByTestId('record-error-raw');
    await expect(raw).toBeHidden();
    await detail.getByText('Detalle técnico').click();
    await expect(raw).toBeVisible();
    await expect(raw).toContainText('503');
  });
});
