// The portal's Vigilancia (issue 35, points 5 and 6) over HTTP against the built app and the
// simulator, on PGlite and on PostgreSQL: a developer uploads a CSV (a header, an invalid NIT, a
// repeat, an unknown one) and reads how many NITs the list keeps and what each run can cost before
// anything exists; the confirmation sent twice at once saves one list, whose first run the app's
// runner starts and finishes; the simulator turns one supplier omiso and the next run shows "Omiso:
// no → sí" with the NIT masked; an owner pauses, resumes and deletes it; each change is in the
// console's "Actividad del portal"; a developer shows that change's NIT and name with a reason and
// downloads the changes as CSV (in words, Guatemala time beside UTC), each logged as an access to
// personal data first; billing reads the lists and is refused every action, the reveal and the
// download; another integration's list is unknown.
import { randomUUID } from 'node:crypto';
import { and, eq, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/db/client';
import { auditLog, bulkJobs, personalDataAccess, watchLists } from '@/db/schema';
import { jobResults } from '@/lib/flows/bulk/results';
import { csvField } from '@/lib/platform/csv/csv';
import { WATCH_LIST_MESSAGES } from '@/lib/surfaces/api/watch-list-responses';
import { formatQuetzales } from '@/lib/platform/money';
import { buildOpenApiDocument } from '@/lib/surfaces/openapi/document';
import { PORTAL_ACTION_MESSAGES } from '@/lib/surfaces/portal/action';
import { BULK_FORM_MESSAGES } from '@/lib/surfaces/portal/bulk';
import { WATCH_FORM_MESSAGES } from '@/lib/surfaces/portal/watch-lists';
import { WATCH_DOWNLOAD_MESSAGES } from '@/lib/surfaces/portal/watch-list-download';
import { maskNit } from '@/lib/core/sealing/masking';
import { createWatchList, startDueRuns } from '@/lib/flows/watch-lists';
import { BULK_JOB_RUNNERS } from '@/lib/flows/portal-identity/roles';
import { createPopulation, DEFAULT_SIMULATOR_SEED } from '@/simulator';
import { createTestIntegration, eventually, startGateway, TEST_ACTOR, type Gateway, type TestIntegration } from '../conformance/harness';
import { setConstancias } from '@/lib/flows/integration-management/service';
import { addPortalMember, consoleSignedIn, newConsoleUser, portalSignedIn } from '../support/people';
import { expectPortalRefusal, portalNavLinks, says, type PortalClient } from '../support/portal-client';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';

const TARIFF = 150;
const DAY_MS = 86_400_000;
const people = {
  developer: 'dev-vigilancia@example.com',
  owner: 'duena-vigilancia@example.com',
  billing: 'conta-vigilancia@example.com',
} as const;

/** NITs the omisos catalog finds, neither omiso nor in coercive collection (as tests/bulk/watch-lists.test.ts picks them). */
const cleanNits = (() => {
  const population = createPopulation({ seed: DEFAULT_SIMULATOR_SEED });
  const nits: string[] = [];
  for (let index = 1; nits.length < 3; index++) {
    const member = population.member(index);
    if (member.classicNit && member.sourceHoldsCopy && member.quirks.length === 0 && member.omissions.length === 0 && !member.coerciveCollection) nits.push(member.classicNit);
  }
  return nits;
})();

let testDatabase: TestDatabase;
let gateway: Gateway;
let integration: TestIntegration;
let other: TestIntegration;
let developer: PortalClient;
let owner: PortalClient;
let billing: PortalClient;
let fileRows: string[];
let otherListId: string;

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  integration = await createTestIntegration('vigilancia-portal', { tariffCentavos: TARIFF, balanceCentavos: 100 * TARIFF });
  other = await createTestIntegration('vigilancia-portal-otra', { tariffCentavos: TARIFF, balanceCentavos: 100 * TARIFF });
  await addPortalMember(integration, people.developer, 'desarrollador');
  await addPortalMember(integration, people.owner, 'propietario');
  await addPortalMember(integration, people.billing, 'facturacion');
  // The other integration's list, paused so that no run of it competes with the runs below.
  const created = await createWatchList(other.id, { name: 'Ajena', catalog: 'omisos', schedule: 'semanal', nits: [cleanNits[2]!] });
  if (created.kind !== 'created') throw new Error('the other integration’s list was not saved');
  otherListId = created.list.publicId;
  await (await db()).update(watchLists).set({ state: 'en_pausa' }).where(eq(watchLists.publicId, otherListId));
  gateway = await startGateway(testDatabase, {
    env: { TRUSTED_PROXY_HOPS: '1', RATE_LIMIT_SIGN_IN_PER_MINUTE: '500', RATE_LIMIT_CATALOG_PER_MINUTE: '1000', BULK_POLL_MS: '100', BULK_CONCURRENCY: '4' },
  });
  developer = await portalSignedIn(gateway.app.baseUrl, people.developer);
  owner = await portalSignedIn(gateway.app.baseUrl, people.owner);
  billing = await portalSignedIn(gateway.app.baseUrl, people.billing);
  const [changing, steady] = cleanNits;
  // As a spreadsheet exports it: a header, the NIT in the first column, a name beside it.
  fileRows = [
    'nit,proveedor',
    `${changing},Proveedor uno`,
    '12345678,NIT mal escrito',
    `${gateway.sample.unknownNit},Desconocido`,
    `"${steady!.slice(0, -1)}-${steady!.slice(-1)}",Proveedor dos`,
    `${steady},Repetido sin guion`,
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

const NEW_PAGE = '/portal/vigilancia/nueva';
const estimate = (person: PortalClient, catalogo: string, file: Blob) => person.serverActionWithFiles(NEW_PAGE, 'estimatePortalWatchListAction', { catalogo }, { archivo: file });
const create = (person: PortalClient, fields: { nombre: string; catalogo: string; frecuencia: string; envio: string }, file: Blob) =>
  person.serverActionWithFiles(NEW_PAGE, 'createPortalWatchListAction', fields, { archivo: file });
const act = (person: PortalClient, name: 'pausePortalWatchListAction' | 'resumePortalWatchListAction' | 'deletePortalWatchListAction', vigilancia: string) =>
  person.serverAction(`/portal/vigilancia/${vigilancia}`, name, { vigilancia, envio: randomUUID() });
/** «Agregar o quitar NIT»: the two boxes as a person pastes them. */
const editNits = (person: PortalClient, vigilancia: string, agregar: string, quitar: string) =>
  person.serverAction(`/portal/vigilancia/${vigilancia}`, 'editPortalWatchListNitsAction', { vigilancia, agregar, quitar, envio: randomUUID() });

const listsOf = (of: TestIntegration) => gateway.withDatabase(async () => (await db()).select().from(watchLists).where(eq(watchLists.integrationId, of.id)).orderBy(watchLists.id));
const runsOf = (listPublicId: string) =>
  gateway.withDatabase(async (handle) =>
    handle.rows<{ public_id: string; state: string; run: number; computed: boolean }>(
      sql`select j.public_id, j.state, j.watch_list_run as run, j.changes_computed_at is not null as computed
        from bulk_jobs j join watch_lists w on w.id = j.watch_list_id where w.public_id = ${listPublicId} order by j.watch_list_run`,
    ),
  );
const untilCompared = (listPublicId: string, run: number) =>
  eventually(() => runsOf(listPublicId), (runs) => runs.some((candidate) => Number(candidate.run) === run && candidate.state === 'completado' && candidate.computed), 60_000, `run ${run} compared`);
const portalAudit = () =>
  gateway.withDatabase(async () =>
    (await db())
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetType, 'integration'), eq(auditLog.targetId, String(integration.id)), like(auditLog.action, 'watch_list.%')))
      .orderBy(auditLog.id),
  );
