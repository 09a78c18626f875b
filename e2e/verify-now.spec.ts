// Issue 24, "Verificar ahora": the ledger reconciliation started from the Panel, its progress
// while it runs (the page refreshes itself) and then its result, over everything and for one
// integration picked from the field's suggestions, on a desktop and on a phone. On PostgreSQL a
// table lock holds the run at its fifth step (the hourly checkpoints) so the progress can be seen; on PGlite the run is
// over in milliseconds and only its result is checked.
import { expect, test } from '@playwright/test';
import postgres from 'postgres';
import { openConsoleAsAdmin, screenshot, settings } from './support/console';
import { E2E_DATABASE_KIND } from './support/paths';

/** Holds the reconciliation's hourly-checkpoints check (on PostgreSQL) until the returned function is called. */
async function holdLastCheck(): Promise<() => Promise<void>> {
  const url = process.env.E2E_DATABASE_URL;
  if (!url) return async () => {};
  const client = postgres(url, { max: 1, onnotice: () => {} });
  const reserved = await client.reserve();
  await reserved`begin`;
  await reserved`lock table ledger_hourly_balances in access exclusive mode`;
  return async () => {
    await reserved`commit`;
    reserved.release();
    await client.end({ timeout: 5 });
  };
}

for (const [width, height] of [
  [1366, 900],
  [390, 844],
] as const) {
  test(`Verificar ahora muestra el avance y luego el resultado (${width} px)`, async ({ page }, testInfo) => {
    const { baseUrl } = settings();
    await page.setViewportSize({ width, height });
    await openConsoleAsAdmin(page);
    await page.goto(`${baseUrl}/admin`);
    const section = page.locator('section', { has: page.getByRole('heading', { name: 'Conciliación del libro mayor' }) });
    const run = page.getByTestId('verification-run');

    // Over everything.
    const release = await holdLastCheck();
    try {
      await section.getByRole('button', { name: 'Verificar ahora' }).click();
      await expect(section.getByText('Conciliación iniciada: su avance se muestra arriba.')).toBeVisible();
      if (E2E_DATABASE_KIND === 'postgresql') {
        await expect(run).toHaveAttribute('data-state', 'running');
        await expect(run).toContainText(/Verificando… paso 5 de 6 \(saldos de control por hora\), \d+ s/);
        await screenshot(page, testInfo, `verificar-ahora-en-curso-${width}`);
        // A second press while it runs shows the running one.
        await section.getByRole('button', { name: 'Verificar ahora' }).click();
        await expect(section.getByText(/Ya hay una conciliación en curso/)).toBeVisible();
      }
    } finally {
      await release();
    }
    // The page refreshes itself: no reload here.
    await expect(run).toHaveAttribute('data-state', 'ok', { timeout: 30_000 });
    await expect(run).toContainText('Conciliación de todas las integraciones');
    await expect(run).toContainText('saldos, libro mayor y registros coinciden');
    await screenshot(page, testInfo, `verificar-ahora-resultado-${width}`);

    // One integration, picked from the suggestions the field offers as one types.
    const field = section.getByLabel('Integración');
    await field.fill('dem');
    const suggestion = section.locator('datalist option').first();
    await expect(suggestion).toHaveAttribute('value', /^demo \(n\.º \d+\)$/);
    await field.fill((await suggestion.getAttribute('value'))!);
    await section.getByRole('button', { name: 'Verificar ahora' }).click();
    await expect(run).toContainText('Conciliación de la integración demo', { timeout: 30_000 });
    await expect(run).toHaveAttribute('data-state', 'ok');
    // To its money: balance, movements and statements.
    await expect(run.getByRole('link', { name: 'la integración demo' })).toHaveAttribute('href', /\/admin\/integraciones\/\d+\/saldo$/);
    await expect(section.getByText('Última conciliación completa')).toBeVisible();
    await screenshot(page, testInfo, `verificar-ahora-una-integracion-${width}`);
  });
}
