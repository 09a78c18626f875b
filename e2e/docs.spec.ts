// The integrator documentation at /docs, rendered from the OpenAPI document, in chromium.
import { expect, test } from '@playwright/test';
import { PORTAL_GUIDE_TWO_FACTOR_REQUIRED } from '../app/docs/portal-guide';
import { CATALOG_MESSAGES } from '../lib/contract/messages';
import { PORTAL_ROLE_LABELS, PORTAL_ROLES } from '../lib/flows/portal-identity/roles';
import { samplePopulation } from '../simulator/population';
import { marksOf, PAGE_ROLES_IN_CODE, renderedMark, TWO_FACTOR_ROW } from '../tests/support/portal-role-docs';
import { cspViolations, demoToken, screenshot, seriousAccessibilityViolations, settings } from './support/console';

const OPERATIONS = [
  ['searchRenapByCui', '/renap/buscar-cui'],
  ['searchRtuByNits', '/rtu/nits'],
  ['lookupCuiNit', '/catalogos/cui-nit'],
  ['lookupRtuV2', '/catalogos/rtu'],
  ['lookupOmisos', '/catalogos/omisos'],
] as const;

test('la documentación muestra las cinco operaciones y su consola de prueba llama a este despliegue', async ({ page }, testInfo) => {
  const { baseUrl } = settings();
  const blocked = cspViolations(page);
  await page.goto(`${baseUrl}/docs`);
  await expect(page.getByRole('heading', { name: 'API de consulta de contribuyentes', level: 1 })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Secciones de la documentación' }).getByRole('link', { name: '/catalogos/omisos' })).toBeVisible();
  for (const [operationId, path] of OPERATIONS) {
    const section = page.locator(`section#${operationId}`);
    await expect(section.getByRole('heading', { level: 2 })).toContainText(path);
    await expect(section.getByText(`operationId ${operationId}`)).toBeVisible();
    // Every catalog error status and its message, as the contract lists them.
    if (path.startsWith('/catalogos/')) {
      for (const status of ['200', '400', '401', '402', '403', '404', '429', '500', '502']) {
        await expect(section.locator('td.status', { hasText: new RegExp(`^${status}$`) })).toBeVisible();
      }
      await expect(section.getByText('"message":"Tu integracion no tiene saldo disponible. Recarga para seguir consultando."')).toBeVisible();
    }
  }
  await screenshot(page, testInfo, '15-documentacion', { fullPage: false });

  // The try-it console sends a real request to this deployment; without credentials the
  // catalogs answer the contract's 403.
  const omisos = page.locator('section#lookupOmisos');
  await omisos.getByText(`Probar contra ${baseUrl}/api`).click();
  await omisos.getByRole('button', { name: 'POST /catalogos/omisos' }).click();
  await expect(omisos.getByText('HTTP 403')).toBeVisible();
  await expect(omisos.locator('.answer pre')).toContainText('"message": "Se requieren credenciales de integracion."');
  // The page's CSP (a fresh nonce per request) let everything it needs run, and nothing was blocked.
  expect(blocked).toEqual([]);
  await omisos.locator('.answer').scrollIntoViewIfNeeded();
  await screenshot(page, testInfo, '16-documentacion-probar', { fullPage: false });
});

test('las credenciales se escriben una vez para las cinco consolas, y cada operación trae ejemplos copiables', async ({ page }) => {
  const { baseUrl } = settings();
  await page.goto(`${baseUrl}/docs`);
  await page.getByLabel('x-integracion-login').fill('demo');
  await page.getByLabel('x-integracion-token').fill(demoToken());

  const omisos = page.locator('section#lookupOmisos');
  await omisos.getByText(`Probar contra ${baseUrl}/api`).click();
  const nit = samplePopulation({ seed: Number(process.env.E2E_SIMULATOR_SEED) }).omiso.nit;
  await omisos.getByLabel('Cuerpo (JSON)').fill(JSON.stringify({ nit }));
  await omisos.getByRole('button', { name: 'POST /catalogos/omisos' }).click();
  await expect(omisos.getByText('HTTP 200')).toBeVisible();

  const renap = page.locator('section#searchRenapByCui');
  await renap.getByText(`Probar contra ${baseUrl}/api`).click();
  await expect(renap.getByText('Con las credenciales de demo')).toBeVisible();
  await renap.getByRole('button', { name: 'POST /renap/buscar-cui' }).click();
  await expect(renap.locator('.answer')).toBeVisible();
  await expect(renap.locator('.answer')).not.toContainText(/HTTP 40[13]/);

  const samples = { curl: 'curl -sS -X POST', javascript: 'await fetch(', python: 'requests.post(', csharp: 'new HttpClient' };
  for (const [language, opening] of Object.entries(samples)) {
    const sample = omisos.locator(`details.sample[data-language="${language}"]`);
    await sample.locator('summary').click();
    await expect(sample.locator('pre')).toContainText(opening);
    // The address is stated once, in BASE_URL, in the language's own quotes.
    await expect(sample.locator('pre')).toContainText(language === 'python' || language === 'csharp' ? `BASE_URL = "${baseUrl}/api"` : `BASE_URL${language === 'curl' ? '=' : ' = '}'${baseUrl}/api'`);
    await expect(sample.locator('pre')).toContainText('/catalogos/omisos');
    await expect(sample.locator('pre')).toContainText('x-integracion-token');
  }
  // The page keeps the token in memory only.
  expect(await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.cookie)).not.toContain(demoToken());
  await page.reload();
  await expect(page.getByLabel('x-integracion-token')).toHaveValue('');
});

