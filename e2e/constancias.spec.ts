// Issue 68's "done when" for the examiner, in chromium at 1366 and 390 px with axe: an administrator
// switches receipts on for an integration; its system asks a lookup with x-constancia: true; the
// owner downloads the query's «Constancia de consulta» from the portal with a reason; the PDF's QR
// code holds the address the portal links to, which opens /verificar and says it is valid; the same
// receipt with one character changed, pasted there, says it is not, in Spanish.
import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { samplePopulation } from '../simulator/population';
import { qrModulesOf, qrModulesOfPdf } from '../tests/support/pdf-qr';
import { openConsoleAsAdmin, settings } from './support/console';
import { acceptPrintedInvitation, checkBothSizes, createIntegrationThroughConsole, DESKTOP, inviteThroughConsole } from './support/portal';

const PASSWORD = 'constancia firmada en el expediente';

test('la constancia del portal: su PDF lleva a /verificar, que dice válida, y alterada dice que no lo es', async ({ browser, request }, testInfo) => {
  test.setTimeout(300_000);
  const { baseUrl } = settings();
  const NIT = samplePopulation({ seed: Number(process.env.E2E_SIMULATOR_SEED) }).omiso.nit;
  const stamp = Date.now().toString(36);
  const nombre = `constancias-${stamp}`;
  const ownerEmail = `duena-constancias-${stamp}@example.com`;

  const adminContext = await browser.newContext({ viewport: DESKTOP, extraHTTPHeaders: { 'x-forwarded-for': '10.68.0.1' } });
  const admin = await adminContext.newPage();
  await openConsoleAsAdmin(admin);
  const { token, id } = await createIntegrationThroughConsole(admin, { nombre, tariff: '1.50', balance: '50.00', omisos: true });
  // The summary's switch, saved at once.
  const receipts = admin.getByTestId('switch-constancias');
  await expect(receipts).toHaveAttribute('aria-checked', 'false');
  await receipts.click();
  await expect(admin.getByTestId('saved-constancias')).toHaveText('Guardado ✓');
  await expect(receipts).toHaveAttribute('aria-checked', 'true');
  await inviteThroughConsole(admin, id, ownerEmail);

  // The integrator's system asks for a receipt with its lookup.
  const credentials = { 'x-integracion-login': nombre, 'x-integracion-token': token, 'x-forwarded-for': '198.51.100.68' };
  const answer = await request.post(`${baseUrl}/api/catalogos/omisos`, { headers: { ...credentials, 'x-constancia': 'true' }, data: { nit: NIT } });
  expect(answer.status(), await answer.text()).toBe(200);
  const requestId = answer.headers()['x-request-id']!;
  const constanciaId = answer.headers()['x-constancia-id']!;
  expect(constanciaId).toMatch(/^[0-9a-f-]{36}$/);
  const receipt = ((await (await request.get(answer.headers()['x-constancia-url']!, { headers: credentials })).json()) as { constancia: string }).constancia;

  // The owner opens the query in the portal: its constancia, and its PDF for a reason.
  const context = await browser.newContext({ viewport: DESKTOP, extraHTTPHeaders: { 'x-forwarded-for': '10.68.0.2' }, acceptDownloads: true });
  const owner = await context.newPage();
  await acceptPrintedInvitation(owner, { email: ownerEmail, name: 'Dueña de constancias', password: PASSWORD }, nombre);
  await owner.goto(`${baseUrl}/portal/consultas/${requestId}`);
  const card = owner.getByTestId('constancia-card');
  await expect(card.getByTestId('constancia-id')).toHaveText(constanciaId);
  await checkBothSizes(owner, testInfo, 'consulta-con-constancia');
  await card.getByTestId('constancia-reason').fill('Expediente del cliente 4821');
  const [download] = await Promise.all([owner.waitForEvent('download'), card.getByTestId('constancia-download').click()]);
  expect(download.suggestedFilename()).toBe(`constancia-${constanciaId}.pdf`);
  const pdf = fs.readFileSync((await download.path())!);

  // The PDF's QR code holds the address the portal links to.
  const address = (await card.getByTestId('constancia-verification-link').getAttribute('href'))!;
  expect(new URL(address).pathname + new URL(address).search).toBe(`/verificar?constancia=${constanciaId}`);
  expect(qrModulesOfPdf(pdf)).toEqual(qrModulesOf(address));

  // That address: valid, with what was asked and answered.
  const examiner = await (await browser.newContext({ viewport: DESKTOP, extraHTTPHeaders: { 'x-forwarded-for': '10.68.0.3' } })).newPage();
  await examiner.goto(address);
  await expect(examiner.getByTestId('verification-verdict')).toHaveText('Constancia válida');
  await expect(examiner.getByTestId('verification-result')).toContainText(NIT);
  await checkBothSizes(examiner, testInfo, 'verificar-valida');

  // The receipt with one character of its payload changed, pasted: not valid, and why.
  const [header, payload, signature] = receipt.split('.') as [string, string, string];
  const tampered = `${header}.${payload.slice(0, 60)}${payload[60] === 'A' ? 'B' : 'A'}${payload.slice(61)}.${signature}`;
  await examiner.goto(`${baseUrl}/verificar`);
  await examiner.getByTestId('verification-input').fill(tampered);
  await examiner.getByTestId('verification-submit').click();
  await expect(examiner.getByTestId('verification-verdict')).toHaveText('La constancia no es válida');
  await expect(examiner.getByTestId('verification-reason')).toHaveText('La firma no corresponde al contenido: la constancia fue alterada.');
  await checkBothSizes(examiner, testInfo, 'verificar-alterada');
  // And the receipt as issued, pasted: valid.
  await examiner.getByTestId('verification-input').fill(receipt);
  await examiner.getByTestId('verification-submit').click();
  await expect(examiner.getByTestId('verification-verdict')).toHaveText('Constancia válida');
});
