// Issue 25, point 3: the public status page /estado, signed out, at a desktop size and at a phone's
// 390 px: the three sources with their state in words, the 90 daily and 24 hourly cells with
// their availability in text (not colour alone), the incidents, and a source's failure reflected
// in the current hour; nothing scrolls sideways and axe-core finds nothing serious.
import { expect, test } from '@playwright/test';
import { FAULT_IDENTIFIERS } from '../simulator/faults';
import { demoToken, screenshot, seriousAccessibilityViolations, settings } from './support/console';

const VIEWPORTS = [
  { name: 'escritorio', size: { width: 1366, height: 900 } },
  { name: 'telefono', size: { width: 390, height: 844 } },
] as const;

test.beforeAll(async ({ request }) => {
  // One person-registry query the registry fails (the simulator's reserved identifier): a source
  // call that failed for the source's reasons, unbilled.
  const answer = await request.post(`${settings().baseUrl}/api/renap/buscar-cui`, {
    headers: { 'x-integracion-login': 'demo', 'x-integracion-token': demoToken() },
    data: { cui: FAULT_IDENTIFIERS.server_error.cui },
  });
  expect(answer.status()).toBe(500);
});

for (const viewport of VIEWPORTS) {
  test(`/estado a ${viewport.size.width} px: estado de cada fuente, barras con texto, incidentes, sin desplazamiento lateral`, async ({ page }, testInfo) => {
    const { baseUrl } = settings();
    await page.setViewportSize(viewport.size);
    const renap = page.locator('section[data-source="renap"]');
    const currentHour = renap.getByRole('list', { name: /Disponibilidad por hora/ }).getByRole('listitem').last();
    // The failed query reaches the page once the rollup job and the page's short cache have it.
    await expect(async () => {
      await page.goto(`${baseUrl}/estado`);
      await expect(currentHour).toHaveText(/: \d{1,2}(\.\d+)? %$/, { timeout: 1_000 });
    }).toPass({ timeout: 30_000 });

    await expect(page.getByRole('heading', { name: 'Estado de las fuentes', level: 1 })).toBeVisible();
    for (const [source, name] of [
      ['renap', 'Registro de personas (RENAP)'],
      ['rtu', 'Registro tributario (RTU por NIT)'],
      ['catalog', 'Fuente de catálogos (CUI/NIT, RTU, omisos)'],
    ] as const) {
      const section = page.locator(`section[data-source="${source}"]`);
      await expect(section.getByRole('heading', { name, level: 2 })).toBeVisible();
      // The state in words (the breaker is off in this development deployment: no incident).
      await expect(section.locator('.badge')).toHaveText(/^(Operando|Degradado|Sin servicio)$/);
      await expect(section.getByRole('list', { name: /Disponibilidad por día/ }).getByRole('listitem')).toHaveCount(90);
      await expect(section.getByRole('list', { name: /Disponibilidad por hora/ }).getByRole('listitem')).toHaveCount(24);
    }
    await expect(page.getByRole('heading', { name: 'Incidentes recientes' })).toBeVisible();
    await expect(page.getByRole('link', { name: '/api/estado' })).toHaveAttribute('href', '/api/estado');

    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, testInfo, `pagina-estado-${viewport.name}`);
  });
}

test('/docs enlaza la página de estado', async ({ page }) => {
  await page.goto(`${settings().baseUrl}/docs`);
  await page.getByRole('navigation', { name: 'Secciones de la documentación' }).getByRole('link', { name: 'Estado de las fuentes' }).click();
  await expect(page).toHaveURL(/\/estado$/);
  await expect(page.getByRole('heading', { name: 'Estado de las fuentes', level: 1 })).toBeVisible();
});