// Issue 24, defect 12: what a new integrator reading /docs found wanting.
for (const width of [1366, 390]) {
  test(`a ${width} px: tipos legibles, ejemplos de 200, x-request-id con el contacto de soporte, y un solo trato (usted)`, async ({ page }, testInfo) => {
    const { baseUrl } = settings();
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`${baseUrl}/docs`);

    // A one-word type ("string", "CodigoDescripcion") sits on one line, never letter by letter.
    const brokenTypes = await page.locator('table.fields').evaluateAll((tables) =>
      tables.flatMap((table) =>
        [...table.querySelectorAll('tbody tr')].flatMap((row) => {
          const cell = row.children[1] as HTMLElement;
          const text = cell.textContent ?? '';
          if (/\s/.test(text.trim())) return [];
          const range = document.createRange();
          range.selectNodeContents(cell);
          const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
          return lines.size > 1 ? [`${text} (${lines.size} lines)`] : [];
        }),
      ),
    );
    expect(brokenTypes).toEqual([]);
    await expect(page.locator('body')).not.toContainText('mínimo 1 elementos');
    await expect(page.locator('section#searchRtuByNits table.fields')).toContainText('mínimo 1 elemento,');

    // Each lookup shows a whole 200 answer.
    const omisos = page.locator('section#lookupOmisos');
    await omisos.locator('details.example-body summary').first().click();
    await expect(omisos.locator('details.example-body pre').first()).toContainText('"estadoContribuyente"');
    const renap = page.locator('section#searchRenapByCui');
    await renap.locator('details.example-body summary').first().click();
    await expect(renap.locator('details.example-body pre').first()).toContainText('"success": true');

    // Where "Escribe a soporte" sends them, and what to quote.
    const support = page.locator('section#soporte');
    await expect(support).toContainText('x-request-id');
    await expect(support.getByRole('link', { name: 'soporte@example.com' })).toHaveAttribute('href', 'mailto:soporte@example.com');

    // Usted throughout, not tú.
    await expect(page.locator('body')).not.toContainText(/\b(Tus|escríbelas|selecciona el texto)\b/);
    await expect(page.getByRole('heading', { name: 'Sus credenciales para probar' })).toBeVisible();

    // The copy buttons look like buttons of this page, not the browser's default grey.
    const sample = omisos.locator('details.sample[data-language="curl"]');
    await sample.locator('summary').click();
    const copy = sample.getByRole('button', { name: 'Copiar ejemplo en curl' });
    expect(await copy.evaluate((button) => getComputedStyle(button).borderRadius)).toBe('4px');
    await page.locator('section#searchRtuByNits table.fields').scrollIntoViewIfNeeded();
    await screenshot(page, testInfo, `15-documentacion-campos-${width}`, { fullPage: false });
    await support.scrollIntoViewIfNeeded();
    await screenshot(page, testInfo, `15-documentacion-soporte-${width}`, { fullPage: false });

    // Safe retries (issue 25, point 2): the section, and the optional header on each catalog only.
    const retries = page.locator('section#idempotencia');
    await expect(retries).toContainText('Idempotency-Replayed: true');
    for (const catalog of ['lookupCuiNit', 'lookupRtuV2', 'lookupOmisos']) {
      await expect(page.locator(`section#${catalog}`).getByRole('link', { name: 'Reintentos seguros' })).toHaveAttribute('href', '#idempotencia');
    }
    await expect(page.locator('section#searchRtuByNits')).not.toContainText('Idempotency-Key');
    await retries.scrollIntoViewIfNeeded();
    await screenshot(page, testInfo, `15-documentacion-idempotencia-${width}`, { fullPage: false });
  });
}

