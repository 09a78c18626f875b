// Billing as an administrator reads it: the balance history with the balance after each
// movement, filtered and exported, and a monthly statement issued and downloaded as PDF (kept in
// e2e-artifacts/<database>/statements).
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { previousMonth } from '../lib/statements/monthly';
import { screenshot, settings, signInThroughForm } from './support/console';
import { ARTIFACTS_DIR } from './support/paths';

test('el historial de saldo y el estado de cuenta mensual de la integración de demostración', async ({ page }, testInfo) => {
  const { baseUrl, adminEmail, adminPassword } = settings();
  await signInThroughForm(page, adminEmail, adminPassword);
  await page.goto(`${baseUrl}/admin/integraciones`);
  await page.getByRole('link', { name: 'demo', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'demo', level: 1 })).toBeVisible();
  const integrationUrl = page.url();

  // The seed's opening top-up, with the balance after it.
  const history = page.getByTestId('balance-history');
  await expect(history.locator('tbody tr').last()).toContainText('Recarga');
  await expect(history.locator('tbody tr').last()).toContainText('Q 500.00');

  await page.getByRole('link', { name: /Ver todo el historial de saldo/ }).click();
  await expect(page.getByRole('heading', { name: 'Historial de saldo de demo', level: 1 })).toBeVisible();
  await page.getByLabel('Movimiento').selectOption('top_up');
  await page.getByRole('button', { name: 'Filtrar' }).click();
  await expect(page).toHaveURL(/tipo=top_up/);
  await expect(page.getByTestId('balance-after').first()).toHaveText(/^Q /);
  await screenshot(page, testInfo, 'historial-de-saldo');
  const csv = await page.request.get(`${page.url().replace('/movimientos?', '/movimientos/exportar?')}`);
  expect(csv.headers()['content-type']).toContain('text/csv');
  expect((await csv.text()).replace(/^\uFEFF/, '').split('\r\n')[0]).toBe('id,fecha_utc,fecha_guatemala,movimiento,monto,saldo,moneda,nota,quien,consulta,auditoria');

  // Last month's statement: issued from the integration page, downloaded as a PDF.
  await page.goto(integrationUrl);
  const month = previousMonth();
  await page.getByLabel('Mes').selectOption(month);
  await page.getByRole('button', { name: 'Emitir estado de cuenta' }).click();
  const statements = page.getByTestId('statements');
  await expect(statements).toContainText(/de \d{4}/);
  await screenshot(page, testInfo, 'estados-de-cuenta');
  const integrationId = /\/admin\/integraciones\/(\d+)/.exec(integrationUrl)![1];
  const pdf = await page.request.get(`${baseUrl}/admin/integraciones/${integrationId}/estados/${month}/pdf`);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()['content-type']).toBe('application/pdf');
  const body = await pdf.body();
  expect(body.subarray(0, 5).toString()).toBe('%PDF-');
  const file = path.join(ARTIFACTS_DIR, 'statements', `estado-de-cuenta-demo-${month}.pdf`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, body);
  await testInfo.attach('estado-de-cuenta', { path: file, contentType: 'application/pdf' });
});
