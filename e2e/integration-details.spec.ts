// An integration's details (issues 24 and 64): an administrator creates it, registers its billing
// profile (a NIT with a wrong check digit is refused; a right one is named as SAT names it, and that
// is the integration's razón social and NIT), then fills the contacts on its page (a wrong phone is
// refused field by field) and saves; support staff see them read-only, and the server refuses
// support's save whatever the browser sends.
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { callServerAction, createUserThroughForm, openConsoleAsAdmin, screenshot, settings, signInFirstTime } from './support/console';

// The role check's refusal (lib/flows/auth/action.ts, ACTION_MESSAGES.forbidden), as console.spec.ts reads it.
const FORBIDDEN = 'esta acción requiere un administrador';
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1366, height: 900 };

test.describe.serial('datos de la integración', () => {
  let adminContext: BrowserContext;
  let admin: Page;
  let integrationUrl = '';
  let integrationId = 0;
  const nombre = `datos-${Date.now().toString(36)}`;

  test.beforeAll(async ({ browser }) => {
    adminContext = await browser.newContext({ viewport: DESKTOP });
    admin = await adminContext.newPage();
    await openConsoleAsAdmin(admin);
  });

  test.afterAll(async () => {
    await adminContext?.close();
  });

  const details = (page: Page) => page.locator('section', { has: page.getByRole('heading', { name: 'Datos de la integración', level: 2 }) });

  test('el administrador crea la integración y registra sus datos de facturación: la razón social es la que SAT tiene para su NIT', async ({}, testInfo) => {
    await admin.goto(`${settings().baseUrl}/admin/integraciones/nueva`);
    await admin.getByLabel('Nombre (login)').fill(nombre);
    // The razón social and NIT are not typed here: they come from the billing profile.
    await expect(admin.getByLabel('Razón social', { exact: true })).toHaveCount(0);
    await admin.setViewportSize(PHONE);
    await screenshot(admin, testInfo, 'datos-integracion-01-nueva-390');
    await admin.setViewportSize(DESKTOP);
    await screenshot(admin, testInfo, 'datos-integracion-01-nueva-1366');
    await admin.getByRole('button', { name: 'Crear integración' }).click();
    await expect(admin.getByText(`Integración «${nombre}» creada.`)).toBeVisible();
    await admin.getByRole('link', { name: 'Ir a la integración' }).click();
    await expect(admin.getByRole('heading', { name: nombre, level: 1 })).toBeVisible();
    await admin.getByRole('navigation', { name: 'Secciones de la integración' }).getByRole('link', { name: 'Datos de la integración' }).click();
    await expect(admin).toHaveURL(/\/admin\/integraciones\/\d+\/datos$/);
    integrationUrl = admin.url();
    integrationId = Number(/\/admin\/integraciones\/(\d+)/.exec(integrationUrl)![1]);
    await expect(admin.getByTestId('details-legal-name')).toHaveText('No registrada');

    const receptor = admin.locator('#receptor');
    await receptor.getByText('Registrar el receptor').click();
    await receptor.getByLabel('NIT', { exact: true }).fill('91000001-9');
    await receptor.getByRole('button', { name: 'Consultar' }).click();
    await expect(receptor.getByText('El NIT no es válido: revise el número y su dígito verificador (por ejemplo 576937-K).').first()).toBeVisible();
    await expect(receptor.getByLabel('NIT', { exact: true })).toHaveAttribute('aria-invalid', 'true');
    await receptor.getByLabel('NIT', { exact: true }).fill('91000001-8');
    await receptor.getByRole('button', { name: 'Consultar' }).click();
    await expect(receptor.getByTestId('receptor-found')).toContainText('EMPRESA DE PRUEBA FEL, SOCIEDAD ANONIMA');
    await receptor.getByRole('button', { name: 'Guardar este receptor' }).click();
    await expect(admin.getByTestId('details-legal-name')).toHaveText('EMPRESA DE PRUEBA FEL, SOCIEDAD ANONIMA');
    // Saved: the form closes, empty, and the page shows the receptor.
    await expect(receptor.getByTestId('receptor-change')).not.toHaveAttribute('open');
    await expect(receptor.getByTestId('receptor-found')).toHaveCount(0);
    await expect(admin.getByTestId('details-nit')).toHaveText('91000001-8');
    // The legal name heads every section.
    await expect(admin.getByTestId('header-legal-name')).toHaveText('EMPRESA DE PRUEBA FEL, SOCIEDAD ANONIMA');

    await receptor.getByText('Cambiar dirección y correo').click();
    await receptor.getByLabel('Dirección fiscal').fill('6a. Avenida 1-23, zona 1, Guatemala');
    await receptor.getByLabel('Correo para facturas').fill('facturas@empresa');
    await receptor.getByRole('button', { name: 'Guardar dirección y correo' }).click();
    await expect(receptor.getByText('El correo para facturas no es válido: escríbalo como facturas@empresa.com.').first()).toBeVisible();
    await receptor.getByLabel('Correo para facturas').fill('facturas@empresa.com.gt');
    await receptor.getByRole('button', { name: 'Guardar dirección y correo' }).click();
    await expect(admin.getByTestId('details-address')).toHaveText('6a. Avenida 1-23, zona 1, Guatemala');
    await expect(admin.getByTestId('details-technical')).toHaveText('No registrado');
  });

  test('el administrador completa los contactos: un teléfono o un correo mal escritos se señalan en su campo', async ({}, testInfo) => {
    const section = details(admin);
    await section.getByRole('group', { name: 'Contacto técnico' }).getByLabel('Nombre').fill('Ana López');
    await section.getByRole('group', { name: 'Contacto técnico' }).getByLabel('Correo').fill('ana@sur');
    await section.getByRole('group', { name: 'Contacto técnico' }).getByLabel('Teléfono').fill('5555 123');
    await section.getByRole('group', { name: 'Contacto de facturación' }).getByLabel('Nombre').fill('Luis Pérez');
    await section.getByRole('group', { name: 'Contacto de facturación' }).getByLabel('Correo').fill('facturas@sur.com.gt');
    await section.getByRole('group', { name: 'Contacto de facturación' }).getByLabel('Teléfono').fill('+502 2222-3333');
    await section.getByRole('button', { name: 'Guardar datos' }).click();
    await expect(section.getByText('El correo del contacto técnico no es válido: escríbalo como nombre@empresa.com.')).toBeVisible();
    await expect(section.getByText(/^El teléfono del contacto técnico no es válido/)).toBeVisible();
    await expect(section.getByRole('group', { name: 'Contacto técnico' }).getByLabel('Teléfono')).toHaveAttribute('aria-invalid', 'true');
    // Nothing was saved: the billing contact is still not registered.
    await expect(admin.getByTestId('details-billing')).toHaveText('No registrado');

    await section.getByRole('group', { name: 'Contacto técnico' }).getByLabel('Correo').fill('ana@sur.com.gt');
    await section.getByRole('group', { name: 'Contacto técnico' }).getByLabel('Teléfono').fill('5555-1234');
    await section.getByRole('button', { name: 'Guardar datos' }).click();
    await expect(section.getByText('Datos de la integración guardados.')).toBeVisible();
    await expect(admin.getByTestId('details-technical')).toHaveText('Ana López · ana@sur.com.gt · +502 5555-1234');
    await expect(admin.getByTestId('details-billing')).toHaveText('Luis Pérez · facturas@sur.com.gt · +502 2222-3333');
    await section.scrollIntoViewIfNeeded();
    await screenshot(admin, testInfo, 'datos-integracion-02-admin-1366');
    await admin.setViewportSize(PHONE);
    await screenshot(admin, testInfo, 'datos-integracion-02-admin-390');
    await admin.setViewportSize(DESKTOP);

    await admin.reload();
    await expect(details(admin).getByRole('group', { name: 'Contacto técnico' }).getByLabel('Teléfono')).toHaveValue('+502 5555-1234');
    await expect(admin.getByTestId('details-nit')).toHaveText('91000001-8');
  });

  test('soporte los ve sin poder cambiarlos, y el servidor rechaza su cambio', async ({ browser }, testInfo) => {
    const { support, supportContext } = await supportUser(browser, admin);
    await support.goto(integrationUrl);
    await expect(support.getByTestId('details-legal-name')).toHaveText('EMPRESA DE PRUEBA FEL, SOCIEDAD ANONIMA');
    await expect(support.getByTestId('details-nit')).toHaveText('91000001-8');
    await expect(support.getByTestId('details-technical')).toHaveText('Ana López · ana@sur.com.gt · +502 5555-1234');
    await expect(support.getByTestId('details-technical').getByRole('link', { name: 'ana@sur.com.gt' })).toHaveAttribute('href', 'mailto:ana@sur.com.gt');
    await expect(support.getByTestId('details-billing')).toHaveText('Luis Pérez · facturas@sur.com.gt · +502 2222-3333');
    await expect(details(support).getByRole('button', { name: 'Guardar datos' })).toHaveCount(0);
    await expect(details(support).getByRole('textbox')).toHaveCount(0);
    await screenshot(support, testInfo, 'datos-integracion-03-soporte-1366');
    await support.setViewportSize(PHONE);
    await screenshot(support, testInfo, 'datos-integracion-03-soporte-390');

    const answer = await callServerAction(support, 'setIntegrationDetailsAction', { integrationId: String(integrationId), technicalContactName: 'Cambiado por soporte' });
    expect(answer).toContain(FORBIDDEN);
    const profile = await callServerAction(support, 'saveBillingContactAction', { integrationId: String(integrationId), direccion: 'Otra', correo: '' });
    expect(profile).toContain(FORBIDDEN);
    await support.reload();
    await expect(support.getByTestId('details-technical')).toHaveText('Ana López · ana@sur.com.gt · +502 5555-1234');
    await expect(support.getByTestId('details-address')).toHaveText('6a. Avenida 1-23, zona 1, Guatemala');
    await supportContext.close();
  });
});

async function supportUser(browser: Browser, admin: Page) {
  const email = `soporte-detalles-${Date.now().toString(36)}@example.com`;
  const password = await createUserThroughForm(admin, email, 'Soporte detalles');
  const supportContext = await browser.newContext({ viewport: DESKTOP });
  const support = await supportContext.newPage();
  await signInFirstTime(support, email, password);
  return { support, supportContext };
}