// Issue 35, point 7: the bulk jobs (lotes) in /docs from the OpenAPI document, each operation with
// its answers, its own examples and request samples, and no console that would start a real job.
const BULK_OPERATIONS = [
  ['createBulkJob', 'POST', '/lotes'],
  ['getBulkJob', 'GET', '/lotes/{id}'],
  ['getBulkJobResults', 'GET', '/lotes/{id}/resultados'],
  ['cancelBulkJob', 'POST', '/lotes/{id}/cancelar'],
  ['retryBulkJobFailures', 'POST', '/lotes/{id}/reintentar'],
] as const;

for (const width of [1366, 390]) {
  test(`a ${width} px: los lotes, sus cinco operaciones con ejemplos propios y sin consola de prueba`, async ({ page }, testInfo) => {
    const { baseUrl } = settings();
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`${baseUrl}/docs`);
    if (width > 1000) await page.getByRole('navigation', { name: 'Secciones de la documentación' }).getByRole('link', { name: 'Lotes', exact: true }).click();
    const lotes = page.locator('section#lotes');
    await expect(lotes.getByRole('heading', { name: 'Lotes: muchas consultas en segundo plano', level: 2 })).toBeVisible();
    for (const [operationId, method, path] of BULK_OPERATIONS) {
      const section = lotes.locator(`section#${operationId}`);
      await expect(section.getByRole('heading', { level: 3 })).toHaveText(`${method} ${path}`);
      await expect(section.getByText(`operationId ${operationId}`)).toBeVisible();
      await expect(page.locator('header#inicio').getByRole('link', { name: `${method} ${path}`, exact: true })).toHaveAttribute('href', `#${operationId}`);
    }
    await expect(lotes).not.toContainText('Probar contra');

    // The submission: its body, its required Idempotency-Key, a 202 with a job of its own, and samples that send both.
    const create = lotes.locator('section#createBulkJob');
    await expect(create.locator('table.fields')).toContainText('identificadores');
    await expect(create.locator('td.status', { hasText: /^202$/ })).toBeVisible();
    await create.locator('details.example-body summary').first().click();
    await expect(create.locator('details.example-body pre').first()).toContainText('"estado": "en_curso"');
    await expect(create.locator('details.example-body pre').first()).toContainText('"resultados": "/api/lotes/lote_');
    const curl = create.locator('details.sample[data-language="curl"]');
    await curl.locator('summary').click();
    await expect(curl.locator('pre')).toContainText(`BASE_URL='${baseUrl}/api'`);
    await expect(curl.locator('pre')).toContainText('curl -sS -X POST "$BASE_URL/lotes"');
    await expect(curl.locator('pre')).toContainText("-H 'Idempotency-Key: ");
    // Reading the results: a GET, and a whole CSV example.
    const results = lotes.locator('section#getBulkJobResults');
    await expect(results.locator('pre', { hasText: 'posicion,identificador,estado' })).toBeVisible();
    const python = results.locator('details.sample[data-language="python"]');
    await python.locator('summary').click();
    await expect(python.locator('pre')).toContainText('requests.get(');
    await expect(python.locator('pre')).toContainText(`BASE_URL = "${baseUrl}/api"`);
    await expect(python.locator('pre')).toContainText('f"{BASE_URL}/lotes/lote_');
    await expect(lotes.locator('section#retryBulkJobFailures')).toContainText('error_fuente');

    const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, screen: window.innerWidth }));
    expect(widths.page, `/docs es más ancha que la pantalla a ${width} px`).toBeLessThanOrEqual(width);
    await create.scrollIntoViewIfNeeded();
    await screenshot(page, testInfo, `15-documentacion-lotes-${width}`, { fullPage: false });
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
  });
}