const plain = (html: string) => html.replaceAll('<!-- -->', '');

let listPath: string;
let listId: string;
let secondRun: string;

const accessesOf = (kind: 'reveal' | 'export') => gateway.withDatabase(async () => (await db()).select().from(personalDataAccess).where(eq(personalDataAccess.kind, kind)).orderBy(personalDataAccess.id));
const reveal = (person: PortalClient, fields: { vigilancia: string; cambio: string; motivo: string }) =>
  person.serverAction(`/portal/vigilancia/${fields.vigilancia}`, 'revealPortalWatchListChangeAction', { ...fields, envio: randomUUID() });

describe('Vigilancia in the portal', { timeout: PROCESS_TEST_TIMEOUT_MS * 2 }, () => {
  it('shows a developer what the file will watch and what each run can cost before anything is saved', async () => {
    expect(portalNavLinks((await developer.request('/portal')).text)).toContain('/portal/vigilancia');
    const empty = await developer.request('/portal/vigilancia');
    expect(empty.status).toBe(200);
    expect(says(empty, 'Su integración todavía no vigila ninguna lista.')).toBe(true);
    const page = await developer.request(NEW_PAGE);
    expect(page.status).toBe(200);
    // Only the catalogs lib/flows/watch-lists watches: CUI/NIT has no state that changes.
    expect(page.text).toContain('Catálogo omisos');
    expect(page.text).toContain('Catálogo RTU');
    expect(page.text).not.toContain('Catálogo CUI/NIT');

    const answer = answerOf(await estimate(developer, 'omisos', csvFile(fileRows)));
    expect(answer.ok, answer.message).toBe(true);
    // Five NITs after the header: three kept, one invalid, one repeat; a run costs at most 3 × the tariff.
    expect(answer.data).toMatchObject({ catalog: 'omisos', total: 5, toRun: 3, invalid: 1, duplicates: 1, tariffCentavos: TARIFF, maxRunCostCentavos: 3 * TARIFF, balanceCentavos: 100 * TARIFF });
    expect(answer.data!.confirmation).toMatch(/^[0-9a-f-]{36}$/);
    expect(await listsOf(integration)).toHaveLength(0);

    // The Lotes upload's reading and limits.
    expect(answerOf(await estimate(developer, 'omisos', csvFile(['nit', ''])))).toMatchObject({ ok: false, fieldErrors: { archivo: BULK_FORM_MESSAGES.empty } });
    const tooMany = answerOf(await estimate(developer, 'omisos', csvFile(Array.from({ length: 10_001 }, () => cleanNits[0]!))));
    expect(tooMany).toMatchObject({ ok: false, fieldErrors: { archivo: BULK_FORM_MESSAGES.tooMany } });
    // A catalog it does not watch is refused.
    expect(answerOf(await estimate(developer, 'cui-nit', csvFile(fileRows)))).toMatchObject({ ok: false, fieldErrors: { catalogo: expect.any(String) } });
    // Nothing valid: nothing saved.
    const { confirmation: nothing } = answerOf(await estimate(developer, 'omisos', csvFile(['nit', '12345678']))).data as { confirmation: string };
    expect(answerOf(await create(developer, { nombre: 'Nada', catalogo: 'omisos', frecuencia: 'semanal', envio: nothing }, csvFile(['nit', '12345678'])))).toMatchObject({
      ok: false,
      fieldErrors: { archivo: WATCH_FORM_MESSAGES.nothingToWatch },
    });
    expect(await listsOf(integration)).toHaveLength(0);
  });

  it('saves one list for a confirmation sent twice at once, runs it, and shows a supplier turned omiso with its NIT masked', async () => {
    const { confirmation } = answerOf(await estimate(developer, 'omisos', csvFile(fileRows))).data as { confirmation: string };
    const fields = { nombre: 'Proveedores', catalogo: 'omisos', frecuencia: 'semanal', envio: confirmation };
    const answers = (await Promise.all([create(developer, fields, csvFile(fileRows)), create(developer, fields, csvFile(fileRows))])).map(answerOf);
    expect(answers.map((answer) => answer.ok)).toEqual([true, true]);
    expect(answers[0]!.data!.path).toBe(answers[1]!.data!.path);
    listPath = String(answers[0]!.data!.path);
    expect(listPath).toMatch(/^\/portal\/vigilancia\/vig_[0-9a-f]{20}$/);
    listId = listPath.split('/').at(-1)!;
    expect((await listsOf(integration)).map((list) => list.publicId)).toEqual([listId]);

    // The app's runner starts the baseline run at once and finishes it.
    const [baseline] = await untilCompared(listId, 1);
    const list = plain((await developer.request('/portal/vigilancia')).text);
    expect(list).toContain(listPath);
    expect(list).toContain('Proveedores');
    expect(list).toMatch(/data-testid="watch-list-entries">3</);
    expect(list).toMatch(/data-testid="watch-list-state"><span class="badge ok">Activa</);
    expect(list).toMatch(/data-testid="watch-list-changes">0</);

    // The supplier files nothing: the source records it omiso; a week later the list runs again.
    gateway.simulator.amendTaxpayer(cleanNits[0]!, { omiso: true });
    const started = await gateway.withDatabase(() => startDueRuns(new Date(Date.now() + 8 * DAY_MS)));
    expect(started.map((run) => run.listPublicId)).toEqual([listId]);
    await untilCompared(listId, 2);

    const page = await developer.request(listPath);
    expect(page.status).toBe(200);
    const text = plain(page.text);
    expect(text).toContain('Catálogo omisos');
    expect(text).toContain('Semanal');
    expect(text).toMatch(/data-testid="watch-list-change-count">1</);
    // Both runs, each a link to its job in Lotes.
    expect(text).toContain(`href="/portal/lotes/${baseline!.public_id}"`);
    expect(text).toContain(`href="/portal/lotes/${started[0]!.jobPublicId}"`);
    expect(text).toContain(formatQuetzales(2 * TARIFF));
    // The one change, in words, with the NIT masked and never in full.
    expect(text.match(/data-testid="watch-list-change"/g)).toHaveLength(1);
    expect(text).toContain(`data-testid="watch-change-nit">${maskNit(cleanNits[0]!)}<`);
    expect(text).toContain('data-testid="watch-change-values">Omiso: no → sí<');
    for (const nit of cleanNits.slice(0, 2)) {
      expect(text).not.toContain(nit);
      expect(list).not.toContain(nit);
    }
    const listed = plain((await developer.request('/portal/vigilancia')).text);
    expect(listed).toMatch(/data-testid="watch-list-changes">1</);
    secondRun = started[0]!.jobPublicId;
  });

  it('shows a developer the change’s NIT and name with a reason, and downloads the changes as CSV, each logged first', async () => {
    const [changing] = cleanNits;
    // The name as the run's answer gives it (the results CSV's nombre).
    const name = await gateway.withDatabase(async () => {
      for await (const row of (await jobResults(integration.id, secondRun))!) if (row.identificador === changing) return (row.datos as { nombre: string }).nombre;
      throw new Error('the changing NIT is not in its run');
    });
    expect(name).toMatch(/\S/);

    const page = await developer.request(listPath);
    expect(page.text).toContain('data-testid="watch-change-reveal"');
    expect(page.text).toContain('data-testid="watch-changes-form"');
    // The row names its change by run, position and kind: never the NIT, nor its name.
    const key = /\\?"changeKey\\?":\\?"([^"\\]+)/.exec(page.text)?.[1];
    expect(key).toBe('2.0.omiso');
    expect(page.text).not.toContain(changing);
    expect(page.text).not.toContain(name);

    // A reason is required, and nothing is logged without one.
    expect(answerOf(await reveal(developer, { vigilancia: listId, cambio: key!, motivo: '' }))).toMatchObject({ ok: false, fieldErrors: { motivo: expect.any(String) } });
    expect(await accessesOf('reveal')).toHaveLength(0);
    // Another integration's list, or a change the list does not have, reads as none.
    for (const [vigilancia, cambio] of [[otherListId, '2.0.omiso'], [listId, '2.0.cobro_coactivo'], [listId, '9.0.omiso'], [listId, `2.0.${changing}`]] as const) {
      expect(answerOf(await reveal(developer, { vigilancia, cambio, motivo: 'Revisar un proveedor' }))).toEqual({ ok: false, message: WATCH_FORM_MESSAGES.changeNotFound });
    }
    expect(await accessesOf('reveal')).toHaveLength(0);

    const shown = answerOf(await reveal(developer, { vigilancia: listId, cambio: key!, motivo: 'Revisar un proveedor que pasó a omiso' }));
    expect(shown).toEqual({ ok: true, message: WATCH_FORM_MESSAGES.revealed, data: { nit: changing, nombre: name } });
    const [revealed, ...more] = await accessesOf('reveal');
    expect(more).toHaveLength(0);
    expect(revealed).toMatchObject({ reason: 'Revisar un proveedor que pasó a omiso', details: { vigilancia: listId, ejecucion: 2, cambio: 'omiso' } });
    expect(revealed!.actor).toContain(people.developer);
    expect(JSON.stringify(revealed)).not.toContain(changing);

    // The download: asked from the page with a reason; its address carries the list's id only.
    const unreasoned = await developer.post(`${listPath}/cambios`, {}, { ejecucion: 'todas', motivo: '' });
    expect(unreasoned.status).toBe(400);
    expect((await developer.post(`${listPath}/cambios`, {}, { ejecucion: '2; drop', motivo: 'Revisar proveedores' })).status).toBe(400);
    const fromAddress = await developer.request(`${listPath}/cambios`);
    expect({ status: fromAddress.status, text: fromAddress.text }).toEqual({ status: 405, text: WATCH_DOWNLOAD_MESSAGES.fromThePage });
    expect(await accessesOf('export')).toHaveLength(0);

    for (const ejecucion of ['todas', '2']) {
      const download = await developer.post(`${listPath}/cambios`, {}, { ejecucion, motivo: 'Revisar los proveedores que cambiaron' });
      expect(download.status, download.text.slice(0, 300)).toBe(200);
      expect([...download.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const [header, line, ...rest] = download.text.replace(/^\uFEFF/, '').split('\r\n');
      expect(header).toBe('detectado_guatemala,detectado_utc,ejecucion,lote,nit,nombre,cambio,antes,despues');
      expect(rest).toEqual(['']);
      const match = /^(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}),(\d{4}-\d{2}-\d{2}T[\d:.]+Z),(.*)$/.exec(line!);
      expect(match, line).not.toBeNull();
      // Guatemala is UTC-6 all year.
      expect(new Date(`${match![1]!.replace(' ', 'T')}-06:00`).getTime()).toBe(Math.floor(new Date(match![2]!).getTime() / 1000) * 1000);
      expect(match![3]).toBe(`2,${secondRun},${changing},${csvField(name)},Omiso,no,sí`);
    }
    // A run without changes (the baseline) is a file with its header only.
    const baseline = await developer.post(`${listPath}/cambios`, {}, { ejecucion: '1', motivo: 'Revisar la base' });
    expect(baseline.text.replace(/^\uFEFF/, '')).toBe('detectado_guatemala,detectado_utc,ejecucion,lote,nit,nombre,cambio,antes,despues\r\n');
    const exports = await eventually(
      () => accessesOf('export'),
      (rows) => rows.length === 3 && rows.every((row) => typeof (row.details as { rows?: number }).rows === 'number'),
      10_000,
      'the downloads logged with their rows',
    );
    expect(exports.map((row) => [row.reason, row.details])).toEqual([
      ['Revisar los proveedores que cambiaron', { vigilancia: listId, ejecucion: 'todas', rows: 1 }],
      ['Revisar los proveedores que cambiaron', { vigilancia: listId, ejecucion: 2, rows: 1 }],
      ['Revisar la base', { vigilancia: listId, ejecucion: 1, rows: 0 }],
    ]);
    for (const row of exports) expect(row.actor).toContain(people.developer);
    // Another integration's list: the portal's missing-download page, nothing logged.
    const foreign = await developer.post(`/portal/vigilancia/${otherListId}/cambios`, {}, { ejecucion: 'todas', motivo: 'Revisar proveedores' });
    expect(foreign.status).toBe(404);
    expect(foreign.text).toContain(WATCH_DOWNLOAD_MESSAGES.notFound);
    expect(await accessesOf('export')).toHaveLength(3);

    // Billing reads the change masked, without the reveal or the download, and is refused both.
    const billingPage = plain((await billing.request(listPath)).text);
    expect(billingPage).toContain(`data-testid="watch-change-nit">${maskNit(changing!)}<`);
    expect(billingPage).not.toContain('watch-change-reveal');
    expect(billingPage).not.toContain('watch-changes-form');
    expect(billingPage).toContain('Los NIT completos y los nombres los ven y descargan propietario y desarrollador');
    expect(answerOf(await reveal(billing, { vigilancia: listId, cambio: key!, motivo: 'Conciliar' }))).toEqual({ ok: false, message: PORTAL_ACTION_MESSAGES.forbidden });
    expectPortalRefusal(await billing.post(`${listPath}/cambios`, {}, { ejecucion: 'todas', motivo: 'Conciliar el cobro' }), BULK_JOB_RUNNERS, 'descarga');
    expect(await accessesOf('reveal')).toHaveLength(1);
    expect(await accessesOf('export')).toHaveLength(3);
  });

  it('lets an owner add and remove NITs of the list, saying what was done and each NIT not taken, and the list keeps its history', async () => {
    const [changing, steady, third] = cleanNits;
    expect(plain((await owner.request(listPath)).text)).toContain('Agregar o quitar NIT');
    expect((await listsOf(integration))[0]!.totalEntries).toBe(3);
    // Pasted from a spreadsheet: one per line, a comma, an invalid NIT and one already watched.
    const edited = answerOf(await editNits(owner, listId, `${third}\n12345678, ${changing}\n`, `${steady!.slice(0, -1)}-${steady!.slice(-1)}`));
    expect(edited).toMatchObject({
      ok: true,
      message:
        'Se agregó 1 NIT y se quitó 1 NIT. La próxima ejecución guarda el estado de los agregados sin reportar cambios; desde la siguiente se comparan. ' +
        'No se tomaron 2: el 2.º de «Agregar» no es un NIT válido; el 3.º de «Agregar» está repetido o ya se vigila.',
    });
    expect((await listsOf(integration))[0]!.totalEntries).toBe(3);
    const page = plain((await owner.request(listPath)).text);
    expect(page).toMatch(/data-testid="watch-list-entries">3</);
    // Its runs and changes stay (the change found for `changing` is still listed).
    expect(page).toContain('data-testid="watch-list-change"');
    // A NIT the list does not have, and every NIT it has, are refused in words; nothing moves.
    expect(answerOf(await editNits(owner, listId, '', steady!))).toMatchObject({ ok: true, message: 'No cambió ningún NIT. No se tomó 1: el 1.º de «Quitar» esta vigilancia no lo tiene.' });
    expect(answerOf(await editNits(owner, listId, '', `${changing} ${third} ${gateway.sample.unknownNit}`))).toEqual({
      ok: false,
      message: 'Quitarlos dejaría la vigilancia sin ningún NIT. Para dejar de vigilar, elimine la vigilancia.',
      fieldErrors: { quitar: 'Quitarlos dejaría la vigilancia sin ningún NIT. Para dejar de vigilar, elimine la vigilancia.' },
    });
    expect(answerOf(await editNits(owner, listId, ' \n ', ''))).toMatchObject({ ok: false, message: 'Escriba al menos un NIT para agregar o para quitar.' });
    expect(answerOf(await editNits(owner, otherListId, third!, ''))).toEqual({ ok: false, message: WATCH_FORM_MESSAGES.notFound });
    expect(answerOf(await editNits(billing, listId, third!, ''))).toEqual({ ok: false, message: PORTAL_ACTION_MESSAGES.forbidden });
    expect((await listsOf(integration))[0]!.totalEntries).toBe(3);
    expect((await listsOf(other))[0]!.totalEntries).toBe(1);
  });

  it('lets an owner pause, resume and delete the list, each in the console’s Actividad del portal', async () => {
    expect(answerOf(await act(owner, 'pausePortalWatchListAction', listId))).toMatchObject({ ok: true, message: 'Vigilancia en pausa: no se ejecutará hasta que la reanude.' });
    let page = plain((await owner.request(listPath)).text);
    expect(page).toContain('En pausa');
    expect(page).toContain('Ninguna mientras esté en pausa');
    expect(page).toContain('Reanudar');
    // Paused: a tick long after its next instant starts nothing.
    expect(await gateway.withDatabase(() => startDueRuns(new Date(Date.now() + 30 * DAY_MS)))).toEqual([]);

    expect(answerOf(await act(owner, 'resumePortalWatchListAction', listId))).toMatchObject({ ok: true, message: 'Vigilancia reanudada.' });
    page = plain((await owner.request(listPath)).text);
    expect(page).toMatch(/data-testid="watch-list-state"><span class="badge ok">Activa</);
    expect(page).toContain('Pausar');

    // Another integration's list is unknown here, to its page and to every action.
    const foreign = await owner.request(`/portal/vigilancia/${otherListId}`);
    expect(foreign.status).toBe(404);
    expect(foreign.text).toContain('No existe esa vigilancia en su integración');
    for (const name of ['pausePortalWatchListAction', 'resumePortalWatchListAction', 'deletePortalWatchListAction'] as const) {
      expect(answerOf(await act(owner, name, otherListId))).toEqual({ ok: false, message: WATCH_FORM_MESSAGES.notFound });
    }
    expect(await listsOf(other)).toMatchObject([{ publicId: otherListId, state: 'en_pausa' }]);

    expect(answerOf(await act(owner, 'deletePortalWatchListAction', listId))).toMatchObject({ ok: true, message: 'Vigilancia eliminada.', data: { path: '/portal/vigilancia' } });
    expect((await owner.request(listPath)).status).toBe(404);
    expect(await listsOf(integration)).toHaveLength(0);
    // Its finished runs stay as jobs in Lotes.
    expect(await gateway.withDatabase(async () => (await db()).select().from(bulkJobs).where(eq(bulkJobs.integrationId, integration.id)))).toHaveLength(2);

    const audit = await portalAudit();
    expect(audit.map((entry) => [entry.action, entry.actor.includes(entry.action === 'watch_list.create' ? people.developer : people.owner)])).toEqual([
      ['watch_list.create', true],
      ['watch_list.remove_nits', true],
      ['watch_list.add_nits', true],
      ['watch_list.pause', true],
      ['watch_list.resume', true],
      ['watch_list.delete', true],
    ]);
    // Never a NIT in the audit.
    for (const nit of cleanNits) expect(JSON.stringify(audit)).not.toContain(nit);

    const support = await newConsoleUser('soporte-vigilancia@example.com', 'support', { name: 'Soporte' });
    const staff = await consoleSignedIn(gateway.app.baseUrl, support);
    const activity = await staff.request(`/admin/integraciones/${integration.id}/portal`);
    expect(activity.status).toBe(200);
    for (const label of ['Creó una vigilancia', 'Agregó NIT a una vigilancia', 'Quitó NIT de una vigilancia', 'Pausó una vigilancia', 'Reanudó una vigilancia', 'Eliminó una vigilancia']) expect(activity.text).toContain(label);
  });

  it('lets billing read the lists and refuses it every action', async () => {
    const { confirmation } = answerOf(await estimate(developer, 'rtu', csvFile(fileRows))).data as { confirmation: string };
    const created = answerOf(await create(developer, { nombre: 'Clientes', catalogo: 'rtu', frecuencia: 'mensual', envio: confirmation }, csvFile(fileRows)));
    const path = String(created.data!.path);
    const id = path.split('/').at(-1)!;

    expect(portalNavLinks((await billing.request('/portal')).text)).toContain('/portal/vigilancia');
    const list = await billing.request('/portal/vigilancia');
    expect(list.status).toBe(200);
    expect(list.text).toContain(path);
    expect(list.text).toContain('Mensual');
    expect(list.text).not.toContain('Nueva lista');
    const page = await billing.request(path);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Catálogo RTU');
    expect(page.text).not.toContain('Eliminar vigilancia');
    expect(page.text).not.toContain('Pausar');
    expect(page.text).not.toContain('Agregar o quitar NIT');

    expectPortalRefusal(await billing.request(NEW_PAGE), BULK_JOB_RUNNERS);
    expect(answerOf(await estimate(billing, 'rtu', csvFile(fileRows)))).toEqual({ ok: false, message: PORTAL_ACTION_MESSAGES.forbidden });
    expect(answerOf(await create(billing, { nombre: 'Otra', catalogo: 'rtu', frecuencia: 'mensual', envio: randomUUID() }, csvFile(fileRows)))).toEqual({
      ok: false,
      message: PORTAL_ACTION_MESSAGES.forbidden,
    });
    for (const name of ['pausePortalWatchListAction', 'resumePortalWatchListAction', 'deletePortalWatchListAction'] as const) {
      expect(answerOf(await act(billing, name, id))).toEqual({ ok: false, message: PORTAL_ACTION_MESSAGES.forbidden });
    }
    expect(await listsOf(integration)).toMatchObject([{ publicId: id, state: 'activa' }]);
  });
});

