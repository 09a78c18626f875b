// A bulk job's pages follow it by themselves, in chromium: the integrator's page in the portal and
// the administrator's in the console show a job waiting for balance, and once a top-up lets it run
// to its end both show the final figures without anyone reloading them; then they stop asking. A
// hidden tab asks for nothing until it is shown again. The refreshes break no Content-Security-Policy.
import { expect, test, type Page } from '@playwright/test';
import { samplePopulation } from '../simulator';
import { cspViolations, openConsoleAsAdmin, settings } from './support/console';
import { acceptPrintedInvitation, createIntegrationThroughConsole, DESKTOP, inviteThroughConsole } from './support/portal';

const PASSWORD = 'lotes que se siguen sin recargar la página';

/** The page's in-place refreshes (router.refresh asks for the page's RSC payload), counted as they go. */
function refreshesOf(page: Page, path: string): { count: number } {
  const seen = { count: 0 };
  page.on('request', (request) => {
    if (request.headers()['rsc'] === '1' && new URL(request.url()).pathname === path) seen.count += 1;
  });
  return seen;
}

/** A mark that a reload would wipe: still there, the page changed in place. */
async function markNotReloaded(page: Page): Promise<void> {
  await page.evaluate(() => Object.assign(window, { sinRecargar: true }));
}
async function expectNotReloaded(page: Page): Promise<void> {
  expect(await page.evaluate(() => (window as unknown as { sinRecargar?: boolean }).sinRecargar)).toBe(true);
}

/** Makes the tab hidden or shown again, as switching tabs does. */
async function setTabHidden(page: Page, hidden: boolean): Promise<void> {
  await page.evaluate((hide) => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (hide ? 'hidden' : 'visible') });
    document.dispatchEvent(new Event('visibilitychange'));
  }, hidden);
}

test('las páginas de un lote en curso se actualizan solas hasta que termina, y después dejan de pedir', async ({ browser, request }) => {
  test.setTimeout(240_000);
  const { baseUrl } = settings();
  const stamp = Date.now().toString(36);
  const nombre = `lotes-vivo-${stamp}`;
  const developerEmail = `dev-vivo-${stamp}@example.com`;
  const sample = samplePopulation({ seed: Number(process.env.E2E_SIMULATOR_SEED) });

  const adminContext = await browser.newContext({ viewport: DESKTOP, extraHTTPHeaders: { 'x-forwarded-for': '10.64.0.1' } });
  const admin = await adminContext.newPage();
  await openConsoleAsAdmin(admin);
  // No balance: the job waits for a top-up, which lets it run while both pages stay open.
  const { token, id } = await createIntegrationThroughConsole(admin, { nombre, tariff: '1.50', balance: '', omisos: true });
  await inviteThroughConsole(admin, id, developerEmail, 'Desarrollador');
  const integrator = { 'x-integracion-login': nombre, 'x-integracion-token': token, 'x-forwarded-for': '10.64.0.9' };
  const submitted = await request.post(`${baseUrl}/api/lotes`, {
    headers: { ...integrator, 'idempotency-key': `vivo-${nombre}` },
    data: { catalogo: 'omisos', identificadores: [sample.omiso.nit, sample.individual.nit, sample.unknownNit] },
  });
  expect(submitted.status(), await submitted.text()).toBe(202);
  const jobId = ((await submitted.json()) as { id: string }).id;

  const context = await browser.newContext({ viewport: DESKTOP, extraHTTPHeaders: { 'x-forwarded-for': '10.64.0.2' } });
  const developer = await context.newPage();
  const developerCsp = cspViolations(developer);
  await acceptPrintedInvitation(developer, { email: developerEmail, name: 'Desarrollo en vivo', password: PASSWORD }, nombre);
  const portalPath = `/portal/lotes/${jobId}`;
  const portalRefreshes = refreshesOf(developer, portalPath);
  await developer.goto(`${baseUrl}${portalPath}`);
  await markNotReloaded(developer);
  // It reaches its pause by itself too: the runner found no balance for its first row.
  await expect(developer.getByTestId('bulk-job-state')).toHaveText('En pausa: sin saldo', { timeout: 30_000 });
  await expect(developer.getByTestId('bulk-job-progress')).toHaveText('0 de 3');

  // A hidden tab asks for nothing; shown again, it asks at once and goes on.
  await setTabHidden(developer, true);
  await developer.waitForTimeout(500);
  portalRefreshes.count = 0;
  await developer.waitForTimeout(7_000);
  expect(portalRefreshes.count, 'refreshes while hidden').toBe(0);
  await setTabHidden(developer, false);
  await expect.poll(() => portalRefreshes.count, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);

  const consolePath = `/admin/lotes/${jobId}`;
  const consolePage = await adminContext.newPage();
  const consoleCsp = cspViolations(consolePage);
  const consoleRefreshes = refreshesOf(consolePage, consolePath);
  await consolePage.goto(`${baseUrl}${consolePath}`);
  await expect(consolePage.getByTestId('job-state')).toHaveText('En pausa: sin saldo');
  await expect(consolePage.getByTestId('job-progress')).toHaveText('0/3');
  await markNotReloaded(consolePage);

  // The administrator credits a top-up on another page: the job runs to its end.
  await admin.goto(`${baseUrl}/admin/integraciones/${id}/saldo`);
  await admin.getByTestId('topup-amount').fill('50.00');
  await admin.getByTestId('topup-note').fill('Depósito para el lote');
  await admin.getByRole('region', { name: 'Recargar saldo' }).getByRole('button', { name: 'Recargar' }).click();
  await admin.getByRole('dialog', { name: `¿Recargar Q 50.00 a «${nombre}»?` }).getByRole('button', { name: 'Recargar Q 50.00' }).click();

  // Both pages show the end as it is, without a reload.
  await expect(developer.getByTestId('bulk-job-state')).toHaveText('Completado', { timeout: 60_000 });
  await expect(developer.getByTestId('bulk-job-progress')).toHaveText('3 de 3');
  await expect(developer.getByTestId('bulk-job-found')).toHaveText('2');
  await expect(developer.getByTestId('bulk-job-not-found')).toHaveText('1');
  await expect(developer.getByTestId('bulk-job-charged')).toHaveText('Q 3.00');
  await expect(developer.getByTestId('bulk-job-end')).not.toHaveText('—');
  await expect(developer.getByRole('button', { name: 'Cancelar lote' })).toHaveCount(0);
  await expectNotReloaded(developer);
  await expect(consolePage.getByTestId('job-state')).toHaveText('Completado', { timeout: 10_000 });
  await expect(consolePage.getByTestId('job-progress')).toHaveText('3/3');
  await expect(consolePage.getByTestId('job-charged')).toHaveText('Q 3.00');
  await expect(consolePage.getByTestId('job-estimated-end')).toContainText('Terminó el');
  await expectNotReloaded(consolePage);

  // Ended, they stop asking.
  portalRefreshes.count = 0;
  consoleRefreshes.count = 0;
  await developer.waitForTimeout(7_000);
  expect(portalRefreshes.count, 'portal refreshes after the end').toBe(0);
  expect(consoleRefreshes.count, 'console refreshes after the end').toBe(0);
  expect(developerCsp).toEqual([]);
  expect(consoleCsp).toEqual([]);
  await context.close();
  await adminContext.close();
});