// Issue 54: the integration's own account and the sources' status in /docs, each operation from the
// OpenAPI document, GET /estado said to need no credentials.
const ACCOUNT_OPERATIONS = [
  ['getAccount', 'GET', '/cuenta'],
  ['listAccountMovements', 'GET', '/cuenta/movimientos'],
  ['getSourcesStatus', 'GET', '/estado'],
] as const;

for (const width of [1366, 390]) {
  test(`a ${width} px: su cuenta, sus movimientos y el estado de las fuentes`, async ({ page }) => {
    const { baseUrl } = settings();
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`${baseUrl}/docs`);
    if (width > 1000) await page.getByRole('navigation', { name: 'Secciones de la documentación' }).getByRole('link', { name: 'Su cuenta y estado' }).click();
    const cuenta = page.locator('section#cuenta');
    await expect(cuenta.getByRole('heading', { name: 'Su cuenta y el estado de las fuentes', level: 2 })).toBeVisible();
    for (const [operationId, method, path] of ACCOUNT_OPERATIONS) {
      const section = cuenta.locator(`section#${operationId}`);
      await expect(section.getByRole('heading', { level: 3 })).toHaveText(`${method} ${path}`);
      await expect(page.locator('header#inicio').getByRole('link', { name: `${method} ${path}`, exact: true })).toHaveAttribute('href', `#${operationId}`);
    }
    await expect(cuenta.locator('section#getSourcesStatus')).toContainText('Sin credenciales.');
    await expect(cuenta.locator('section#listAccountMovements')).toContainText('consulta_cobrada');
    const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, screen: window.innerWidth }));
    expect(widths.page, `/docs es más ancha que la pantalla a ${width} px`).toBeLessThanOrEqual(width);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
  });
}

