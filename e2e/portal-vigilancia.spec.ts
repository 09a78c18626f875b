// Issue 35, points 5 and 6 (the portal's Vigilancia), in chromium at 1366 and 390 px with axe: a
// developer uploads a CSV of NITs (a header, an invalid one, a repeat) as a monthly watch list,
// reads how many NITs it keeps and what each run may cost before anything is saved, confirms, sees
// its first run (a job) complete against the simulator and the list in Vigilancia; a second run
// finds a change, whose NIT and name the developer shows with a reason and downloads as CSV; then
// the developer pauses the list.
import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { createPopulation, samplePopulation } from '../simulator';
import { openConsoleAsAdmin } from './support/console';
import { withAppDatabase } from './support/database';
import { acceptPrintedInvitation, checkBothSizes, createIntegrationThroughConsole, DESKTOP, inviteThroughConsole, openSection } from './support/portal';

const PASSWORD = 'proveedores vigilados cada mes sin falta';

test('un desarrollador crea una vigilancia desde un CSV, lee el costo de cada ejecución, confirma y la ve en la lista', async ({ browser }, testInfo) => {
  test.setTimeout(300_000);
  const stamp = Date.now().toString(36);
  const nombre = `vigilancia-${stamp}`;
  const developerEmail = `dev-vigilancia-${stamp}@example.com`;
  const sample = samplePopulation({ seed: Number(process.env.E2E_SIMULATOR_SEED) });
  const omiso = sample.omiso.nit!;
  const individual = sample.individual.nit!;

  const adminContext = await browser.newContext({ viewport: DESKTOP, extraHTTPHeaders: { 'x-forwarded-for': '10.64.0.1' } });
  const admin = await adminContext.newPage();
  await openConsoleAsAdmin(admin);
  const { id } = await createIntegrationThroughConsole(admin, { nombre, balance: '100.00', tariff: '1.50', omisos: true });
  await inviteThroughConsole(admin, id, developerEmail, 'Desarrollador');
  await adminContext.close();

  const context = await browser.newContext({ viewport: DESKTOP, extraHTTPHeaders: { 'x-forwarded-for': '10.64.0.2' } });
  const developer = await context.newPage();
  await acceptPrintedInvitation(developer, { email: developerEmail, name: 'Desarrollo de vigilancia', password: PASSWORD }, nombre);

  await openSection(developer, 'Vigilancia');
  await expect(developer.getByText('Su integración todavía no vigila ninguna lista.')).toBeVisible();
  await checkBothSizes(developer, testInfo, 'vigilancia-vacia');

  await developer.getByTestId('new-watch-list').click();
  await expect(developer.getByRole('heading', { name: 'Nueva lista', level: 1 })).toBeVisible();
  // Only a catalog lib/flows/watch-lists watches and the integration has enabled.
  await expect(developer.getByLabel('Catálogo').locator('option')).toHaveText(['Catálogo omisos']);
  await developer.getByLabel('Nombre').fill('Proveedores del mes');
  await developer.getByLabel('Frecuencia').selectOption({ label: 'Mensual' });
  const file = ['NIT,Proveedor', `${omiso},Proveedor omiso`, `${individual},Proveedor al día`, '12345678,Mal escrito', `${omiso},Repetido`, sample.unknownNit].join('\n');
  await developer.getByLabel('Archivo CSV').setInputFiles({ name: 'proveedores.csv', mimeType: 'text/csv', buffer: Buffer.from(file) });
  await developer.getByRole('button', { name: 'Calcular costo' }).click();

  const estimate = developer.getByTestId('watch-estimate-result');
  await expect(estimate.getByTestId('watch-estimate-to-run')).toHaveText('3 NIT válidos, sin repetir');
  await expect(estimate.getByTestId('watch-estimate-set-aside')).toHaveText('1 inválido y 1 repetido, de 5 en el archivo; no se guardan');
  await expect(estimate.getByTestId('watch-estimate-max-cost')).toHaveText('Q 4.50 (3 × Q 1.50)');
  await expect(estimate.getByTestId('watch-estimate-balance')).toHaveText('Q 100.00');
  await expect(estimate.getByTestId('watch-estimate-charging')).toContainText('se cobra solo por los NIT que se encuentran');
  await checkBothSizes(developer, testInfo, 'vigilancia-estimado');

  await estimate.getByRole('button', { name: 'Confirmar y crear la vigilancia' }).click();
  await expect(developer.getByRole('heading', { name: 'Proveedores del mes', level: 1 })).toBeVisible();
  await expect(developer).toHaveURL(/\/portal\/vigilancia\/vig_[0-9a-f]{20}$/);
  // Nothing in the address but the list's id.
  expect(developer.url()).not.toContain(omiso);
  await expect(developer.getByTestId('watch-list-entries')).toHaveText('3');

  // Its first run is a job the runner finishes against the simulator: the omiso and the individual found.
  await expect(async () => {
    await developer.reload();
    await expect(developer.getByTestId('watch-list-run')).toContainText('Completado', { timeout: 1_000 });
  }).toPass({ timeout: 120_000 });
  await expect(developer.getByTestId('watch-list-run')).toContainText('Q 3.00');
  await expect(developer.getByText('Ningún cambio todavía: la primera ejecución es la base y las siguientes comparan contra ella.')).toBeVisible();
  await checkBothSizes(developer, testInfo, 'vigilancia-lista');

  // What no page can set up: the individual's last known state made the omiso's (its entry takes
  // the omiso's sealed snapshot) and the next run due now, so the runner's next look starts it and
  // it finds the individual changed.
  const listId = developer.url().split('/').at(-1)!;
  await withAppDatabase(async (sql) => {
    await sql`update watch_list_entries e set snapshot_sealed = o.snapshot_sealed
                from watch_lists w, watch_list_entries o
               where w.public_id = ${listId} and e.watch_list_id = w.id and e.position = 1 and o.watch_list_id = w.id and o.position = 0`;
    await sql`update watch_lists set next_run_at = now() - interval '1 second' where public_id = ${listId}`;
  });
  await expect(async () => {
    await developer.reload();
    await expect(developer.getByTestId('watch-list-change').first()).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 120_000 });
  const change = developer.getByTestId('watch-list-change').filter({ hasText: 'Omiso: sí → no' });
  await expect(change).toHaveCount(1);
  await expect(change.getByTestId('watch-change-nit')).not.toHaveText(individual);
  await expect(developer.locator('body')).not.toContainText(individual);

  // Shown with a reason: the NIT and the taxpayer's name, as the run's answer gives it.
  await change.getByRole('button', { name: 'Mostrar NIT y nombre' }).click();
  await change.getByLabel('Motivo (obligatorio)').fill('Revisar un proveedor que dejó de ser omiso');
  await change.getByRole('button', { name: 'Mostrar NIT y nombre' }).click();
  await expect(change.getByTestId('watch-change-revealed-nit')).toHaveText(individual);
  await expect(change.getByTestId('watch-change-revealed-name')).toHaveText(createPopulation({ seed: Number(process.env.E2E_SIMULATOR_SEED) }).member(sample.individual.index).satName);
  await expect(change.getByTestId('watch-change-revealed')).toContainText('El acceso quedó registrado con su nombre y su motivo');
  await checkBothSizes(developer, testInfo, 'vigilancia-cambio-mostrado');

  // Downloaded with a reason: a CSV for Excel, in words, the time in Guatemala beside UTC.
  const form = developer.getByTestId('watch-changes-form');
  await form.getByLabel('Ejecución').selectOption({ label: 'Ejecución 2' });
  await form.getByLabel('Motivo').fill('Revisar los proveedores que cambiaron');
  const [download] = await Promise.all([developer.waitForEvent('download'), form.getByRole('button', { name: 'Descargar cambios (CSV)' }).click()]);
  expect(download.suggestedFilename()).toBe(`${listId}-ejecucion-2-cambios.csv`);
  const bytes = fs.readFileSync(await download.path());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lines = bytes.subarray(3).toString('utf8').split('\r\n');
  expect(lines[0]).toBe('detectado_guatemala,detectado_utc,ejecucion,lote,nit,nombre,cambio,antes,despues');
  expect(lines.some((line) => line.includes(`,2,lote_`) && line.includes(`,${individual},`) && line.endsWith(',Omiso,sí,no'))).toBe(true);
  const changeCount = (await developer.getByTestId('watch-list-change-count').textContent())!;

  // Paused, asked first: no run starts until it is resumed.
  await developer.getByRole('button', { name: 'Pausar' }).click();
  await developer.getByRole('dialog', { name: '¿Pausar esta vigilancia?' }).getByRole('button', { name: 'Pausar' }).click();
  await expect(developer.getByTestId('watch-list-state')).toHaveText('En pausa');
  await expect(developer.getByTestId('watch-list-next-run')).toHaveText('Ninguna mientras esté en pausa');
  await expect(developer.getByRole('button', { name: 'Reanudar' })).toBeVisible();

  await openSection(developer, 'Vigilancia');
  const row = developer.getByTestId('watch-list-row');
  await expect(row).toHaveCount(1);
  await expect(row.getByRole('link', { name: 'Proveedores del mes' })).toBeVisible();
  await expect(row.getByTestId('watch-list-entries')).toHaveText('3');
  await expect(row.getByTestId('watch-list-state')).toHaveText('En pausa');
  await expect(row.getByTestId('watch-list-last-run')).toContainText('Completado');
  await expect(row.getByTestId('watch-list-changes')).toHaveText(changeCount);
  await expect(row).toContainText('Mensual');
  await checkBothSizes(developer, testInfo, 'vigilancias');
  await context.close();
});
