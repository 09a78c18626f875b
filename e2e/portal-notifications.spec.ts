// Notifications self-service in the portal (issue 34, point 2), in chromium at 1366 and 390 px with
// axe: an owner opens Notificaciones, saves the contacts' addresses, sets a webhook (the signing
// secret shown once) and sends the test notice, which shows in the delivery log with its state and
// error. The e2e app keeps the production rule for integrator webhooks (https:// to a public name,
// INTEGRATOR_WEBHOOK_ALLOW_LOCAL_TARGETS unset), so the webhook names a host that does not resolve
// and the page tells the owner so; a signed delivery to a real receiver is
// tests/portal/portal-notifications.test.ts. A developer finds no Notificaciones.
import { expect, test } from '@playwright/test';
import { openConsoleAsAdmin, settings } from './support/console';
import { acceptPrintedInvitation, checkBothSizes, createIntegrationThroughConsole, DESKTOP, inviteThroughConsole, openSection } from './support/portal';

const PASSWORD = 'quetzal sobre el cerro de la cruz';
const WEBHOOK = 'https://avisos-portal.pasarela.invalid/hook';

test('una propietaria guarda sus contactos y su webhook y envía el aviso de prueba, que aparece en los últimos avisos', async ({ browser }, testInfo) => {
  test.setTimeout(300_000);
  const { baseUrl } = settings();
  const stamp = Date.now().toString(36);
  const nombre = `avisos-${stamp}`;
  const ownerEmail = `duena-avisos-${stamp}@example.com`;
  const developerEmail = `dev-avisos-${stamp}@example.com`;

  const adminContext = await browser.newContext({ viewport: DESKTOP, extraHTTPHeaders: { 'x-forwarded-for': '10.64.0.1' } });
  const admin = await adminContext.newPage();
  await openConsoleAsAdmin(admin);
  const { id } = await createIntegrationThroughConsole(admin, { nombre, balance: '100.00' });
  await inviteThroughConsole(admin, id, ownerEmail, 'Propietario');
  await inviteThroughConsole(admin, id, developerEmail, 'Desarrollador');
  await adminContext.close();

  const context = await browser.newContext({ viewport: DESKTOP, extraHTTPHeaders: { 'x-forwarded-for': '10.64.0.2' } });
  const owner = await context.newPage();
  await acceptPrintedInvitation(owner, { email: ownerEmail, name: 'Propietaria de avisos', password: PASSWORD }, nombre);
  await openSection(owner, 'Notificaciones');
  await checkBothSizes(owner, testInfo, 'notificaciones');

  // The contacts: a wrong address refused with the console's words, then both saved.
  await owner.getByTestId('contact-technical').fill('no-es-un-correo');
  await owner.getByRole('button', { name: 'Guardar contactos' }).click();
  await expect(owner.getByText('El correo del contacto técnico no es válido: escríbalo como nombre@empresa.com.')).toBeVisible();
  await owner.getByTestId('contact-technical').fill('tecnica@avisos.gt');
  await owner.getByTestId('contact-billing').fill('cobros@avisos.gt');
  await owner.getByRole('button', { name: 'Guardar contactos' }).click();
  await expect(owner.getByText('Contactos guardados.')).toBeVisible();
  await owner.reload();
  await expect(owner.getByTestId('notification-recipient-technical')).toContainText('tecnica@avisos.gt');
  await expect(owner.getByTestId('notification-recipient-billing')).toContainText('cobros@avisos.gt');

  // The webhook: http:// refused as in the console; then saved, its secret shown once.
  await owner.getByTestId('webhook-url').fill('http://avisos.example.com/hook');
  await owner.getByRole('button', { name: 'Guardar webhook' }).click();
  await expect(owner.getByText('La URL del webhook debe empezar con https://.').first()).toBeVisible();
  await owner.getByTestId('webhook-url').fill(WEBHOOK);
  await owner.getByRole('button', { name: 'Guardar webhook' }).click();
  const secret = owner.getByTestId('webhook-secret');
  await expect(secret).toContainText('whsec_');
  await expect(owner.getByTestId('webhook-current')).toHaveText(WEBHOOK);
  await checkBothSizes(owner, testInfo, 'notificaciones-webhook');
  await owner.reload();
  await expect(owner.getByTestId('webhook-secret')).toHaveCount(0);

  // The test notice: the host does not resolve, and the owner reads that, then the delivery in the log.
  await owner.getByRole('button', { name: 'Enviar aviso de prueba' }).click();
  const outcome = owner.getByTestId('test-notice-outcome');
  await expect(outcome).toContainText(`No se entregó a ${WEBHOOK}: no se encontró el servidor avisos-portal.pasarela.invalid: revise el nombre en la URL.`, { timeout: 20_000 });
  await expect(outcome).toHaveClass(/error/);
  const delivery = owner.getByTestId('integration-notification-list').locator('tbody tr', { hasText: 'Aviso de prueba' });
  await expect(delivery).toHaveCount(1);
  await expect(delivery).toContainText(`Webhook · ${WEBHOOK}`);
  await expect(delivery).toHaveAttribute('data-status', 'pending');
  await expect(delivery.getByTestId('delivery-error')).toHaveText('no se encontró el servidor avisos-portal.pasarela.invalid: revise el nombre en la URL');
  await checkBothSizes(owner, testInfo, 'notificaciones-prueba');

  // «Reenviar»: the notice as sent, in JSON, and the same notice again with the same id.
  const payload = delivery.getByTestId('notification-payload');
  await payload.getByText('Ver el aviso (JSON)').click();
  await expect(payload.locator('pre')).toContainText('"tipo": "prueba"');
  const noticeId = JSON.parse((await payload.locator('pre').textContent())!).id as string;
  await delivery.getByRole('button', { name: 'Reenviar' }).click();
  await expect(owner.getByTestId('resend-outcome')).toContainText(`Reenviado con el mismo id. No se entregó a ${WEBHOOK}`, { timeout: 20_000 });
  const copies = owner.getByTestId('integration-notification-list').locator('tbody tr', { hasText: 'Aviso de prueba' });
  await expect(copies).toHaveCount(2);
  for (const row of await copies.all()) expect(JSON.parse((await row.getByTestId('notification-payload').locator('pre').textContent())!).id).toBe(noticeId);
  await checkBothSizes(owner, testInfo, 'notificaciones-reenvio');
  await context.close();

  // A developer has no Notificaciones: no link, and the address answers a refusal naming who may open it.
  const developerContext = await browser.newContext({ viewport: DESKTOP, extraHTTPHeaders: { 'x-forwarded-for': '10.64.0.3' } });
  const developer = await developerContext.newPage();
  await acceptPrintedInvitation(developer, { email: developerEmail, name: 'Desarrollador de avisos', password: PASSWORD }, nombre);
  await expect(developer.getByRole('navigation', { name: 'Secciones del portal' }).getByRole('link', { name: 'Notificaciones', exact: true })).toHaveCount(0);
  expect((await developer.goto(`${baseUrl}/portal/notificaciones`))?.status()).toBe(403);
  await expect(developer).toHaveURL(/\/portal\/notificaciones$/);
  await expect(developer.getByTestId('portal-forbidden')).toContainText('Esta página es para propietario.');
  await developerContext.close();
});