/** A /docs block's text as a reader sees it (React escapes quotes in text). */
const decoded = (html: string) => html.replaceAll('&quot;', '"').replaceAll('&#x27;', "'").replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&').replaceAll('<!-- -->', '');

describe('Vigilancia in /docs', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('documents every watch-list operation of the OpenAPI document, with its fields, errors and samples that state BASE_URL, LOGIN and TOKEN', async () => {
    const docs = await fetch(`${gateway.app.baseUrl}/docs`);
    expect(docs.status).toBe(200);
    const html = decoded(await docs.text());
    expect(html).toMatch(/<a href="#vigilancias">Vigilancia<\/a>/);
    const start = html.indexOf('<section id="vigilancias"');
    expect(start).toBeGreaterThan(0);
    const section = html.slice(start, html.indexOf('<section id="webhook"', start));
    expect(section).toContain('Vigilancia: su lista de NIT revisada cada mes o cada semana');

    const document = buildOpenApiDocument(`${gateway.app.baseUrl}/api`);
    const operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item as Record<string, { operationId: string; tags?: string[] }>)
        .filter(([, operation]) => operation.tags?.includes('vigilancias'))
        .map(([method, operation]) => ({ path, method: method.toUpperCase(), operationId: operation.operationId })),
    );
    // The samples address the list the document's examples show.
    const exampleId = (document.paths['/vigilancias/{id}'] as { get: { responses: Record<string, { content: Record<string, { example: { id: string } }> }> } }).get.responses['200']!.content['application/json']!.example.id;
    expect(exampleId).toMatch(/^vig_[0-9a-f]{20}$/);
    expect(operations.map(({ method, path }) => `${method} ${path}`).sort()).toEqual([
      'DELETE /vigilancias/{id}',
      'GET /vigilancias',
      'GET /vigilancias/{id}',
      'GET /vigilancias/{id}/cambios',
      'PATCH /vigilancias/{id}',
      'POST /vigilancias',
    ]);
    for (const { path, method, operationId } of operations) {
      const at = section.indexOf(`<section id="${operationId}"`);
      expect(at, operationId).toBeGreaterThan(0);
      const block = section.slice(at, section.indexOf('</section>', at));
      expect(block).toContain(`<span class="method">${method}</span> <code>${path}</code>`);
      // Every sample states the three variables first and calls BASE_URL's address.
      expect(block).toContain(`BASE_URL='${gateway.app.baseUrl}/api'`);
      expect(block).toContain("LOGIN='");
      expect(block).toContain("TOKEN='");
      expect(block).toContain(`curl -sS -X ${method} "$BASE_URL${path.replace('{id}', exampleId)}"`);
      // Its errors: an unknown id is a 404 with the API's message.
      if (path !== '/vigilancias') expect(block).toContain(WATCH_LIST_MESSAGES.notFound);
    }
    // The creation: its body's fields, its required Idempotency-Key, and its 400s.
    const create = section.slice(section.indexOf('<section id="createWatchList"'));
    for (const field of ['nombre', 'catalogo', 'frecuencia', 'nits']) expect(create).toContain(`<code>${field}</code>`);
    expect(create).toContain("-H 'Idempotency-Key: proveedores-vigilancia'");
    expect(create).toContain(WATCH_LIST_MESSAGES.idempotencyKeyMissing);
    // The deletion answers 204 without a body: its samples print the status only.
    const remove = section.slice(section.indexOf('<section id="deleteWatchList"'), section.indexOf('</section>', section.indexOf('<section id="deleteWatchList"')));
    expect(remove).toContain('HttpMethod.Delete');
    expect(remove).toContain('requests.delete(');
    expect(remove).not.toContain('.json()');
    // The changes' fields and the portal's way to read them.
    for (const field of ['antes', 'despues', 'ejecucion', 'lote', 'detectado_en', 'siguiente']) expect(section).toContain(field);
    expect(section).toContain('descargan los cambios en CSV');
  });
});

