// Issue 35, point 6 (the portal's half), in chromium at 1366 and 390 px with axe: a developer
// uploads a CSV of NITs (a header, an invalid one, a repeat), reads what will run and what it may
// cost before anything exists, confirms, watches the job complete against the simulator and
// downloads its results with a reason; the job's page, the list and the results agree.
import { expect, test } from '@playwright/test';
import { samplePopulation } from '../simulator';
import { csvRows, openConsoleAsAdmin } from './support/console';
import { acceptPrintedInvitation, checkBothSizes, createIntegrationThroughConsole, DESKTOP, inviteThroughConsole, openSection } from './support/portal';

const PASSWORD = 'lista de proveedores revisada cada mes';

test('un desarrollador sube un CSV, lee el costo estimado, confirma y descarga los resultados del lote terminado', async ({ browser }, testInfo) => {
  test.setTimeout(300_000);
  const stamp = Date.now().toString(36);
  const nombre = `lotes-${stamp}`;
  const developerEmail = `dev-lotes-${stamp}@example.com`;
  const sample = samplePopulation({ seed: Number(process.env.E2E_SIMULATOR_SEED) });
  const omiso = sample.omiso.nit!;
  const individual = sample.individual.nit!;

  const adminContext = await browser.newContext({ viewport: DESKTOP, extraHTTPHeaders: { 'x-forwarded-for': '10.63.0.1' } });
  const admin = await adminContext.newPage();
  await openConsoleAsAdmin(admin);
  const { id } = await createIntegrationThroughConsole(admin, { nombre, balance: '100.00', tariff: '1.50', omisos: true });
  await inviteThroughConsole(admin, id, developerEmail, 'Desarrollador');
  await adminContext.close();

  const context = await browser.newContext({ viewport: DESKTOP, acceptDownloads: true, extraHTTPHeaders: { 'x-forwarded-for': '10.63.0.2' } });
  const developer = await context.newPage();
  await acceptPrintedInvitation(developer, { email: developerEmail, name: 'Desarrollo de lotes', password: PASSWORD }, nombre);

  await openSection(developer, 'Lotes');
  await expect(developer.getByText('Su integración todavía no tiene lotes.')).toBeVisible();
  await checkBothSizes(developer, testInfo, 'lotes-vacia');

  await developer.getByTestId('new-bulk-job').click();
  await expect(developer.getByRole('heading', { name: 'Nuevo lote', level: 1 })).toBeVisible();
  // Only the catalog the integration has enabled is offered.
  await expect(developer.getByLabel('Catálogo').locator('option')).toHaveText(['Catálogo omisos']);
  const file = ['NIT,Proveedor', `${omiso},Proveedor omiso`, `${individual},Proveedor al día`, '12345678,Mal escrito', `${omiso},Repetido`, sample.unknownNit].join('\n');
  await developer.getByLabel('Archivo CSV').setInputFiles({ name: 'proveedores.csv', mimeType: 'text/csv', buffer: Buffer.from(file) });
  await developer.getByRole('button', { name: 'Calcular costo' }).click();

  const estimate = developer.getByTestId('bulk-estimate-result');
  await expect(estimate.getByTestId('estimate-to-run')).toHaveText('3 identificadores válidos, sin repetir');
  await expect(estimate.getByTestId('estimate-set-aside')).toHaveText('1 inválido y 1 repetido, de 5 en el archivo');
  await expect(estimate.getByTestId('estimate-max-cost')).toHaveText('Q 4.50 (3 × Q 1.50)');
  await expect(estimate.getByTestId('estimate-balance')).toHaveText('Q 100.00');
  await expect(estimate).toContainText('Solo se cobran los que se encuentran');
  await checkBothSizes(developer, testInfo, 'lotes-estimado');

  await estimate.getByRole('button', { name: 'Confirmar y crear el lote' }).click();
  await expect(developer.getByRole('heading', { name: 'Lote «proveedores.csv»', level: 1 })).toBeVisible();
  await expect(developer).toHaveURL(/\/portal\/lotes\/lote_[0-9a-f]{20}$/);
  // Nothing in the address but the job's id.
  expect(developer.url()).not.toContain(omiso);

  // The runner finishes it against the simulator: the omiso and the individual found, the unknown not.
  await expect(async () => {
    await developer.reload();
    await expect(developer.getByTestId('bulk-job-state')).toHaveText('Completado', { timeout: 1_000 });
  }).toPass({ timeout: 120_000 });
  await expect(developer.getByTestId('bulk-job-progress')).toHaveText('5 de 5');
  await expect(developer.getByTestId('bulk-job-found')).toHaveText('2');
  await expect(developer.getByTestId('bulk-job-not-found')).toHaveText('1');
  await expect(developer.getByTestId('bulk-job-set-aside')).toHaveText('2 (1 repetido)');
  await expect(developer.getByTestId('bulk-job-charged')).toHaveText('Q 3.00');
  await expect(developer.getByRole('button', { name: 'Cancelar lote' })).toHaveCount(0);
  await checkBothSizes(developer, testInfo, 'lote-completado');

  await developer.getByLabel('Motivo').fill('Revisar proveedores omisos del mes');
  const [download] = await Promise.all([developer.waitForEvent('download'), developer.getByRole('button', { name: 'Descargar resultados (CSV)' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^lote_[0-9a-f]{20}\.csv$/);
  const bytes = await (await download.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks));
  // A byte-order mark first, so Excel reads the accents ("Sí", "inválido").
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const rows = csvRows(bytes.toString('utf8'));
  expect(rows.map((row) => [row.posicion, row.identificador, row.estado, row.motivo])).toEqual([
    ['1', omiso, 'encontrado', ''],
    ['2', individual, 'encontrado', ''],
    ['3', '12345678', 'invalido', 'nit_invalido'],
    ['4', omiso, 'invalido', 'duplicado'],
    ['5', sample.unknownNit, 'no_encontrado', ''],
  ]);
  // No answer as JSON in one cell: the flat columns below tell it.
  expect(Object.keys(rows[0]!)).not.toContain('datos');
  // The same rows in words, and the answer in columns an accountant filters by.
  expect(rows.map((row) => [row.estado_descripcion, row.motivo_descripcion])).toEqual([
    ['Encontrado', ''],
    ['Encontrado', ''],
    ['Apartado', 'NIT inválido'],
    ['Apartado', 'Repetido en la lista'],
    ['No encontrado', ''],
  ]);
  expect([rows[0]!.omiso, rows[4]!.omiso]).toEqual(['Sí', '']);

  await openSection(developer, 'Lotes');
  const row = developer.getByTestId('bulk-job-row');
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId('bulk-job-state')).toHaveText('Completado');
  await expect(row.getByTestId('bulk-job-progress')).toHaveText('5 de 5');
  await expect(row.getByTestId('bulk-job-charged')).toHaveText('Q 3.00');
  await checkBothSizes(developer, testInfo, 'lotes');
  await context.close();
});
