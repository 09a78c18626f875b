// Small console and invitation details only a browser shows: the portal's sandbox banner takes one
// line on a 360 px phone (its whole sentence from a tablet up); an e-mail address in the console's
// Portal section wraps after its "@" or a dot, never inside a word; and an administrator cancels a
// pending invitation there, confirmed before, after which its link's page says it was cancelled.
import { expect, test, type Page } from '@playwright/test';
import { laidOutLines, openConsoleAsAdmin, settings } from './support/console';
import { createIntegrationThroughConsole, DESKTOP, inviteThroughConsole, printedInvitation } from './support/portal';

const SMALL_PHONE = { width: 360, height: 740 };

/** The banner's content box against its line height, and whether its text fits its width. */
async function bannerBox(page: Page) {
  return page.getByTestId('sandbox-banner').evaluate((element) => {
    const style = getComputedStyle(element);
    const edges = ['paddingTop', 'paddingBottom', 'borderTopWidth', 'borderBottomWidth'] as const;
    return {
      contentHeight: element.getBoundingClientRect().height - edges.reduce((sum, edge) => sum + parseFloat(style[edge]), 0),
      lineHeight: parseFloat(style.lineHeight),
      fits: element.scrollWidth <= element.clientWidth,
    };
  });
}

test('el aviso de sandbox ocupa una línea en un teléfono de 360 px y dice la frase entera en una pantalla ancha', async ({ browser }) => {
  const context = await browser.newContext({ viewport: SMALL_PHONE, extraHTTPHeaders: { 'x-forwarded-for': '10.63.0.1' } });
  const phone = await context.newPage();
  await phone.goto(`${settings().baseUrl}/portal/ingresar`);
  const banner = phone.getByTestId('sandbox-banner');
  await expect(banner).toBeVisible();
  await expect(banner.getByText('Entorno de pruebas (sandbox)', { exact: true }).filter({ visible: true })).toHaveCount(1);
  const box = await bannerBox(phone);
  expect(Math.abs(box.contentHeight - box.lineHeight), `mide ${box.contentHeight}px; una línea, ${box.lineHeight}px`).toBeLessThan(box.lineHeight / 2);
  expect(box.fits, 'el texto del aviso cabe sin recortarse').toBe(true);

  await phone.setViewportSize(DESKTOP);
  await expect(banner.getByText(/sus consultas van al simulador de las fuentes/)).toBeVisible();
  await context.close();
});

test('un correo largo se parte después de la @ o de un punto, y un administrador cancela su invitación pendiente', async ({ browser }) => {
  test.setTimeout(180_000);
  const stamp = Date.now().toString(36);
  const nombre = `detalles-${stamp}`;
  const email = `contabilidad.proveedores.${stamp}@distribuidora-del-altiplano.example`;

  const context = await browser.newContext({ viewport: DESKTOP, extraHTTPHeaders: { 'x-forwarded-for': '10.63.0.2' } });
  const admin = await context.newPage();
  await openConsoleAsAdmin(admin);
  const { id } = await createIntegrationThroughConsole(admin, { nombre, balance: '10.00' });
  await inviteThroughConsole(admin, id, email, 'Facturación');
  const link = await printedInvitation(email);

  await admin.setViewportSize(SMALL_PHONE);
  await admin.reload();
  const row = admin.getByTestId('portal-invitations').locator('tr', { hasText: email });
  const address = row.locator('.email-address');
  const lines = await laidOutLines(address);
  expect(lines.join(''), 'la dirección entera').toBe(email);
  expect(lines.length, `en una columna de teléfono se parte: ${JSON.stringify(lines)}`).toBeGreaterThan(1);
  // After "@" or a dot, or at the address's own hyphen (a break between its words, as every browser
  // makes); never inside a word.
  expect(
    lines.slice(0, -1).filter((line) => !/[@.-]$/.test(line)),
    `partida dentro de una palabra: ${JSON.stringify(lines)}`,
  ).toEqual([]);

  await row.getByRole('button', { name: 'Cancelar invitación' }).click();
  const question = admin.getByRole('dialog', { name: `¿Cancelar la invitación a ${email}?` });
  await expect(question).toContainText('Su enlace deja de servir al momento');
  await question.getByRole('button', { name: 'Cancelar invitación' }).click();
  await expect(admin.getByTestId('portal-users-notice')).toHaveText(`Invitación a ${email} cancelada: su enlace ya no sirve.`);
  await expect(admin.getByTestId('portal-invitations').locator('tr', { hasText: email })).toHaveCount(0);

  const invited = await browser.newContext({ viewport: SMALL_PHONE, extraHTTPHeaders: { 'x-forwarded-for': '10.63.0.3' } });
  const page = await invited.newPage();
  await page.goto(link);
  await expect(page.getByText(/^Esta invitación fue cancelada/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Crear mi cuenta' })).toHaveCount(0);
  await invited.close();
  await context.close();
});
