// The console end to end: an admin runs an integration from creation to its first billed query,
// creates a support user, and the server refuses every change the support user sends.
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { samplePopulation } from '../simulator/population';
import { callServerAction, createUserThroughForm, cspViolations, screenshot, settings, signInFirstTime, signInThroughForm } from './support/console';
import { maskNit } from '../lib/core/sealing/masking';

const FORBIDDEN = 'esta acción requiere un administrador';
const SIGNED_OUT = 'Su sesión terminó o ya no es válida';

test.describe.serial('consola: un administrador opera una integración y soporte solo consulta', () => {
  const integrationName = `e2e-omisos-${Date.now().toString(36)}`;
  const supportEmail = `soporte-${Date.now().toString(36)}@example.com`;
  let adminContext: BrowserContext;
  let admin: Page;
  let supportContext: BrowserContext;
  let support: Page;
  let integrationId = 0;
  let token = '';
  let supportPassword = '';

  test.beforeAll(async ({ browser }) => {
    adminContext = await browser.newContext({ viewport: { width: 1280, height: 800 }, permissions: ['clipboard-read', 'clipboard-write'] });
    admin = await adminContext.newPage();
  });

  test.afterAll(async () => {
    await adminContext?.close();
    await supportContext?.close();
  });

  test('sin sesión la consola lleva al inicio de sesión, y el admin sembrado entra', async ({}, testInfo) => {
    const { baseUrl, adminEmail, adminPassword } = settings();
    const blocked = cspViolations(admin);
    await admin.goto(`${baseUrl}/admin/integraciones`);
    await expect(admin).toHaveURL(/\/admin\/login/);
    await expect(admin.getByText('Entorno de desarrollo')).toBeVisible();
    await screenshot(admin, testInfo, '01-inicio-de-sesion');

    await admin.getByLabel('Correo electrónico').fill(adminEmail);
    await admin.getByLabel('Contraseña').fill('no-es-la-contraseña');
    await admin.getByRole('button', { name: 'Iniciar sesión' }).click();
    await expect(admin.locator('p.notice.error')).toContainText('Correo o contraseña incorrectos.');

    await signInThroughForm(admin, adminEmail, adminPassword);
    await expect(admin.getByTestId('current-role')).toHaveText('Administrador');
    await screenshot(admin, testInfo, '02-panel-sin-consultas');
    // Sign-in and the dashboard ran under the CSP without anything blocked.
    expect(blocked).toEqual([]);
  });

  test('crea una integración y copia su token, que se muestra una sola vez', async ({}, testInfo) => {
    await admin.getByRole('navigation', { name: 'Secciones de la consola' }).getByRole('link', { name: 'Integraciones' }).click();
    await admin.getByRole('link', { name: 'Nueva integración' }).click();
    await admin.getByLabel('Nombre (login)').fill('con espacios');
    await admin.getByRole('button', { name: 'Crear integración' }).click();
    await expect(admin.locator('.field .error')).toHaveText('Use solo letras, números, punto, guion y guion bajo, sin espacios.');

    await admin.getByLabel('Nombre (login)').fill(integrationName);
    await admin.getByLabel('Tarifa por consulta de catálogo (Q)').fill('2.50');
    await admin.getByRole('button', { name: 'Crear integración' }).click();
    const shownToken = admin.getByTestId('new-token');
    await expect(shownToken).toHaveText(/^tlk_/);
    token = (await shownToken.textContent())!.trim();

    await admin.getByRole('button', { name: 'Copiar' }).click();
    await expect(admin.getByRole('button', { name: 'Copiado ✓' })).toBeVisible();
    expect(await admin.evaluate(() => navigator.clipboard.readText())).toBe(token);
    await screenshot(admin, testInfo, '03-token-recien-creado');

    await admin.getByRole('link', { name: 'Ir a la integración' }).click();
    await expect(admin.getByRole('heading', { name: integrationName, level: 1 })).toBeVisible();
    integrationId = Number(/\/admin\/integraciones\/(\d+)/.exec(admin.url())![1]);
    // The token is not shown again: only its prefix, in the summary and in its credentials.
    await expect(admin.getByText(token)).toHaveCount(0);
    await expect(admin.getByTestId('summary-tokens')).toHaveText(`1: Principal (${token.slice(0, 10)}…)`);
    await admin.getByRole('navigation', { name: 'Secciones de la integración' }).getByRole('link', { name: 'Credenciales' }).click();
    await expect(admin.getByRole('heading', { name: 'Tokens', level: 2 })).toBeVisible();
    await expect(admin.getByText(token)).toHaveCount(0);
    await expect(admin.getByTestId('tokens').getByText(`${token.slice(0, 10)}…`)).toBeVisible();
  });

  test('una integración nueva dice que todavía no tiene consultas', async () => {
    await admin.getByRole('navigation', { name: 'Secciones de la integración' }).getByRole('link', { name: 'Uso' }).click();
    await expect(admin).toHaveURL(new RegExp(`/admin/integraciones/${integrationId}/uso$`));
    await expect(admin.getByRole('heading', { name: 'Últimas consultas' })).toBeVisible();
    await expect(admin.getByText('Esta integración todavía no tiene consultas.', { exact: true })).toBeVisible();
    await expect(admin.getByText('Esta integración todavía no tiene consultas en estos 30 días.', { exact: true })).toBeVisible();
    await expect(admin.getByTestId('usage-queries')).toHaveText('0');
  });

  test('habilita omisos y recarga el saldo con una nota obligatoria', async ({}, testInfo) => {
    const { baseUrl } = settings();
    // The lookups are switched on the summary; money is in "Saldo y estados de cuenta".
    await admin.goto(`${baseUrl}/admin/integraciones/${integrationId}`);
    const omisos = admin.getByTestId('switch-omisos');
    await expect(omisos).toHaveAttribute('aria-checked', 'false');
    await omisos.click();
    await expect(omisos).toHaveAttribute('aria-checked', 'true');
    await expect(omisos).toBeEnabled();
    await admin.reload();
    await expect(admin.getByTestId('switch-omisos')).toHaveAttribute('aria-checked', 'true');

    await admin.goto(`${baseUrl}/admin/integraciones/${integrationId}/saldo`);
    await admin.getByTestId('topup-amount').fill('100.00');
    await admin.getByRole('button', { name: 'Recargar' }).click();
    await expect(admin.locator('.field .error')).toContainText('Escriba una nota que explique el movimiento');
    await admin.getByTestId('topup-note').fill('Depósito e2e 0001');
    await admin.getByRole('button', { name: 'Recargar', exact: true }).click();
    // An accessible dialog (not the browser's confirm) states the amount and the resulting balance.
    const question = admin.getByRole('dialog', { name: `¿Recargar Q 100.00 a «${integrationName}»?` });
    await expect(question).toContainText('El saldo pasará de Q 0.00 a Q 100.00.');
    await expect(question.getByRole('button', { name: 'Cancelar' })).toBeFocused();
    await question.getByRole('button', { name: 'Recargar Q 100.00' }).click();
    await expect(question).toBeHidden();
    await expect(admin.getByText('Recarga de Q 100.00 registrada. Saldo actual: Q 100.00.')).toBeVisible();
    await expect(admin.getByTestId('balance')).toHaveText('Q 100.00');
    const topUp = admin.getByTestId('balance-history').locator('tbody tr').first();
    await expect(topUp).toContainText('Recarga');
    await expect(topUp).toContainText('Depósito e2e 0001');
    await expect(topUp.getByTestId('balance-after')).toHaveText('Q 100.00');
    await screenshot(admin, testInfo, '04-integracion');
  });

  test('una consulta de omisos con ese token aparece en los registros con su cobro', async ({ request }, testInfo) => {
    const { baseUrl } = settings();
    const nit = samplePopulation({ seed: Number(process.env.E2E_SIMULATOR_SEED) }).omiso.nit;
    const response = await request.post(`${baseUrl}/api/catalogos/omisos`, {
      headers: { 'x-integracion-login': integrationName, 'x-integracion-token': token },
      data: { nit },
    });
    expect(response.status(), await response.text()).toBe(200);
    expect(await response.json()).toHaveProperty('data');

    await admin.goto(`${baseUrl}/admin/registros?integracion=${integrationId}`);
    const row = admin.getByTestId('records').locator('tbody tr').first();
    await expect(row).toContainText(integrationName);
    await expect(row).toContainText('Catálogo omisos');
    await expect(row).toContainText('200');
    // Masked for administrators too (issue 30, point 5): "Mostrar" with a reason reveals one record's.
    await expect(row).toContainText(maskNit(nit));
    await expect(row).not.toContainText(nit);
    await expect(row).toContainText('Q 2.50');
    await screenshot(admin, testInfo, '05-registros');

    await row.getByRole('link').first().click();
    // The list's cells carry the same test id: wait for the record's own page before reading it.
    await admin.waitForURL(/\/admin\/registros\/\d+(\?|$)/);
    await expect(admin.getByRole('heading', { name: 'Cobro' })).toBeVisible();
    await expect(admin.getByTestId('record-charged')).toHaveText('Cobrado: Q 2.50');
    await expect(admin.getByTestId('record-nit')).toHaveText(maskNit(nit));
    await admin.getByRole('button', { name: 'Mostrar', exact: true }).click();
    await admin.getByLabel('Motivo (obligatorio)').fill('Revisión e2e del cobro');
    await admin.getByRole('button', { name: 'Mostrar identificadores' }).click();
    await expect(admin.getByTestId('revealed-nit')).toHaveText(nit);
    await screenshot(admin, testInfo, '06-detalle-de-registro');

    await admin.goto(`${baseUrl}/admin/integraciones/${integrationId}/saldo`);
    await expect(admin.getByTestId('balance')).toHaveText('Q 97.50');
    // The history reads as money that moved: the charged query with the balance after it, never
    // its hold ("Reserva") as a movement of its own.
    const history = admin.getByTestId('balance-history');
    const charge = history.locator('tbody tr').first();
    await expect(charge).toContainText('Consulta cobrada');
    await expect(charge).toContainText('-Q 2.50');
    await expect(charge.getByTestId('balance-after')).toHaveText('Q 97.50');
    await expect(history.locator('tbody tr')).toHaveCount(2);
    await expect(history).not.toContainText('Reserva');

    // The dashboard reads the hourly rollups, which take in new records every ROLLUP_INTERVAL_MS.
    await admin.goto(`${baseUrl}/admin`);
    await expect(async () => {
      await admin.reload();
      await expect(admin.getByTestId('total-queries')).toHaveText('1', { timeout: 500 });
    }).toPass({ timeout: 15_000 });
    await expect(admin.getByTestId('total-charged')).toHaveText('Q 2.50');
    await expect(admin.getByRole('img', { name: 'Consultas por tipo a lo largo del tiempo' })).toBeVisible();
    await screenshot(admin, testInfo, '07-panel');

    const csv = await admin.request.get(`${baseUrl}/admin/registros/exportar?integracion=${integrationId}&consulta=omisos`);
    expect(csv.status()).toBe(200);
    expect(csv.headers()['content-type']).toContain('text/csv');
    const lines = (await csv.text()).replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toContain('fecha_utc,fecha_guatemala,integracion,consulta,estado_http');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`${integrationName},Catálogo omisos,200`);
    // Money as numbers a spreadsheet can add up, with the currency in its own column.
    expect(lines[0]).toContain('cobrado,tarifa,moneda');
    expect(lines[1]).toContain(',2.50,2.50,GTQ,');
  });

  test('crea un usuario de soporte y la auditoría muestra cada cambio', async ({}, testInfo) => {
    const { baseUrl } = settings();
    supportPassword = await createUserThroughForm(admin, supportEmail, 'Soporte de prueba');
    expect(supportPassword.length).toBeGreaterThanOrEqual(12);
    await expect(admin.getByTestId('users')).toContainText(supportEmail);
    await screenshot(admin, testInfo, '08-usuarios');

    await admin.goto(`${baseUrl}/admin/auditoria`);
    const audit = admin.getByTestId('audit');
    await expect(audit).toContainText('Creó el usuario');
    await expect(audit).toContainText('Recargó saldo');
    await expect(audit).toContainText('Cambió las consultas habilitadas');
    await expect(audit).toContainText('Creó la integración');
    await expect(audit).toContainText('Saldo: Q 0.00 → Q 100.00');
    await expect(audit).not.toContainText('balanceCentavos');
    await screenshot(admin, testInfo, '09-auditoria');
  });

  test('soporte consulta, pero el servidor rechaza cada cambio que envía', async ({ browser }, testInfo) => {
    const { baseUrl } = settings();
    supportContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    support = await supportContext.newPage();
    // The initial password opens only "Cambie su contraseña": the support user picks their own first.
    supportPassword = await signInFirstTime(support, supportEmail, supportPassword);
    await expect(support.getByTestId('current-role')).toHaveText('Soporte');
    await expect(support.getByRole('link', { name: 'Usuarios' })).toHaveCount(0);

    await support.goto(`${baseUrl}/admin/registros?integracion=${integrationId}`);
    await expect(support.getByTestId('records')).toContainText('Catálogo omisos');
    const csv = await support.request.get(`${baseUrl}/admin/registros/exportar?integracion=${integrationId}`);
    expect(csv.status()).toBe(200);

    await support.goto(`${baseUrl}/admin/usuarios`);
    await expect(support).toHaveURL(/\/admin\/sin-permiso/);
    await support.goto(`${baseUrl}/admin/auditoria`);
    await expect(support).toHaveURL(/\/admin\/sin-permiso/);

    await support.goto(`${baseUrl}/admin/integraciones/${integrationId}`);
    await expect(support.getByText('modo de solo lectura')).toBeVisible();
    await expect(support.getByTestId('switch-omisos')).toBeDisabled();
    await screenshot(support, testInfo, '10-integracion-vista-por-soporte');
    await support.goto(`${baseUrl}/admin/integraciones/${integrationId}/saldo`);
    await expect(support.getByText('modo de solo lectura')).toBeVisible();
    await expect(support.getByTestId('balance')).toHaveText('Q 97.50');
    await expect(support.getByRole('button', { name: 'Recargar' })).toHaveCount(0);

    // No buttons needed: the actions are called directly, as a crafted request would.
    await admin.goto(`${baseUrl}/admin/usuarios`);
    const supportRoleSelect = admin.getByTestId('users').locator('tr', { hasText: supportEmail }).locator('select[id^="role-"]');
    const supportUserId = Number((await supportRoleSelect.getAttribute('id'))!.replace('role-', ''));
    const attempts: Array<[string, Record<string, unknown>]> = [
      ['setTariffAction', { integrationId, tarifa: '0.00' }],
      ['topUpAction', { integrationId, monto: '1000.00', nota: 'Intento desde soporte' }],
      ['adjustBalanceAction', { integrationId, monto: '-97.50', nota: 'Intento desde soporte' }],
      ['setFlagAction', { integrationId, flag: 'isOmisosEnabled', enabled: 'false' }],
      ['rotateTokenAction', { integrationId }],
      ['setIntegrationActiveAction', { integrationId, active: 'false' }],
      ['createIntegrationAction', { nombre: 'creada-por-soporte', tarifa: '0' }],
      ['createUserAction', { email: 'intruso@example.com', name: 'Intruso', role: 'admin' }],
      ['setUserRoleAction', { userId: supportUserId, role: 'admin' }],
      ['resetUserPasswordAction', { userId: supportUserId }],
      ['setUserActiveAction', { userId: 1, active: 'false' }],
    ];
    for (const [action, input] of attempts) {
      expect(await callServerAction(support, action, input), action).toContain(FORBIDDEN);
    }

    // The same direct call works for an admin, so the refusals above are the role check's doing.
    await admin.goto(`${baseUrl}/admin/integraciones/${integrationId}/saldo`);
    expect(await callServerAction(admin, 'setTariffAction', { integrationId, tarifa: '3.00' })).toContain('Tarifa actualizada a Q 3.00');
    // And without a session nothing gets through either.
    const anonymous = await browser.newPage();
    await anonymous.goto(`${baseUrl}/admin/login`);
    expect(await callServerAction(anonymous, 'topUpAction', { integrationId, monto: '5.00', nota: 'Sin sesión' })).toContain(SIGNED_OUT);
    await anonymous.close();

    await admin.reload();
    await expect(admin.getByTestId('balance')).toHaveText('Q 97.50');
    await expect(admin.getByTestId('tariff')).toHaveText('Q 3.00');
    await admin.goto(`${baseUrl}/admin/integraciones/${integrationId}`);
    await expect(admin.getByTestId('switch-omisos')).toHaveAttribute('aria-checked', 'true');
    await admin.goto(`${baseUrl}/admin/usuarios`);
    await expect(admin.getByTestId('users').locator('tr', { hasText: supportEmail })).toContainText('Soporte');
    await expect(admin.getByTestId('users')).not.toContainText('intruso@example.com');
    await admin.goto(`${baseUrl}/admin/integraciones`);
    await expect(admin.getByText('creada-por-soporte')).toHaveCount(0);
  });

  test('desactivar al usuario de soporte termina su sesión abierta', async () => {
    const { baseUrl } = settings();
    await admin.goto(`${baseUrl}/admin/usuarios`);
    await admin.getByTestId('users').locator('tr', { hasText: supportEmail }).getByRole('button', { name: 'Desactivar' }).click();
    await admin.getByRole('dialog', { name: `¿Desactivar a ${supportEmail}?` }).getByRole('button', { name: 'Desactivar' }).click();
    await expect(admin.getByText(`${supportEmail} ya no puede entrar`)).toBeVisible();

    await support.goto(`${baseUrl}/admin/registros`);
    await expect(support).toHaveURL(/\/admin\/login\?motivo=sesion/);
  });

  test('la consola se puede usar en un teléfono', async ({}, testInfo) => {
    const { baseUrl } = settings();
    await admin.setViewportSize({ width: 390, height: 844 });
    await admin.goto(`${baseUrl}/admin`);
    await expect(admin.getByRole('heading', { name: 'Panel', level: 1 })).toBeVisible();
    await screenshot(admin, testInfo, '11-panel-en-telefono');
    await admin.goto(`${baseUrl}/admin/integraciones/${integrationId}`);
    await expect(admin.getByTestId('balance')).toBeVisible();
    await screenshot(admin, testInfo, '12-integracion-en-telefono');
    // Nothing may push any of its sections wider than the screen (tables scroll inside their own box).
    for (const section of ['', '/credenciales', '/saldo', '/notificaciones', '/datos', '/uso']) {
      await admin.goto(`${baseUrl}/admin/integraciones/${integrationId}${section}`);
      await expect(admin.getByRole('heading', { name: integrationName, level: 1 })).toBeVisible();
      const overflow = await admin.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, section || 'resumen').toBeLessThanOrEqual(0);
    }
  });

  test('cerrar sesión termina la sesión en el servidor: una cookie copiada deja de servir', async ({ browser }) => {
    const { baseUrl } = settings();
    await admin.setViewportSize({ width: 1280, height: 800 });
    await admin.goto(`${baseUrl}/admin`);
    const copied = (await adminContext.cookies()).filter((cookie) => cookie.name.endsWith('next-auth.session-token'));
    expect(copied).toHaveLength(1);
    await admin.getByRole('button', { name: 'Cerrar sesión' }).click();
    await expect(admin).toHaveURL(/\/admin\/login/);

    const thief = await browser.newContext();
    await thief.addCookies(copied);
    const page = await thief.newPage();
    await page.goto(`${baseUrl}/admin`);
    await expect(page).toHaveURL(/\/admin\/login\?motivo=sesion/);
    await thief.close();
  });
});
