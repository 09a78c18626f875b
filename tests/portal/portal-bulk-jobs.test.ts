// The portal's Lotes (issue 35, point 6) over HTTP against the built app and the simulator, on
// PGlite and on PostgreSQL: a developer uploads a CSV (a header, a repeat, an invalid NIT, an unknown
// one, a source fault) and reads the estimate before anything exists; the confirmation sent twice at
// once makes one job, which the app's runner finishes; the list and the job's page show its counts
// and charge; the results download is the API's CSV byte for byte, asked with a reason and written to
// the personal-data access log; a job waiting for balance is cancelled; billing reads the list and the
// amounts and is refused every action and the download; a catalog that is off offers nothing.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/db/client';
import { bulkJobs, personalDataAccess } from '@/db/schema';
import { balanceAndLedgerSum } from '@/lib/core/billing/ledger';
import { pauseJobAsAdmin } from '@/lib/flows/bulk/console';
import { setConstancias } from '@/lib/flows/integration-management/service';
import { BULK_DOWNLOAD_MESSAGES } from '@/lib/surfaces/portal/bulk-download';
import { BULK_FORM_MESSAGES } from '@/lib/surfaces/portal/bulk';
import { PORTAL_ACTION_MESSAGES } from '@/lib/surfaces/portal/action';
import { formatQuetzales } from '@/lib/platform/money';
import { BULK_JOB_RUNNERS } from '@/lib/flows/portal-identity/roles';
import { bulkResultsNotForRole } from '@/lib/surfaces/portal/refusals';
import { createPopulation, DEFAULT_SIMULATOR_SEED, FAULT_IDENTIFIERS } from '@/simulator';
import { createTestIntegration, credentialHeaders, eventually, startGateway, TEST_ACTOR, type Gateway, type TestIntegration } from '../conformance/harness';
import { addPortalMember, portalSignedIn } from '../support/people';
import { expectPortalRefusal, portalNavLinks, says, type PortalClient } from '../support/portal-client';
import { csvRows } from '../support/csv-rows';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';

const TARIFF = 150;
const people = {
  developer: 'dev-lotes@example.com',
  owner: 'duena-lotes@example.com',
  billing: 'conta-lotes@example.com',
  ownerWithoutBalance: 'duena-sin-saldo-lotes@example.com',
  ownerWithoutCatalogs: 'duena-sin-catalogos-lotes@example.com',
} as const;

/** NITs of the simulator's population whose RTU record the source holds: each is found. */
const knownNits = (() => {
  const population = createPopulation({ seed: DEFAULT_SIMULATOR_SEED });
  const nits: string[] = [];
  for (let index = 0; nits.length < 5; index++) {
    const member = population.member(index);
    if (member.classicNit && member.sourceHoldsCopy && member.quirks.length === 0) nits.push(member.classicNit);
  }
  return nits;
})();

let testDatabase: TestDatabase;
let gateway: Gateway;
let integration: TestIntegration;
let withoutBalance: TestIntegration;
let withoutCatalogs: TestIntegration;
let developer: PortalClient;
let billing: PortalClient;
let fileRows: string[];

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  integration = await createTestIntegration('lotes-portal', { tariffCentavos: TARIFF, balanceCentavos: 100 * TARIFF });
  withoutBalance = await createTestIntegration('lotes-portal-sin-saldo', { tariffCentavos: TARIFF, balanceCentavos: 0 });
  withoutCatalogs = await createTestIntegration('lotes-portal-sin-catalogos', {
    tariffCentavos: TARIFF,
    balanceCentavos: 100 * TARIFF,
    flags: { isCuiNitEnabled: false, isRtuV2Enabled: false, isOmisosEnabled: false },
  });
  await addPortalMember(integration, people.developer, 'desarrollador');
  await addPortalMember(integration, people.owner, 'propietario');
  await addPortalMember(integration, people.billing, 'facturacion');
  await addPortalMember(withoutBalance, people.ownerWithoutBalance, 'propietario');
  await addPortalMember(withoutCatalogs, people.ownerWithoutCatalogs, 'propietario');
  gateway = await startGateway(testDatabase, {
    env: { TRUSTED_PROXY_HOPS: '1', RATE_LIMIT_SIGN_IN_PER_MINUTE: '500', RATE_LIMIT_CATALOG_PER_MINUTE: '1000', BULK_POLL_MS: '100', BULK_CONCURRENCY: '4' },
  });
  developer = await portalSignedIn(gateway.app.baseUrl, people.developer);
  billing = await portalSignedIn(gateway.app.baseUrl, people.billing);
  const [first, second] = knownNits;
  // As a spreadsheet exports it: a header, the NIT in the first column, a name beside it.
  fileRows = [
    'nit,nombre',
    `${first},Proveedor uno`,
    '12345678,NIT mal escrito',
    `${gateway.sample.unknownNit},Desconocido`,
    `"${first!.slice(0, -1)}-${first!.slice(-1)}",Repetido con guion`,
    `${FAULT_IDENTIFIERS.server_error.nit},Falla de la fuente`,
    '',
    `${second},Proveedor dos`,
  ];
}, PROCESS_TEST_TIMEOUT_MS * 2);

