// Inicio and the console's Portal section (issue 33, points 4 and 7), in chromium at 1366 and
// 390 px with axe: after a few lookups with the integration's token, its owner sees the balance
// they left, this month's spending and the use per day in the console's chart; an administrator
// sends a pending invitation again from the integration's Portal section, confirmed before and
// after, and the old link stops working while the new one opens. Arriving, the owner is asked for
// the contacts' addresses the integration lacks, and the balance leads to Recargas.
import { expect, test } from '@playwright/test';
import { samplePopulation } from '../simulator/population';
import { openConsoleAsAdmin, settings } from './support/console';
import { acceptPrintedInvitation, checkBothSizes, createIntegrationThroughConsole, DESKTOP, inviteThroughConsole, PHONE, printedInvitation } from './support/portal';

const PASSWORD = 'quetzal sobre el cerro de la cruz';

test('el propietario ve su saldo y su uso por día; un administrador reenvía una invitación desde la sección Portal', async ({ browser, request }, testInfo) => {
  test.setTimeout(300_000);
  const { baseUrl } = settings();
  const stamp = Date.now().toString(36);
  const nombre = `inicio-${stamp}`;
  const ownerEmail = `duena-inicio-${stamp}@example.com`;
  const pendingEmail = `pendiente-inicio-${stamp}@example.com`;

  // The administrator creates the integration (compliance lookups, Q 1.50 each, Q 250.00) and invites
  // its owner and a developer who has not answered yet.
  const adminContext = await browser.newContext({ viewport: DESKTOP, extraHTTPHeaders: { 'x-forwarded-for': '10.62.0.1' } });
  const admin = await adminContext.newPage();
  await openConsoleAsAdmin(admin);
  const { token, id } = await createIntegrationThroughConsole(admin, { nombre, tariff: '1.50', balance: '250.00', omisos: true });
  await inviteThroughConsole(admin, id, ownerEmail, 'Propietario');
  await inviteThroughConsole(admin, id, pendingEmail, 'Desarrollador');

  // Three compliance lookups with the integration's token, as its system makes them.
  const nit = samplePopulation({ seed: Number(process.env.E2E_SIMULATOR_SEED) }).omiso.nit;
  for (let index = 0; index < 3; index++) {
    const response = await request.post(`${baseUrl}/api/catalogos/omisos`, {
      headers: { 'x-integracion-login': nombre, 'x-integracion-token': token, 'x-forwarded-for': '10.62.0.9' },
      data: { nit },
    });
    expect(response.status(), await response.text()).toBe(200);
  }

  // The owner accepts the link and lands on Inicio: the balance the lookups left, what this month
  // cost, and the use per day in the console's chart (once the rollups have added them).
  const context = await browser.newContext({ viewport: DESKTOP, extraHTTPHeaders: { 'x-forwarded-for': '10.62.0.2' } });
  const owner = await context.newPage();
  await acceptPrintedInvitation(owner, { email: ownerEmail, name: 'Dueña de inicio', password: PASSWORD }, nombre);
  await expect(owner.getByTestId('portal-balance')).toHaveText('Q 245.50');
  await expect(owner.getByTestId('portal-spent-current')).toHaveText('Q 4.50');
  // Without contacts' addresses nobody would receive the low-balance notice: the owner is asked for them.
  await expect(owner.getByTestId('portal-contacts-missing')).toContainText('Su integración no tiene correos de contacto técnico ni de facturación');
  await expect(owner.getByTestId('portal-contacts-missing').getByRole('link', { name: 'Notificaciones' })).toHaveAttribute('href', '/portal/notificaciones');
  await expect(owner.getByTestId('portal-top-up-link')).toHaveAttribute('href', '/portal/recargas');
  await expect(async () => {
    await owner.goto(`${baseUrl}/portal`);
    await expect(owner.getByTestId('portal-usage-queries')).toHaveText('3', { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  const perDay = owner.getByRole('img', { name: `Consultas por tipo a lo largo del tiempo` });
  await expect(perDay).toBeVisible();
  // Today's column carries the three lookups (its tooltip's text).
  await expect(perDay.locator('.bar-chart-column').last()).toHaveAttribute('data-tip', /Catálogo omisos: 3\nTotal: 3$/);
  await expect(owner.getByTestId('portal-usage-by-lookup')).toContainText('Catálogo omisos');
  await expect(owner.getByTestId('portal-limits').locator('tr[data-route="catalogs"]').getByTestId('portal-limit-today')).toHaveText('3');
  await expect(owner.getByTestId('portal-sources').getByRole('link', { name: /Ver el estado de las fuentes/ })).toHaveAttribute('href', '/estado');
  // What only the service's administrators change, read-only, and whom to ask (issue 34, point 5).
  const managed = owner.getByTestId('portal-service-managed');
  await expect(managed.locator('li[data-lookup]')).toHaveCount(5);
  await expect(managed.locator('li[data-lookup="omisos"]')).toHaveText('Catálogo omisos: Habilitada');
  await expect(managed.getByTestId('portal-service-tariff')).toHaveText('Tarifa por consulta de catálogo: Q 1.50.');
  await expect(managed.getByRole('link', { name: 'soporte@example.com' })).toHaveAttribute('href', 'mailto:soporte@example.com');
  await expect(managed.locator('form, button, input')).toHaveCount(0);
  await checkBothSizes(owner, testInfo, 'inicio');
  await context.close();

  // The administrator sends the developer's invitation again: asked first, told after.
  const oldLink = await printedInvitation(pendingEmail);
  await admin.goto(`${baseUrl}/admin/integraciones/${id}/portal`);
  await expect(admin.getByTestId('portal-users-list')).toContainText(ownerEmail);
  const invitation = admin.getByTestId('portal-invitations').locator('tr', { hasText: pendingEmail });
  await expect(invitation).toContainText('Pendiente; vence el');
  await checkBothSizes(admin, testInfo, 'seccion-portal');
  await invitation.getByRole('button', { name: 'Reenviar' }).click();
  const question = admin.getByRole('dialog', { name: `¿Reenviar la invitación a ${pendingEmail}?` });
  await expect(question).toContainText('El enlace anterior deja de servir al momento.');
  await expect(question.getByRole('button', { name: 'Cancelar' })).toBeFocused();
  await question.getByRole('button', { name: 'Reenviar invitación' }).click();
  await expect(question).toBeHidden();
  await expect(admin.getByText(`Invitación reenviada para ${pendingEmail}`)).toContainText('El enlace anterior ya no sirve.');
  const newLink = await printedInvitation(pendingEmail, 2);
  expect(newLink).not.toBe(oldLink);
  await expect(admin.getByTestId('portal-invitations').locator('tr', { hasText: pendingEmail })).toHaveCount(1);

  const invited = await browser.newContext({ viewport: PHONE, extraHTTPHeaders: { 'x-forwarded-for': '10.62.0.3' } });
  const person = await invited.newPage();
  await person.goto(oldLink);
  await expect(person.getByText('Este enlace ya no sirve')).toBeVisible();
  await person.goto(newLink);
  await expect(person.getByText(pendingEmail)).toBeVisible();
  await expect(person.getByRole('button', { name: 'Crear mi cuenta' })).toBeVisible();
  await invited.close();
  await adminContext.close();
});
