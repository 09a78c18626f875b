// An integration's tokens in the console (issue 22, point 1): a second named token shown once,
// rotated with a one-hour overlap (both listed, with when the old one stops working, and both
// answering), then revoked (refused at once). The demo's own token is left alone.
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { samplePopulation } from '../simulator/population';
import { openConsoleAsAdmin, screenshot, settings } from './support/console';

test.describe.serial('tokens de una integración', () => {
  let context: BrowserContext;
  let admin: Page;
  let integrationUrl = '';
  let firstToken = '';
  let rotatedToken = '';
  const label = `Servidor ${Date.now().toString(36)}`;

  test.beforeAll(async ({ browser }) => {
    const { baseUrl } = settings();
    context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    admin = await context.newPage();
    await openConsoleAsAdmin(admin);
    await admin.goto(`${baseUrl}/admin/integraciones`);
    const href = await admin.getByRole('link', { name: 'demo', exact: true }).getAttribute('href');
    // Tokens and the allow-list are the integration's "Credenciales".
    integrationUrl = `${baseUrl}${href}/credenciales`;
    await admin.goto(integrationUrl);
  });

  test.afterAll(async () => {
    await context?.close();
  });

  async function omisosStatus(token: string): Promise<number> {
    const { baseUrl } = settings();
    const nit = samplePopulation({ seed: Number(process.env.E2E_SIMULATOR_SEED) }).omiso.nit;
    const answer = await admin.request.post(`${baseUrl}/api/catalogos/omisos`, {
      headers: { 'x-integracion-login': 'demo', 'x-integracion-token': token },
      data: { nit },
    });
    return answer.status();
  }

  function tokenRow(prefix: string) {
    // By the token column: the replacement's row names the old prefix too ("Reemplaza a …").
    return admin.getByTestId('tokens').locator('tr').filter({ has: admin.locator('td.mono', { hasText: `${prefix}…` }) });
  }

  test('crea un token con nombre, que se muestra una sola vez y funciona', async ({}, testInfo) => {
    await admin.getByTestId('token-label').fill(label);
    await admin.getByRole('button', { name: 'Crear token' }).click();
    const shown = admin.getByTestId('created-token');
    await expect(shown).toHaveText(/^tlk_/);
    firstToken = (await shown.textContent())!.trim();
    await screenshot(admin, testInfo, 'tokens-01-creado');
    expect(await omisosStatus(firstToken)).toBe(200);

    await admin.reload();
    await expect(admin.getByText(firstToken)).toHaveCount(0);
    await expect(tokenRow(firstToken.slice(0, 10))).toContainText(label);
    await expect(tokenRow(firstToken.slice(0, 10))).toContainText('Activo');
  });

  test('rota ese token con una hora de superposición: se ven los dos y cuándo deja de funcionar el anterior', async ({}, testInfo) => {
    const rotateChoice = admin.getByTestId('rotate-token-choice');
    await rotateChoice.selectOption({ label: (await rotateChoice.locator('option', { hasText: `${firstToken.slice(0, 10)}…` }).textContent())! });
    await admin.getByTestId('rotate-overlap').selectOption('1h');
    await admin.getByRole('button', { name: 'Rotar token' }).click();
    const dialog = admin.getByRole('dialog');
    // The question names the token and the overlap chosen (issue 32, point 11).
    await expect(dialog).toContainText(`¿Rotar el token «${label}» (${firstToken.slice(0, 10)}…, creado el `);
    await expect(dialog).toContainText('sigue funcionando durante 1 hora y después deja de funcionar');
    await dialog.getByRole('button', { name: 'Rotar token' }).click();
    const shown = admin.getByTestId('rotated-token');
    await expect(shown).toHaveText(/^tlk_/);
    rotatedToken = (await shown.textContent())!.trim();
    // The page refreshes with the rotation; the new token stays on screen until it is copied.
    await expect(tokenRow(firstToken.slice(0, 10))).toContainText('Reemplazado (en superposición)');
    await expect(shown).toHaveText(rotatedToken);

    await admin.reload();
    const oldRow = tokenRow(firstToken.slice(0, 10));
    const newRow = tokenRow(rotatedToken.slice(0, 10));
    await expect(oldRow).toContainText('Reemplazado (en superposición)');
    await expect(oldRow).not.toContainText('Sin vencimiento');
    await expect(newRow).toContainText(label);
    await expect(newRow).toContainText(`Token nuevo. Reemplaza a ${firstToken.slice(0, 10)}… (creado el `);
    await expect(newRow).toContainText('que sigue funcionando hasta el');
    await expect(oldRow).toContainText(`Token anterior: funciona hasta el`);
    await expect(oldRow).toContainText(`Lo reemplaza ${rotatedToken.slice(0, 10)}…, el nuevo, creado el`);
    await screenshot(admin, testInfo, 'tokens-02-rotado-con-superposicion');
    expect(await omisosStatus(firstToken)).toBe(200);
    expect(await omisosStatus(rotatedToken)).toBe(200);
  });

  test('revoca el token anterior: deja de funcionar de inmediato, el nuevo sigue', async () => {
    const revokeChoice = admin.getByTestId('revoke-token-choice');
    const oldOption = (await revokeChoice.locator('option', { hasText: `${firstToken.slice(0, 10)}…` }).textContent())!;
    expect(oldOption).toContain(' · anterior, creado el ');
    expect(await revokeChoice.locator('option', { hasText: `${rotatedToken.slice(0, 10)}…` }).textContent()).toContain(' · nuevo, creado el ');
    await revokeChoice.selectOption({ label: oldOption });
    await admin.getByRole('button', { name: 'Revocar token' }).click();
    await expect(admin.getByRole('dialog')).toContainText(`¿Revocar el token «${label}» (${firstToken.slice(0, 10)}…, anterior, creado el `);
    await admin.getByRole('dialog').getByRole('button', { name: 'Revocar token' }).click();
    await expect(admin.getByText('ya no funciona en ninguna instancia')).toBeVisible();
    expect(await omisosStatus(firstToken)).toBe(401);
    expect(await omisosStatus(rotatedToken)).toBe(200);
    await admin.reload();
    await expect(tokenRow(firstToken.slice(0, 10))).toContainText('Revocado');
  });

  test('una lista de direcciones IP: valida lo escrito, rechaza las demás direcciones como credenciales incorrectas y muestra la dirección rechazada', async ({}, testInfo) => {
    const input = admin.getByTestId('allowed-networks-input');
    const save = admin.getByRole('button', { name: 'Guardar direcciones' });
    await input.fill('203.0.113.0/24, 198.51.100.7/24');
    await save.click();
    await expect(admin.getByText('«198.51.100.7/24» tiene bits fuera del prefijo /24: el rango es 198.51.100.0/24.')).toBeVisible();

    // This browser's requests come from 127.0.0.1: outside the list.
    await input.fill('203.0.113.0/24, 2001:db8::/32');
    await save.click();
    await expect(admin.getByText('solo se aceptan solicitudes desde esas 2 entradas')).toBeVisible();
    expect(await omisosStatus(rotatedToken)).toBe(401);
    await expect(async () => {
      await admin.reload();
      await expect(admin.getByTestId('refused-addresses').locator('tr', { hasText: '127.0.0.1' })).toBeVisible({ timeout: 500 });
    }).toPass({ timeout: 90_000 });
    await expect(admin.getByTestId('allowed-networks')).toHaveText('203.0.113.0/24, 2001:db8::/32');
    await screenshot(admin, testInfo, 'tokens-03-direcciones-permitidas');

    // Empty again: from anywhere (the other specs use the demo integration from here).
    await admin.getByTestId('allowed-networks-input').fill('');
    await admin.getByRole('button', { name: 'Guardar direcciones' }).click();
    await expect(admin.getByText('se aceptan solicitudes desde cualquier dirección')).toBeVisible();
    expect(await omisosStatus(rotatedToken)).toBe(200);
  });
});