// Issue 32, point 3: the integrator webhook, for integrators: every event with its body, the
// headers, this deployment's retries and the signature, with receivers in the four languages of
// the request samples, readable at 1366 and 390 px.
for (const width of [1366, 390]) {
  test(`a ${width} px: los avisos por webhook, sus eventos, reintentos y cómo verificar la firma`, async ({ page }, testInfo) => {
    const { baseUrl } = settings();
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`${baseUrl}/docs`);
    if (width > 1000) await page.getByRole('navigation', { name: 'Secciones de la documentación' }).getByRole('link', { name: 'Avisos por webhook' }).click();
    const webhook = page.locator('section#webhook');
    await expect(webhook.getByRole('heading', { name: 'Avisos por webhook', level: 2 })).toBeVisible();
    for (const tipo of ['saldo_bajo', 'saldo_agotado', 'estado_de_cuenta_emitido', 'token_por_vencer', 'token_revocado', 'fuente_no_disponible', 'fuente_disponible', 'lote_completado', 'lote_en_pausa', 'vigilancia_cambios', 'factura_emitida', 'prueba']) {
      await expect(webhook.getByTestId('webhook-events').locator('td:first-child code', { hasText: new RegExp(`^${tipo}$`) })).toBeVisible();
    }
    const example = webhook.locator('details[data-event="saldo_bajo"]');
    await example.locator('summary').click();
    await expect(example.locator('pre')).toContainText('"tipo": "saldo_bajo"');
    await expect(example.locator('pre')).toContainText('"saldo_centavos": 8000');
    // The deployment's retries (ALERT_MAX_ATTEMPTS 6, ALERT_RETRY_BASE_MS 5000 by default).
    await expect(webhook.getByTestId('webhook-retries').first()).toContainText('tras 5 s, 10 s, 20 s, 40 s y 80 s; 6 intentos en total');
    await expect(webhook).toContainText('HMAC-SHA256');
    await expect(webhook).toContainText('tiempo constante');
    const samples = { curl: 'openssl dgst -sha256 -hmac', javascript: 'timingSafeEqual', python: 'hmac.compare_digest', csharp: 'CryptographicOperations.FixedTimeEquals' };
    for (const [language, check] of Object.entries(samples)) {
      const sample = webhook.locator(`details.sample[data-language="${language}"]`);
      await sample.locator('summary').click();
      await expect(sample.locator('pre')).toContainText(check);
    }
    const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, screen: window.innerWidth }));
    expect(widths.page, `/docs es más ancha que la pantalla a ${width} px`).toBeLessThanOrEqual(width);
    await webhook.locator('details.sample[data-language="python"]').scrollIntoViewIfNeeded();
    await screenshot(page, testInfo, `15-documentacion-webhook-${width}`, { fullPage: false });
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
  });
}