describe('a new list with constancias in the portal', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('is offered only where the integration has them, and the list asks for them', async () => {
    const rows = ['nit', cleanNits[2]!];
    const withConstancias = async () => {
      const { confirmation } = answerOf(await estimate(developer, 'omisos', csvFile(rows))).data as { confirmation: string };
      return answerOf(
        await developer.serverActionWithFiles(NEW_PAGE, 'createPortalWatchListAction', { nombre: 'Con constancias', catalogo: 'omisos', frecuencia: 'mensual', envio: confirmation, constancias: true }, { archivo: csvFile(rows) }),
      );
    };
    expect((await developer.request(NEW_PAGE)).text).not.toContain('data-testid="watch-constancias"');
    expect(await withConstancias()).toMatchObject({ ok: false, message: BULK_FORM_MESSAGES.constanciasNotEnabled });

    expect((await setConstancias(TEST_ACTOR, integration.id, true)).ok).toBe(true);
    expect((await developer.request(NEW_PAGE)).text).toContain('data-testid="watch-constancias"');
    const created = await withConstancias();
    expect(created.ok, created.message).toBe(true);
    const saved = (await listsOf(integration)).find((list) => String(created.data!.path).endsWith(list.publicId))!;
    expect(saved.constancias).toBe(true);
    expect((await developer.request(String(created.data!.path))).text).toContain('data-testid="watch-list-constancias"');

    // A saved list: stopped and asked again from its page, each audited; refused while the integration has them off.
    const path = String(created.data!.path);
    const toggle = (vigilancia: string, constancias: 'si' | 'no') =>
      developer.serverAction(`/portal/vigilancia/${vigilancia}`, 'setPortalWatchListConstanciasAction', { vigilancia, constancias, envio: randomUUID() });
    expect(plain((await developer.request(path)).text)).toContain('Dejar de pedir constancias');
    expect(answerOf(await toggle(saved.publicId, 'no'))).toMatchObject({ ok: true, message: 'Desde su próxima ejecución, la vigilancia ya no pide constancias.' });
    expect((await developer.request(path)).text).not.toContain('data-testid="watch-list-constancias"');
    expect((await setConstancias(TEST_ACTOR, integration.id, false)).ok).toBe(true);
    expect(plain((await developer.request(path)).text)).not.toContain('Pedir constancias');
    expect(answerOf(await toggle(saved.publicId, 'si'))).toEqual({ ok: false, message: BULK_FORM_MESSAGES.constanciasNotEnabled });
    expect((await setConstancias(TEST_ACTOR, integration.id, true)).ok).toBe(true);
    expect(answerOf(await toggle(saved.publicId, 'si'))).toMatchObject({ ok: true, message: 'Desde su próxima ejecución, cada NIT encontrado trae su constancia de consulta.' });
    expect((await listsOf(integration)).find((list) => list.publicId === saved.publicId)!.constancias).toBe(true);
    // Another integration's list reads as unknown.
    expect(answerOf(await toggle(otherListId, 'no'))).toEqual({ ok: false, message: WATCH_FORM_MESSAGES.notFound });
    const changes = (await portalAudit()).filter((entry) => entry.action === 'watch_list.set_constancias');
    expect(changes.map((entry) => [entry.before, entry.after])).toEqual([
      [{ vigilancia: saved.publicId, constancias: true }, { vigilancia: saved.publicId, constancias: false }],
      [{ vigilancia: saved.publicId, constancias: false }, { vigilancia: saved.publicId, constancias: true }],
    ]);
  });
});
