// Support finds a taxpayer's queries with the records page's one "NIT o CUI" box, whatever way
// the NIT or the CUI is written, /rtu/nits batches that contain the NIT included.
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { demoToken, settings, signInThroughForm } from './support/console';

// The simulator's showcase taxpayer, present in every population (simulator/population.ts).
const NIT = '576937-K';
const CUI = '1587564440904';

async function lookup(request: APIRequestContext, path: string, body: unknown): Promise<void> {
  const response = await request.post(`${settings().baseUrl}/api${path}`, {
    // A client address of its own, so these queries do not spend the global per-IP limit of others.
    headers: { 'x-integracion-login': 'demo', 'x-integracion-token': demoToken(), 'x-forwarded-for': '198.51.100.13' },
    data: body,
  });
  expect(response.status(), `${path}: ${await response.text()}`).toBe(200);
}

async function search(page: Page, typed: string) {
  await page.goto(`${settings().baseUrl}/admin/registros`);
  await page.getByLabel('NIT o CUI').fill(typed);
  await page.getByRole('button', { name: 'Filtrar' }).click();
  await expect(page).toHaveURL(new RegExp(`identificador=${encodeURIComponent(typed).replaceAll('%20', '(\\+|%20)')}`));
  await expect(page.getByLabel('NIT o CUI')).toHaveValue(typed);
  return page.getByTestId('records').locator('tbody tr');
}

test('el buscador «NIT o CUI» encuentra las consultas de un NIT, lotes de RTU incluidos, y de un CUI escrito con espacios', async ({ page, request }) => {
  const { adminEmail, adminPassword } = settings();
  await lookup(request, '/catalogos/cui-nit', { nit: NIT });
  await lookup(request, '/rtu/nits', { nits: ['7108-0', '576937k'] });
  await lookup(request, '/catalogos/omisos', { cui: CUI });
  await signInThroughForm(page, adminEmail, adminPassword);

  const byNit = await search(page, '576937-k');
  await expect(byNit.filter({ hasText: 'Catálogo CUI/NIT' }).first().getByTestId('record-identifier')).toHaveText(NIT);
  await expect(byNit.filter({ hasText: 'RTU por NIT' }).first().getByTestId('record-identifier')).toHaveText('7108-0,576937k');
  // Only that NIT's queries (the query by CUI above is not among them).
  for (const identifier of await byNit.getByTestId('record-identifier').allTextContents()) expect(identifier).toMatch(/576937-?k/i);

  const byCui = await search(page, '1587 56444 0904');
  await expect(byCui.filter({ hasText: 'Catálogo omisos' }).first().getByTestId('record-identifier')).toHaveText(CUI);
  for (const identifier of await byCui.getByTestId('record-identifier').allTextContents()) expect(identifier.replaceAll(' ', '')).toContain(CUI);
});