afterAll(async () => {
  await gateway?.stop();
  await testDatabase?.cleanup();
});

const csvFile = (rows: string[]) => new Blob([`${rows.join('\r\n')}\r\n`], { type: 'text/csv' });

/** A server action's return value, from its flight answer (the line `1:…`). */
function answerOf(flight: { status: number; text: string }): { ok: boolean; message?: string; data?: Record<string, unknown>; fieldErrors?: Record<string, string> } {
  expect(flight.status, flight.text.slice(0, 300)).toBe(200);
  const line = flight.text.split('\n').find((candidate) => candidate.startsWith('1:'));
  if (!line) throw new Error(`no action answer in ${flight.text.slice(0, 300)}`);
  return JSON.parse(line.slice(2)) as never;
}

const estimate = (person: PortalClient, catalogo: string, file: Blob) => person.serverActionWithFiles('/portal/lotes/nuevo', 'estimatePortalBulkJobAction', { catalogo }, { archivo: file });
const create = (person: PortalClient, catalogo: string, file: Blob, confirmacion: string) =>
  person.serverActionWithFiles('/portal/lotes/nuevo', 'createPortalBulkJobAction', { catalogo, confirmacion }, { archivo: file });
const cancel = (person: PortalClient, lote: string) => person.serverAction(`/portal/lotes/${lote}`, 'cancelPortalBulkJobAction', { lote });

const jobsOf = (of: TestIntegration) => gateway.withDatabase(async () => (await db()).select().from(bulkJobs).where(eq(bulkJobs.integrationId, of.id)).orderBy(bulkJobs.id));
const balanceOf = async (of: TestIntegration) => {
  const money = await gateway.withDatabase(() => balanceAndLedgerSum(of.id));
  expect(money.ledgerSumCentavos).toBe(money.balanceCentavos);
  return money.balanceCentavos;
};

let jobPath: string;
let jobId: string;

