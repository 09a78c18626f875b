// Credentials self-service in the portal (issue 34, point 1), in chromium at 1366 and 390 px with
// axe: a developer creates a token (shown once, copied), rotates the integration's first token with
// a 24 h overlap (the old and the new one both answer 200), then revokes the old one, refused at
// once while the new one keeps working; an owner edits the IP allow-list, asked first when the list
// would leave out the address the owner is using; an administrator then reads it all on the
// integration's "Actividad del portal" and in the audit list (issue 34, point 4).
import { expect, test, type APIRequestContext, type Locator } from '@playwright/test';
import { samplePopulation } from '../simulator/population';
import { openConsoleAsAdmin, settings } from './support/console';
import { acceptPrintedInvitation, checkBothSizes, createIntegrationThroughConsole, DESKTOP, inviteThroughConsole, openSection } from './support/portal';

const PASSWORD = 'quetzal sobre el cerro de la cruz';

/** The whole label of the option naming a token's prefix ("Principal · tlk_1a2b3c… · creado el …"). */
async function optionNaming(select: Locator, prefix: string): Promise<string> {
  return (await select.locator('option', { hasText: `${prefix}…` }).textContent())!;
}

test('un desarrollador crea, rota con 24 h de superposición y revoca tokens; una propietaria edita las direcciones permitidas', async ({ browser, request }, testInfo) => {
  test.setTimeout(300_000);
  const { baseUrl } = settings();
  const stamp = Date.now().toString(36);
  const nombre = `credenciales-${stamp}`;
  const developerEmail = `dev-credenciales-${stamp}@example.com`;
  const ownerEmail = `duena-credenciales-${stamp}@example.com`;
  const nit = samplePopulation({ seed: Number(process.env.E2E_SIMULATOR_SEED) }).omiso.nit;
  /** A compliance lookup with the integration's login and this token, as its system makes it. */
  const lookup = async (client: APIRequestContext, token: string) =>
    (await client.post(`${baseUrl}/api/catalogos/omisos`, { headers: { 'x-integracion-login': nombre, 'x-integracion-token': token }, data: { nit } })).status();

  // The administrator creates the integration (compliance lookups, Q 250.00) and invites the
  // developer and the owner.
  const adminContext = await browser.newContext({ viewport: DESKTOP, extraHTTPHeaders: { 'x-forwarded-for': '10.63.0.1' } });
  const admin = await adminContext.newPage();
  await openConsoleAsAdmin(admin);
  const { token: firstToken, id } = await createIntegrationThroughConsole(admin, { nombre, balance: '250.00', omisos: true });
  await inviteThroughConsole(admin, id, developerEmail, 'Desarrollador');
  await inviteThroughConsole(admin, id, ownerEmail, 'Propietario');
  await adminContext.close();
  expect(await lookup(request, firstToken)).toBe(200);

  const context = await browser.newContext({ viewport: DESKTOP, extraHTTPHeaders: { 'x-forwarded-for': '10.63.0.2' } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
  const developer = await context.newPage();
  await acceptPrintedInvitation(developer, { email: developerEmail, name: 'Desarrolladora de credenciales', password: PASSWORD }, nombre);
  await openSection(developer, 'Credenciales');
  await expect(developer.getByRole('main')).not.toContainText('escribe al equipo del servicio para crear');
  await checkBothSizes(developer, testInfo, 'credenciales-desarrollador');

  // A new token, shown once: copied, it answers at once; after a reload only its prefix is left.
  await developer.getByTestId('token-label').fill('Servidor de reportes');
  await developer.getByRole('button', { name: 'Crear token' }).click();
  const created = developer.getByTestId('created-token');
  await expect(created).toHaveText(/^tlk_/);
  const newToken = (await created.textContent())!.trim();
  await developer.locator('.secret').getByRole('button', { name: 'Copiar' }).click();
  expect(await developer.evaluate(() => navigator.clipboard.readText())).toBe(newToken);
  await checkBothSizes(developer, testInfo, 'credenciales-token-creado');
  expect(await lookup(request, newToken)).toBe(200);
  await developer.reload();
  expect(await developer.content()).not.toContain(newToken);
  await expect(developer.getByTestId('portal-tokens').locator('tr', { hasText: 'Servidor de reportes' })).toContainText(`${newToken.slice(0, 10)}…`);

  // The first token rotated with 24 h of overlap: asked first; the old and the new both answer.
  const rotateChoice = developer.getByTestId('rotate-token-choice');
  await rotateChoice.selectOption({ label: await optionNaming(rotateChoice, firstToken.slice(0, 10)) });
  await developer.getByTestId('rotate-overlap').selectOption('24h');
  await developer.getByRole('button', { name: 'Rotar token' }).click();
  const rotation = developer.getByRole('dialog');
  await expect(rotation).toContainText(new RegExp(`¿Rotar el token «Principal» \\(${firstToken.slice(0, 10)}…, creado el \\d\\d/\\d\\d/\\d{4}, \\d\\d:\\d\\d:\\d\\d\\)\\?`));
  await expect(rotation).toContainText('sigue funcionando durante 24 horas');
  await rotation.getByRole('button', { name: 'Rotar token' }).click();
  const rotated = developer.getByTestId('rotated-token');
  await expect(rotated).toHaveText(/^tlk_/);
  const replacement = (await rotated.textContent())!.trim();
  expect(await lookup(request, replacement)).toBe(200);
  expect(await lookup(request, firstToken)).toBe(200);
  // By the prefix column: the replacement's row names the old prefix too ("Reemplaza a …").
  const oldRow = developer.getByTestId('portal-tokens').locator('tr').filter({ has: developer.getByTestId('portal-token-prefix').filter({ hasText: `${firstToken.slice(0, 10)}…` }) });
  await expect(oldRow).toContainText('Reemplazado (en superposición)');

  // The old one revoked at once, asked first: refused from then on; the replacement still works.
  // Both are "Principal": each says which one it is, when it was created, and until when the old works.
  await developer.reload();
  const newRow = developer.getByTestId('portal-tokens').locator('tr').filter({ has: developer.getByTestId('portal-token-prefix').filter({ hasText: `${replacement.slice(0, 10)}…` }) });
  await expect(oldRow).toContainText(`Token anterior: funciona hasta el`);
  await expect(oldRow).toContainText(`Lo reemplaza ${replacement.slice(0, 10)}…, el nuevo, creado el`);
  await expect(newRow).toContainText(`Token nuevo. Reemplaza a ${firstToken.slice(0, 10)}… (creado el`);
  await expect(newRow).toContainText('que sigue funcionando hasta el');
  const revokeChoice = developer.getByTestId('revoke-token-choice');
  expect(await optionNaming(revokeChoice, firstToken.slice(0, 10))).toMatch(/^Principal · tlk_[\w-]+… · anterior, creado el .+, funciona hasta el \d\d\/\d\d\/\d{4}, \d\d:\d\d:\d\d$/);
  expect(await optionNaming(revokeChoice, replacement.slice(0, 10))).toMatch(/^Principal · tlk_[\w-]+… · nuevo, creado el \d\d\/\d\d\/\d{4}, \d\d:\d\d:\d\d$/);
  await revokeChoice.selectOption({ label: await optionNaming(revokeChoice, firstToken.slice(0, 10)) });
  await developer.getByRole('button', { name: 'Revocar token' }).click();
  const revocation = developer.getByRole('dialog');
  await expect(revocation).toContainText(`¿Revocar el token «Principal» (${firstToken.slice(0, 10)}…, anterior, creado el`);
  await expect(revocation.getByRole('button', { name: 'Cancelar' })).toBeFocused();
  await revocation.getByRole('button', { name: 'Revocar token' }).click();
  await expect(developer.getByText('Token «Principal» revocado: ya no funciona en ninguna instancia.')).toBeVisible();
  expect(await lookup(request, firstToken)).toBe(401);
  expect(await lookup(request, replacement)).toBe(200);
  expect(await lookup(request, newToken)).toBe(200);
  await checkBothSizes(developer, testInfo, 'credenciales-revocado');
  await context.close();

  // The owner, whose browser comes from 10.63.0.3 (behind the app's one trusted proxy), edits the
  // allow-list: a list without that address is asked about first, and not saved when cancelled.
  const ownerContext = await browser.newContext({ viewport: DESKTOP, extraHTTPHeaders: { 'x-forwarded-for': '10.63.0.3' } });
  const owner = await ownerContext.newPage();
  await acceptPrintedInvitation(owner, { email: ownerEmail, name: 'Dueña de credenciales', password: PASSWORD }, nombre);
  await openSection(owner, 'Credenciales');
  const networks = owner.getByTestId('allowed-networks-input');
  await expect(owner.getByText('Ahora está conectado desde 10.63.0.3.')).toBeVisible();
  await networks.fill('203.0.113.0/24');
  await owner.getByRole('button', { name: 'Guardar direcciones' }).click();
  const question = owner.getByRole('dialog', { name: '¿Guardar una lista que deja fuera su dirección?' });
  await expect(question).toContainText('Ahora está conectado desde 10.63.0.3, que la lista no incluye');
  await expect(question.getByRole('button', { name: 'Cancelar' })).toBeFocused();
  await checkBothSizes(owner, testInfo, 'credenciales-pregunta-direcciones');
  await question.getByRole('button', { name: 'Cancelar' }).click();
  await expect(question).toBeHidden();
  await owner.reload();
  await expect(owner.getByTestId('portal-allowed-networks')).toContainText('cualquier dirección IP');

  // A mistake is shown beside the field, in the console's words; nothing is saved.
  await networks.fill('203.0.113.0/24, 10.63.0.300');
  await owner.getByRole('button', { name: 'Guardar direcciones' }).click();
  await expect(owner.getByText('«10.63.0.300» no es una dirección IPv4 ni IPv6.')).toBeVisible();

  // With the owner's address in it, saved without a question; the lookups from elsewhere (this
  // test's own address, 127.0.0.1) are refused from then on, and accepted again once it is emptied.
  await networks.fill('203.0.113.0/24, 10.63.0.3');
  await owner.getByRole('button', { name: 'Guardar direcciones' }).click();
  await expect(owner.getByText('Lista guardada: solo se aceptan solicitudes desde esas 2 entradas: el rango 203.0.113.0/24 (256 direcciones) y la dirección 10.63.0.3.')).toBeVisible();
  await expect(owner.getByTestId('portal-allowed-networks')).toContainText('203.0.113.0/24');
  expect(await lookup(request, replacement)).toBe(401);
  await checkBothSizes(owner, testInfo, 'credenciales-direcciones');
  await networks.fill('');
  await owner.getByRole('button', { name: 'Guardar direcciones' }).click();
  await expect(owner.getByText('Lista vacía: se aceptan solicitudes desde cualquier dirección.')).toBeVisible();
  expect(await lookup(request, replacement)).toBe(200);
  await ownerContext.close();

  // The administrator reads what the integrator's people did on the integration's Portal section,
  // newest first, and follows its link to the audit list filtered to them.
  const reviewContext = await browser.newContext({ viewport: DESKTOP, extraHTTPHeaders: { 'x-forwarded-for': '10.63.0.4' } });
  const reviewer = await reviewContext.newPage();
  await openConsoleAsAdmin(reviewer);
  await reviewer.goto(`${baseUrl}/admin/integraciones/${id}/portal`);
  const activity = reviewer.getByTestId('portal-activity');
  await expect(activity.getByRole('heading', { name: 'Actividad del portal' })).toBeVisible();
  const activityRows = activity.getByTestId('portal-activity-list').locator('tbody tr');
  const developerWho = `Integrador: ${developerEmail} (${nombre})`;
  const ownerWho = `Integrador: ${ownerEmail} (${nombre})`;
  const expected = [
    [ownerWho, 'Cambió las direcciones IP permitidas'],
    [ownerWho, 'Cambió las direcciones IP permitidas'],
    [developerWho, 'Revocó un token'],
    [developerWho, 'Rotó el token'],
    [developerWho, 'Creó un token'],
  ];
  await expect(activityRows).toHaveCount(expected.length);
  for (const [index, [who, what]] of expected.entries()) {
    await expect(activityRows.nth(index).locator('td').nth(1)).toHaveText(who!);
    await expect(activityRows.nth(index).locator('td').nth(2)).toHaveText(what!);
  }
  await checkBothSizes(reviewer, testInfo, 'consola-actividad-del-portal');
  await activity.getByRole('link', { name: 'Ver estos cambios con sus valores en Auditoría' }).click();
  await expect(reviewer.getByRole('heading', { name: 'Auditoría', level: 1 })).toBeVisible();
  const auditRows = reviewer.getByTestId('audit').locator('tbody tr');
  await expect(auditRows).toHaveCount(expected.length);
  await expect(auditRows.first()).toContainText(ownerWho);
  await expect(auditRows.first()).toContainText('203.0.113.0/24');
  await expect(auditRows.last()).toContainText(developerWho);
  await reviewContext.close();
});
