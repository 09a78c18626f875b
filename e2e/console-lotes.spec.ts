// The console's Lotes (issue 35, point 6), in chromium at 1366 and 390 px with axe: an
// administrator finds an integration's job from the navigation and the integration filter, opens
// it with its identifiers masked, reveals one row's NIT with a reason, and pauses and resumes the
// job, each confirmed first, while the integrator's API reads the pause as `en_pausa`.
import { expect, test, type Page } from '@playwright/test';
import { samplePopulation } from '../simulator/population';
import { maskNit } from '../lib/core/sealing/masking';
import { openConsoleAsAdmin, screenshot, seriousAccessibilityViolations, settings } from './support/console';
import { createIntegrationThroughConsole, DESKTOP, PHONE } from './support/portal';

async function checkBothSizes(page: Page, testInfo: Parameters<typeof screenshot>[1], name: string): Promise<void> {
  for (const [size, viewport] of [
    ['1366', DESKTOP],
    ['390', PHONE],
  ] as const) {
    await page.setViewportSize(viewport);
    expect(await seriousAccessibilityViolations(page), `${name} ${size}`).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), `${name} ${size}`).toBeLessThanOrEqual(0);
    await screenshot(page, testInfo, `${name}-${size}`);
  }
  await page.setViewportSize(DESKTOP);
}

test('un administrador encuentra un lote, muestra el NIT de una fila con un motivo, lo pausa y lo reanuda', async ({ browser, request }, testInfo) => {
  test.setTimeout(300_000);
  const { baseUrl } = settings();
  const nombre = `lotes-${Date.now().toString(36)}`;
  const nit = samplePopulation({ seed: Number(process.env.E2E_SIMULATOR_SEED) }).omiso.nit;

  const context = await browser.newContext({ viewport: DESKTOP, extraHTTPHeaders: { 'x-forwarded-for': '10.63.0.1' } });
  const admin = await context.newPage();
  await openConsoleAsAdmin(admin);
  // No balance: the job waits for one, so nothing runs while the administrator looks at it.
  const { token } = await createIntegrationThroughConsole(admin, { nombre, tariff: '1.50', balance: '', omisos: true });
  const integrator = { 'x-integracion-login': nombre, 'x-integracion-token': token, 'x-forwarded-for': '10.63.0.9' };
  const submitted = await request.post(`${baseUrl}/api/lotes`, {
    headers: { ...integrator, 'idempotency-key': `proveedores-${nombre}` },
    data: { catalogo: 'omisos', identificadores: [nit, '12345678'] },
  });
  expect(submitted.status(), await submitted.text()).toBe(202);
  const jobId = ((await submitted.json()) as { id: string }).id;

  await admin.getByRole('navigation', { name: 'Secciones de la consola' }).getByRole('link', { name: 'Lotes' }).click();
  await expect(admin.getByRole('heading', { name: 'Lotes', level: 1 })).toBeVisible();
  const filters = admin.getByRole('search', { name: 'Filtros' });
  await filters.getByLabel('Integración').fill(nombre);
  await filters.getByRole('button', { name: 'Filtrar' }).click();
  const row = admin.getByTestId('job-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(nombre);
  await expect(row).toContainText('Catálogo omisos');
  await checkBothSizes(admin, testInfo, 'lotes');

  await row.getByRole('link', { name: jobId }).click();
  await expect(admin.getByRole('heading', { name: `Lote ${jobId}`, level: 1 })).toBeVisible();
  const first = admin.getByTestId('job-item').first();
  await expect(first.getByTestId('job-item-identifier')).toHaveText(maskNit(nit));
  expect(await admin.content()).not.toContain(nit);
  await checkBothSizes(admin, testInfo, 'lote');

  // "Mostrar" asks why, then shows the row's NIT once the access is logged.
  await first.getByRole('button', { name: 'Mostrar', exact: true }).click();
  await first.getByLabel('Motivo (obligatorio)').fill('Ticket 512, el proveedor reclama su estado');
  await first.getByRole('button', { name: 'Mostrar identificadores' }).click();
  await expect(first.getByTestId('revealed-nit')).toHaveText(nit);
  await expect(first).toContainText('El acceso quedó registrado con su motivo');

  // The reason is the integrator's to read: the API's motivo_estado says it.
  const reason = 'Revisión del consumo del mes; lo reanudamos hoy.';
  await admin.getByLabel('Motivo (lo verá el integrador)').fill(reason);
  await admin.getByRole('button', { name: 'Pausar' }).click();
  await admin.getByRole('dialog', { name: `¿Pausar el lote de «${nombre}»?` }).getByRole('button', { name: 'Pausar' }).click();
  await expect(admin.getByTestId('job-notice')).toContainText('Lote pausado');
  await expect(admin.getByTestId('job-state')).toHaveText('Pausado por la administración');
  await expect(admin.getByTestId('job-pause-reason')).toContainText(reason);
  const read = await request.get(`${baseUrl}/api/lotes/${jobId}`, { headers: integrator });
  expect((await read.json()) as { estado: string; motivo_estado: string }).toMatchObject({ estado: 'en_pausa', motivo_estado: expect.stringContaining(`Motivo: ${reason}`) });
  await checkBothSizes(admin, testInfo, 'lote-pausado');

  await admin.getByRole('button', { name: 'Reanudar' }).click();
  await admin.getByRole('dialog', { name: `¿Reanudar el lote de «${nombre}»?` }).getByRole('button', { name: 'Reanudar' }).click();
  await expect(admin.getByTestId('job-notice')).toContainText('Lote reanudado');
  await expect(admin.getByTestId('job-state')).not.toHaveText('Pausado por la administración');
  await expect(admin.getByRole('button', { name: 'Pausar' })).toBeVisible();

  // The reveal is in the access log with its reason, naming the job and the row.
  await admin.goto(`${baseUrl}/admin/datos-personales`);
  await expect(admin.getByText(`Fila 1 del lote ${jobId}`)).toBeVisible();
  await context.close();
});