describe('Lotes in the portal', { timeout: PROCESS_TEST_TIMEOUT_MS * 2 }, () => {
  it('shows a developer what the file will run and cost before anything exists', async () => {
    expect(portalNavLinks((await developer.request('/portal')).text)).toContain('/portal/lotes');
    const page = await developer.request('/portal/lotes/nuevo');
    expect(page.status).toBe(200);
    expect(page.text).toContain('Catálogo RTU');

    const answer = answerOf(await estimate(developer, 'rtu', csvFile(fileRows)));
    expect(answer.ok, answer.message).toBe(true);
    // Six identifiers after the header (the blank line skipped): four to run, one invalid, one repeat.
    expect(answer.data).toMatchObject({ catalog: 'rtu', total: 6, toRun: 4, invalid: 1, duplicates: 1, tariffCentavos: TARIFF, maxCostCentavos: 4 * TARIFF, balanceCentavos: 100 * TARIFF });
    expect(answer.data!.confirmation).toMatch(/^[0-9a-f]{32}$/);
    expect(await jobsOf(integration)).toHaveLength(0);
    expect(await balanceOf(integration)).toBe(100 * TARIFF);

    const empty = answerOf(await estimate(developer, 'rtu', csvFile(['nit', ''])));
    expect(empty).toMatchObject({ ok: false, fieldErrors: { archivo: BULK_FORM_MESSAGES.empty } });
    const tooMany = answerOf(await estimate(developer, 'rtu', csvFile(Array.from({ length: 10_001 }, () => knownNits[0]!))));
    expect(tooMany).toMatchObject({ ok: false, fieldErrors: { archivo: BULK_FORM_MESSAGES.tooMany } });
  });

  it('creates one job for a confirmation sent twice at once, and the runner finishes it', async () => {
    const { confirmation } = answerOf(await estimate(developer, 'rtu', csvFile(fileRows))).data as { confirmation: string };
    const [first, second] = await Promise.all([create(developer, 'rtu', csvFile(fileRows), confirmation), create(developer, 'rtu', csvFile(fileRows), confirmation)]);
    const answers = [answerOf(first), answerOf(second)];
    expect(answers.map((answer) => answer.ok)).toEqual([true, true]);
    expect(answers[0]!.data!.path).toBe(answers[1]!.data!.path);
    jobPath = String(answers[0]!.data!.path);
    expect(jobPath).toMatch(/^\/portal\/lotes\/lote_[0-9a-f]{20}$/);
    jobId = jobPath.split('/').at(-1)!;
    const jobs = await jobsOf(integration);
    expect(jobs.map((job) => job.publicId)).toEqual([jobId]);

    // The same confirmation with another file is not a second job.
    const reused = answerOf(await create(developer, 'rtu', csvFile(['nit', knownNits[2]!]), confirmation));
    expect(reused).toMatchObject({ ok: false, message: BULK_FORM_MESSAGES.keyReused });
    expect(await jobsOf(integration)).toHaveLength(1);

    const done = await eventually(() => developer.request(jobPath), (page) => page.text.includes('Completado'), 60_000, 'the job completed');
    expect(done.status).toBe(200);
    const text = done.text.replaceAll('<!-- -->', '');
    expect(text).toMatch(/data-testid="bulk-job-progress">6 de 6</);
    expect(text).toMatch(/data-testid="bulk-job-found">2</);
    expect(text).toMatch(/data-testid="bulk-job-not-found">1</);
    expect(text).toMatch(/data-testid="bulk-job-set-aside">2 \(1 repetido\)</);
    expect(text).toMatch(/data-testid="bulk-job-failed">1</);
    expect(text).toContain(`data-testid="bulk-job-charged">${formatQuetzales(2 * TARIFF)}<`);
    // Finished: nothing to cancel.
    expect(text).not.toContain('Cancelar lote');
    expect(await balanceOf(integration)).toBe(98 * TARIFF);

    const list = await developer.request('/portal/lotes');
    const listText = list.text.replaceAll('<!-- -->', '');
    expect(listText).toContain(jobPath);
    expect(listText).toMatch(/data-testid="bulk-job-progress">6 de 6</);
    expect(listText).toContain(`data-testid="bulk-job-charged">${formatQuetzales(2 * TARIFF)}<`);
    expect(listText).toContain('Completado');
    // No identifier on the list or the job's page.
    for (const nit of knownNits.slice(0, 2)) {
      expect(listText).not.toContain(nit);
      expect(text).not.toContain(nit);
    }
  });

  it('downloads the API’s CSV with a reason, logged as an access to personal data first', async () => {
    const unreasoned = await developer.post(`${jobPath}/resultados`, {}, { motivo: '' });
    expect(unreasoned.status).toBe(400);
    const fromAddress = await developer.request(`${jobPath}/resultados`);
    expect({ status: fromAddress.status, text: fromAddress.text }).toEqual({ status: 405, text: BULK_DOWNLOAD_MESSAGES.fromThePage });
    const accessesBefore = await gateway.withDatabase(async () => (await db()).select().from(personalDataAccess).where(eq(personalDataAccess.kind, 'export')));
    expect(accessesBefore).toHaveLength(0);

    const download = await developer.post(`${jobPath}/resultados`, {}, { motivo: 'Revisar proveedores del mes' });
    expect(download.status, download.text.slice(0, 300)).toBe(200);
    const api = await fetch(`${gateway.app.baseUrl}/api/lotes/${jobId}/resultados`, { headers: credentialHeaders(integration) });
    // The API's rows, the byte-order mark first (text() drops it), so Excel reads the accents; for
    // a person, without the answer's JSON cell (`datos`), which the flat columns tell in words.
    expect([...download.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const apiText = await api.text();
    expect(apiText.split('\r\n')[0]).toMatch(/^posicion,identificador,estado,motivo,respondido_en,fuente,fuente_id,request_id,datos,estado_descripcion,/);
    expect(download.text.split('\r\n')[0]).toMatch(/^posicion,identificador,estado,motivo,respondido_en,fuente,fuente_id,request_id,estado_descripcion,motivo_descripcion,respondido_en_guatemala,/);
    expect(csvRows(download.text)).toEqual(csvRows(apiText).map((row) => Object.fromEntries(Object.entries(row).filter(([column]) => column !== 'datos'))));
    expect(download.text).not.toContain('{"');
    expect(download.text).toContain(`1,${knownNits[0]},encontrado,`);

    const [entry] = await eventually(
      () => gateway.withDatabase(async () => (await db()).select().from(personalDataAccess).where(eq(personalDataAccess.kind, 'export'))),
      (rows) => rows.length === 1 && (rows[0]!.details as { rows?: number }).rows === 6,
      10_000,
      'the download logged with its rows',
    );
    expect(entry).toMatchObject({ reason: 'Revisar proveedores del mes', details: { lote: jobId, rows: 6 } });
    expect(entry!.actor).toContain(people.developer);
  });

  it('cancels a job waiting for balance: nothing pending is charged', async () => {
    const owner = await portalSignedIn(gateway.app.baseUrl, people.ownerWithoutBalance);
    const { confirmation } = answerOf(await estimate(owner, 'omisos', csvFile(knownNits))).data as { confirmation: string };
    const created = answerOf(await create(owner, 'omisos', csvFile(knownNits), confirmation));
    const path = String(created.data!.path);
    const lote = path.split('/').at(-1)!;
    const paused = await eventually(() => owner.request(path), (page) => page.text.includes('En pausa: sin saldo'), 60_000, 'the job paused');
    expect(paused.text).toContain('Cancelar lote');
    // An administrator pauses it from the console: the integrator's page says so, and why.
    expect((await gateway.withDatabase(() => pauseJobAsAdmin(TEST_ACTOR, lote, 'Revisión del consumo del mes'))).ok).toBe(true);
    const adminPaused = await owner.request(path);
    expect(adminPaused.text).toContain('Pausado por la administración');
    expect(adminPaused.text).toContain('La administración de la pasarela pausó el lote: no corre ninguna fila hasta que lo reanude. Motivo: Revisión del consumo del mes');
    expect(adminPaused.text).toContain('Cancelar lote');

    const cancelled = answerOf(await cancel(owner, lote));
    expect(cancelled).toMatchObject({ ok: true, message: 'Lote cancelado: lo pendiente no se consultará ni se cobrará.' });
    const page = await owner.request(path);
    expect(page.text).toContain('Cancelado');
    expect(page.text).not.toContain('Cancelar lote');
    expect(answerOf(await cancel(owner, lote))).toMatchObject({ ok: true, message: 'El lote ya estaba cancelado.' });
    expect((await jobsOf(withoutBalance)).map((job) => job.state)).toEqual(['cancelado']);
    expect(await balanceOf(withoutBalance)).toBe(0);

    // A finished job cannot be cancelled; another integration's job is unknown here.
    expect(answerOf(await cancel(developer, jobId))).toMatchObject({ ok: false, message: 'El lote ya terminó (completado): no queda nada por cancelar.' });
    expect(answerOf(await cancel(developer, lote))).toMatchObject({ ok: false, message: 'No existe ese lote en su integración.' });
    expect((await jobsOf(withoutBalance)).map((job) => job.state)).toEqual(['cancelado']);
  });

  it('lets billing read the list and the amounts, and refuses it every action and the download', async () => {
    expect(portalNavLinks((await billing.request('/portal')).text)).toContain('/portal/lotes');
    const list = await billing.request('/portal/lotes');
    expect(list.status).toBe(200);
    expect(list.text).toContain(jobPath);
    expect(list.text).toContain(formatQuetzales(2 * TARIFF));
    expect(list.text).not.toContain('Nuevo lote');
    const page = await billing.request(jobPath);
    expect(page.status).toBe(200);
    expect(page.text).toContain(formatQuetzales(2 * TARIFF));
    expect(page.text).not.toContain('Descargar resultados');
    // Billing sees why there are no results: they are for owners and developers.
    expect(page.text).toContain(bulkResultsNotForRole('facturacion'));
    expect(bulkResultsNotForRole('facturacion')).toContain('los descargan propietario y desarrollador');
    expect(page.text).not.toContain('Cancelar lote');

    expectPortalRefusal(await billing.request('/portal/lotes/nuevo'), BULK_JOB_RUNNERS);
    expect(answerOf(await estimate(billing, 'rtu', csvFile(fileRows)))).toEqual({ ok: false, message: PORTAL_ACTION_MESSAGES.forbidden });
    expect(answerOf(await create(billing, 'rtu', csvFile(fileRows), 'a'.repeat(32)))).toEqual({ ok: false, message: PORTAL_ACTION_MESSAGES.forbidden });
    expect(answerOf(await cancel(billing, jobId))).toEqual({ ok: false, message: PORTAL_ACTION_MESSAGES.forbidden });
    const download = await billing.post(`${jobPath}/resultados`, {}, { motivo: 'Conciliar el cobro' });
    expectPortalRefusal(download, BULK_JOB_RUNNERS, 'descarga');
    expect(await jobsOf(integration)).toHaveLength(1);
    expect(await gateway.withDatabase(async () => (await db()).select().from(personalDataAccess).where(eq(personalDataAccess.kind, 'export')))).toHaveLength(1);
  });

  it('offers nothing when the integration’s catalogs are off, and refuses a posted one', async () => {
    const owner = await portalSignedIn(gateway.app.baseUrl, people.ownerWithoutCatalogs);
    const page = await owner.request('/portal/lotes/nuevo');
    expect(page.status).toBe(200);
    expect(page.text).toContain('data-testid="bulk-no-catalogs"');
    expect(page.text).not.toContain('data-testid="bulk-file"');
    const refused = answerOf(await estimate(owner, 'rtu', csvFile(fileRows)));
    expect(refused).toMatchObject({ ok: false, message: BULK_FORM_MESSAGES.notEnabled });
    expect(answerOf(await create(owner, 'rtu', csvFile(fileRows), 'b'.repeat(32)))).toMatchObject({ ok: false, message: BULK_FORM_MESSAGES.notEnabled });
    expect(await jobsOf(withoutCatalogs)).toHaveLength(0);
    expect(says(page, 'no puede crear lotes')).toBe(true);
  });

  it('counts what the source refused apart from what was set aside, free and said in words, so the estimate and the result add up', async () => {
    // The RTU of a person whose record the source holds no copy of asks for a date of birth: refused.
    const rows = ['nit', knownNits[3]!, gateway.sample.withoutHeldCopy.nit!, '12345678'];
    const estimated = answerOf(await estimate(developer, 'rtu', csvFile(rows)));
    expect(estimated.data).toMatchObject({ total: 3, toRun: 2, invalid: 1, duplicates: 0 });
    const created = answerOf(await create(developer, 'rtu', csvFile(rows), String(estimated.data!.confirmation)));
    expect(created.ok, created.message).toBe(true);
    const path = String(created.data!.path);

    const done = await eventually(() => developer.request(path), (page) => page.text.includes('Completado'), 60_000, 'the job completed');
    const text = done.text.replaceAll('<!-- -->', '');
    // The two the estimate would run: one found, one refused; the one it set aside, still set aside.
    expect(text).toMatch(/data-testid="bulk-job-found">1</);
    expect(text).toMatch(/data-testid="bulk-job-not-found">0</);
    expect(text).toMatch(/data-testid="bulk-job-failed">0</);
    expect(text).toMatch(/<dt>Rechazados por la fuente, sin costo<\/dt><dd data-testid="bulk-job-rejected">1</);
    expect(text).toMatch(/data-testid="bulk-job-set-aside">1</);
    expect(text).toContain('los rechazados por la fuente (no aceptó el identificador');
    expect(text).toContain(`data-testid="bulk-job-charged">${formatQuetzales(TARIFF)}<`);

    // The jobs list counts them the same way: the refused one is not among the set-aside.
    const list = (await developer.request('/portal/lotes')).text.replaceAll('<!-- -->', '');
    // Each row's HTML, from its marker to the next (the page's flight data before the first one may name the path too).
    const row = list.split('data-testid="bulk-job-row"').slice(1).find((candidate) => candidate.includes(path))!;
    expect(row).toMatch(/data-testid="bulk-job-set-aside">1</);
    expect(row).toMatch(/data-label="Rechazados por la fuente, sin costo" data-testid="bulk-job-rejected">1</);
  });

  it('offers a constancia per found row only where the integration has them, and its job asks for them', async () => {
    const rows = ['nit', knownNits[4]!];
    const confirmed = async () => String(answerOf(await estimate(developer, 'rtu', csvFile(rows))).data!.confirmation);
    const withConstancias = async () =>
      answerOf(await developer.serverActionWithFiles('/portal/lotes/nuevo', 'createPortalBulkJobAction', { catalogo: 'rtu', confirmacion: await confirmed(), constancias: true }, { archivo: csvFile(rows) }));
    expect((await developer.request('/portal/lotes/nuevo')).text).not.toContain('data-testid="bulk-constancias"');
    expect(await withConstancias()).toMatchObject({ ok: false, message: BULK_FORM_MESSAGES.constanciasNotEnabled });

    expect((await setConstancias(TEST_ACTOR, integration.id, true)).ok).toBe(true);
    expect((await developer.request('/portal/lotes/nuevo')).text).toContain('data-testid="bulk-constancias"');
    const created = await withConstancias();
    expect(created.ok, created.message).toBe(true);
    const job = (await jobsOf(integration)).find((candidate) => String(created.data!.path).endsWith(candidate.publicId))!;
    expect(job.constancias).toBe(true);
    expect((await developer.request(String(created.data!.path))).text).toContain('data-testid="bulk-job-constancias"');
  });
});