// Issue 33, points 8 and 9: the integrators' portal for integrators: how to get in, what each role
// may do (as the code guards each page: tests/support/portal-role-docs.ts), the sandbox this
// development deployment's portal is, and where a 402's "Recarga" leads, at 1366 and 390 px.
for (const width of [1366, 390]) {
  test(`a ${width} px: el portal de integradores, sus roles como los aplica el código, el sandbox y adónde lleva un 402`, async ({ page }, testInfo) => {
    const { baseUrl } = settings();
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`${baseUrl}/docs`);
    if (width > 1000) await page.getByRole('navigation', { name: 'Secciones de la documentación' }).getByRole('link', { name: 'Portal de integradores' }).click();
    const portal = page.locator('section#portal');
    await expect(portal.getByRole('heading', { name: 'Portal de integradores', level: 2 })).toBeVisible();
    await expect(portal.getByRole('heading', { name: 'Cómo entrar', level: 3 })).toBeVisible();
    await expect(portal).toContainText('Pida al administrador del servicio una invitación para el primer propietario de su integración');
    await expect(portal).toContainText('El propietario invita a las demás personas desde Equipo');

    // The role table says of every page what the code admits, and nothing else.
    const table = portal.getByTestId('portal-roles');
    await expect(table.locator('thead th')).toHaveText(['Página', ...PORTAL_ROLES.map((role) => PORTAL_ROLE_LABELS[role])]);
    const rendered = await table.locator('tbody tr').evaluateAll((rows) =>
      rows.map((row) => ({
        page: row.getAttribute('data-page') ?? '',
        cells: [...row.querySelectorAll('td')].map((cell) => [cell.getAttribute('data-role') ?? '', cell.textContent ?? ''] as const),
      })),
    );
    const documented = new Map(rendered.map(({ page, cells }) => [page, Object.fromEntries(cells.map(([role, text]) => [role, renderedMark(text)]))]));
    const expected = new Map(Object.entries(PAGE_ROLES_IN_CODE).map(([name, roles]) => [name, marksOf(roles)]));
    expected.set(TWO_FACTOR_ROW, marksOf(PORTAL_GUIDE_TWO_FACTOR_REQUIRED));
    expect(documented).toEqual(expected);
    // A role's name and its answer stay on one line, in the header and on a phone ("Desarrollador: Sí").
    const brokenCells = await table.locator('thead th, td').evaluateAll((cells) =>
      cells.flatMap((cell) => {
        const range = document.createRange();
        range.selectNodeContents(cell);
        const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
        return lines.size > 1 ? [`${cell.getAttribute('data-label') ?? 'cabecera'}: ${cell.textContent}`] : [];
      }),
    );
    expect(brokenCells).toEqual([]);
    await table.scrollIntoViewIfNeeded();
    await screenshot(page, testInfo, `15-documentacion-portal-roles-${width}`, { fullPage: false });

    // The sandbox: what it is, how to get access, and that this deployment is it.
    await expect(portal.getByRole('heading', { name: 'Sandbox: el portal del ambiente de desarrollo', level: 3 })).toBeVisible();
    await expect(portal).toContainText('Cada página de ese portal lo dice en un aviso, «Entorno de pruebas (sandbox)»');
    await expect(portal).toContainText('Para tener acceso, pida al administrador del servicio su integración en el ambiente de desarrollo');
    await expect(portal.getByTestId('portal-environment')).toHaveText('Este es el ambiente de desarrollo: su portal, /portal, es el sandbox.');

    // A catalog's 402 keeps the contract's message and leads to the balance in the portal.
    const row402 = page.locator('section#lookupOmisos table.responses tr', { has: page.locator('td.status', { hasText: /^402$/ }) });
    await expect(row402).toContainText(CATALOG_MESSAGES.balanceExhausted);
    await expect(row402).toContainText(
      'vea el saldo en el portal de integradores (Inicio) y lo que lo movió (Movimientos); para recargar, un propietario o facturación deposita en una cuenta del servicio y lo reporta en Recargas del portal',
    );
    await row402.getByRole('link', { name: 'Dónde ver el saldo y cómo recargar' }).click();
    await expect(page).toHaveURL(/#portal-saldo$/);
    const balance = portal.getByRole('heading', { name: 'Sin saldo (402): dónde ver el saldo y cómo recargar', level: 3 });
    await expect(balance).toBeInViewport();
    await expect(portal).toContainText(`Un 402 ${CATALOG_MESSAGES.balanceExhausted} significa que el saldo de su integración no cubre la tarifa`);
    await expect(portal).toContainText('Véalo en el portal, en Inicio, y lo que lo movió en Movimientos');
    // The e2e app takes online payments (the simulator's provider): the guide names them first (issue 64, point 10).
    await expect(portal).toContainText('Para recargar, un propietario o facturación paga en línea (abajo) o deposita en una de las cuentas del servicio (abajo) y reporta el depósito en Recargas.');
    await expect(portal.getByRole('heading', { name: 'Pagar en línea y recarga automática', level: 3 })).toBeVisible();
    await expect(portal.getByRole('heading', { name: 'Sus facturas (FEL)', level: 3 })).toBeVisible();
    // Where to deposit: development's sample account (TOP_UP_BANK_ACCOUNTS unset), and what to write on the slip.
    await expect(portal.getByRole('heading', { name: 'Dónde depositar para recargar', level: 3 })).toBeVisible();
    await expect(portal.getByTestId('deposit-account')).toHaveCount(1);
    await expect(portal.getByTestId('deposit-account')).toContainText('Banco Industrial');
    await expect(portal.getByTestId('deposit-account')).toContainText('Cuenta de desarrollo, no deposite');
    await expect(portal.getByTestId('deposit-slip-note')).toContainText('escriba el login de su integración (el de la cabecera x-integracion-login)');
    await screenshot(page, testInfo, `15-documentacion-portal-402-${width}`, { fullPage: false });

    const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, screen: window.innerWidth }));
    expect(widths.page, `/docs es más ancha que la pantalla a ${width} px`).toBeLessThanOrEqual(width);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    // What /docs promises of the sandbox holds: the portal's pages say it, before signing in too.
    await page.getByTestId('portal-environment').getByRole('link', { name: '/portal' }).click();
    await expect(page.getByRole('heading', { name: 'Portal de integradores', level: 1 })).toBeVisible();
    await expect(page.getByTestId('sandbox-banner')).toContainText('Entorno de pruebas (sandbox)');
  });
}
