// Issue 24, defect 14: the integration list in pages of 50, searchable and sortable by name,
// balance and latest query, on a desktop and on a phone (where the header row is hidden and a menu
// orders the list).
import { expect, test } from '@playwright/test';
import { callServerAction, openConsoleAsAdmin, screenshot, settings } from './support/console';

const stamp = Date.now().toString(36);
const prefix = `lista-${stamp}`;
const COUNT = 51;
const nameOf = (index: number) => `${prefix}-${String(index).padStart(2, '0')}`;

test('la lista de integraciones se pagina, busca y ordena', async ({ page }, testInfo) => {
  const { baseUrl } = settings();
  await page.setViewportSize({ width: 1366, height: 900 });
  await openConsoleAsAdmin(page);
  await page.goto(`${baseUrl}/admin/integraciones`);
  // Balances in a scrambled order: number 17 has the largest.
  for (let index = 0; index < COUNT; index++) {
    const balance = ((index * 23) % COUNT) + 1;
    const answer = await callServerAction(page, 'createIntegrationAction', { nombre: nameOf(index), tarifa: '0.00', saldoInicial: `${balance}.00` });
    expect(answer, nameOf(index)).toContain(nameOf(index));
  }
  const largest = nameOf(Array.from({ length: COUNT }, (_, index) => index).find((index) => ((index * 23) % COUNT) + 1 === COUNT)!);

  await page.goto(`${baseUrl}/admin/integraciones`);
  await page.getByLabel('Buscar por nombre').fill(prefix);
  await page.getByRole('button', { name: 'Buscar' }).click();
  await expect(page.getByText(`1–50 de 51 integraciones que coinciden con «${prefix}»`)).toBeVisible();
  const rows = page.getByTestId('integrations').locator('tbody tr');
  await expect(rows).toHaveCount(50);
  await expect(rows.first()).toContainText(nameOf(0));
  await page.getByRole('link', { name: 'Siguiente →' }).click();
  await expect(page.getByText('Página 2 de 2')).toBeVisible();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(nameOf(50));

  // The balance header orders by balance, the largest first; a second click turns it around.
  await page.getByRole('link', { name: /^Saldo/ }).click();
  await expect(page.getByRole('columnheader', { name: /^Saldo/ })).toHaveAttribute('aria-sort', 'descending');
  await expect(page.getByText('Página 1 de 2')).toBeVisible();
  await expect(rows.first()).toContainText(largest);
  await expect(rows.first().getByTestId('integration-balance')).toHaveText(`Q ${COUNT}.00`);
  await page.getByRole('link', { name: /^Saldo/ }).click();
  await expect(page.getByRole('columnheader', { name: /^Saldo/ })).toHaveAttribute('aria-sort', 'ascending');
  await expect(rows.first().getByTestId('integration-balance')).toHaveText('Q 1.00');
  await expect(page).toHaveURL(new RegExp(`orden=saldo-asc`));
  await expect(page.getByLabel('Ordenar por')).toHaveValue('saldo-asc');
  await screenshot(page, testInfo, 'integraciones-ordenadas-escritorio');

  // On a phone the header row is hidden: the menu orders the list, and the search is kept.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByLabel('Ordenar por').selectOption({ label: 'Nombre (Z–A)' });
  await page.getByRole('button', { name: 'Buscar' }).click();
  await expect(rows.first()).toContainText(nameOf(50));
  await expect(page.getByLabel('Buscar por nombre')).toHaveValue(prefix);
  await screenshot(page, testInfo, 'integraciones-ordenadas-telefono');
});
