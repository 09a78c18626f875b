// An integrator's system reading its jobs and watch lists, and changing a watch list in place
// (issue 54, point 4), against the built app and the simulator, on PGlite and on PostgreSQL. Every
// answer is checked against the OpenAPI document; another integration's list reads as a missing
// one; each PATCH change is in the audit log and takes effect on the next run: a NIT added is
// compared only once it has a state, a NIT removed is gone with its state and its changes.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/db/client';
import { open } from '@/lib/core/sealing/envelope';
import { submitJob } from '@/lib/flows/bulk/jobs';
import { CONSOLE_JOBS_PAGE_SIZE } from '@/lib/flows/bulk/console';
import { createWatchList, pauseWatchList, startDueRuns, WATCH_LISTS_PAGE_SIZE } from '@/lib/flows/watch-lists';
import { nextRunAfter } from '@/lib/flows/watch-lists/schedule';
import { BULK_MESSAGES } from '@/lib/surfaces/api/bulk-responses';
import { WATCH_LIST_MESSAGES } from '@/lib/surfaces/api/watch-list-responses';
import { createPopulation, DEFAULT_SIMULATOR_SEED } from '@/simulator';
import { expectDocumentedResponse, type ObservedResponse } from '../support/openapi-validator';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';
import { createTestIntegration, credentialHeaders, eventually, startGateway, type Gateway, type TestIntegration } from '../conformance/harness';

const TARIFF = 150;
const DAY_MS = 86_400_000;

let testDb: TestDatabase;
let gateway: Gateway;
let main: TestIntegration;
let other: TestIntegration;
let many: TestIntegration;

/** NITs of taxpayers the omisos catalog finds, neither omiso nor in coercive collection. */
const cleanNits = (() => {
  const population = createPopulation({ seed: DEFAULT_SIMULATOR_SEED });
  const nits: string[] = [];
  for (let index = 1; nits.length < 4; index++) {
    const member = population.member(index);
    if (member.classicNit && member.sourceHoldsCopy && member.quirks.length === 0 && member.omissions.length === 0 && !member.coerciveCollection) nits.push(member.classicNit);
  }
  return nits;
})();

beforeAll(async () => {
  testDb = await useTestDatabase();
  main = await createTestIntegration('listas-principal', { tariffCentavos: TARIFF, balanceCentavos: 100 * TARIFF });
  other = await createTestIntegration('listas-otra', { tariffCentavos: TARIFF, balanceCentavos: 100 * TARIFF });
  many = await createTestIntegration('listas-muchas', { tariffCentavos: TARIFF, balanceCentavos: 0 });
  // More jobs and lists than a page holds, for `many`: jobs of set-aside identifiers only (nothing
  // runs), lists saved paused in their own transaction (no run ever starts).
  for (let index = 0; index <= CONSOLE_JOBS_PAGE_SIZE; index++) await submitJob(many.id, 'omisos', ['no-es-nit'], `lote-${index}`);
  for (let index = 0; index <= WATCH_LISTS_PAGE_SIZE; index++) {
    await (await db()).transaction(async (tx) => {
      const created = await createWatchList(many.id, { name: `Lista ${index}`, catalog: 'omisos', schedule: 'semanal', nits: [cleanNits[0]!] }, tx);
      if (created.kind !== 'created') throw new Error(created.kind);
      await pauseWatchList(many.id, created.list.publicId, tx);
    });
  }
  gateway = await startGateway(testDb, { env: { RATE_LIMIT_CATALOG_PER_MINUTE: '1000', BULK_API_PER_MINUTE: '1000', BULK_POLL_MS: '100', BULK_CONCURRENCY: '4' } });
});

afterAll(async () => {
  await gateway?.stop();
  await testDb?.cleanup();
});

let keys = 0;

/** A request as an integrator's system sends it, its answer checked against the document (`documented`: the path as the document names it). */
async function call(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, documented: string, as: TestIntegration, json?: unknown): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${gateway.app.baseUrl}/api${path}`, {
    method,
    headers: { ...credentialHeaders(as), ...(json === undefined ? {} : { 'content-type': 'application/json' }), ...(method === 'POST' ? { 'idempotency-key': `listas-${++keys}` } : {}) },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  const text = await response.text();
  const body = text === '' ? null : (JSON.parse(text) as unknown);
  if (response.status !== 204) {
    expectDocumentedResponse({ path: documented, method: method.toLowerCase() as ObservedResponse['method'], status: response.status, contentType: response.headers.get('content-type'), body });
  }
  return { status: response.status, body };
}

interface ListBody {
  id: string;
  nombre: string;
  frecuencia: string;
  estado: string;
  nits: number;
  proxima_ejecucion: string;
  creada_en: string;
  cambios: number;
  apartados?: { campo: string; posicion: number; motivo: string }[];
}

function runsOf(listId: string) {
  return gateway.withDatabase((handle) =>
    handle.rows<{ public_id: string; state: string; watch_list_run: number; computed: boolean }>(sql`
      select j.public_id, j.state, j.watch_list_run, j.changes_computed_at is not null as computed
        from bulk_jobs j join watch_lists w on w.id = j.watch_list_id where w.public_id = ${listId} order by j.watch_list_run`),
  );
}

function untilCompared(listId: string, run: number) {
  return eventually(
    () => runsOf(listId),
    (runs) => runs.some((candidate) => Number(candidate.watch_list_run) === run && candidate.state === 'completado' && candidate.computed),
    60_000,
    `run ${run} of ${listId} compared`,
  );
}

/** Starts the list's next run as if its instant had come (a day past it) and waits for its comparison. */
async function runNow(listId: string, run: number) {
  const list = (await call('GET', `/vigilancias/${listId}`, '/vigilancias/{id}', main)).body as ListBody;
  const started = await gateway.withDatabase(() => startDueRuns(new Date(Math.max(Date.now(), new Date(list.proxima_ejecucion).getTime()) + DAY_MS)));
  expect(started.map((one) => one.listPublicId)).toContain(listId);
  await untilCompared(listId, run);
}

/** The NITs the list keeps, opened as the app opens them. */
function storedNits(listId: string) {
  return gateway.withDatabase(async (handle) =>
    (await handle.rows<{ identifier_sealed: string }>(sql`
      select e.identifier_sealed from watch_list_entries e join watch_lists w on w.id = e.watch_list_id where w.public_id = ${listId} order by e.position`)).map((row) =>
      open(row.identifier_sealed, 'bulk_identifier'),
    ),
  );
}

function auditOf(listId: string) {
  return gateway.withDatabase((handle) =>
    handle.rows<{ actor: string; action: string; target_id: string; before: unknown; after: unknown }>(sql`
      select actor, action, target_id, before, after from audit_log where after->>'vigilancia' = ${listId} or before->>'vigilancia' = ${listId} order by id`),
  );
}

describe('the lists of jobs and watch lists', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('pages the jobs newest first by cursor, each as GET /lotes/{id} gives it, and only the caller’s', async () => {
    // Their runner completes them (nothing to look up): read once none is still changing.
    await eventually(
      () => gateway.withDatabase((handle) => handle.rows<{ n: number }>(sql`select count(*)::int as n from bulk_jobs where integration_id = ${many.id} and state <> 'completado'`)),
      (rows) => rows[0]!.n === 0,
      30_000,
      'the jobs completed',
    );
    const first = await call('GET', '/lotes', '/lotes', many);
    expect(first.status).toBe(200);
    const page1 = first.body as { lotes: { id: string; creado_en: string; estado: string }[]; siguiente: string | null };
    expect(page1.lotes).toHaveLength(CONSOLE_JOBS_PAGE_SIZE);
    expect(page1.siguiente).toEqual(expect.any(String));
    const second = (await call('GET', `/lotes?cursor=${encodeURIComponent(page1.siguiente!)}`, '/lotes', many)).body as typeof page1;
    expect(second.lotes).toHaveLength(1);
    expect(second.siguiente).toBeNull();
    const all = [...page1.lotes, ...second.lotes];
    expect(new Set(all.map((job) => job.id)).size).toBe(CONSOLE_JOBS_PAGE_SIZE + 1);
    const instants = all.map((job) => Date.parse(job.creado_en));
    expect(instants).toEqual([...instants].sort((a, b) => b - a));
    const one = await call('GET', `/lotes/${all[0]!.id}`, '/lotes/{id}', many);
    expect(all[0]).toEqual(one.body);
    // Another integration sees none of them; a cursor not given by the API is refused.
    expect((await call('GET', '/lotes', '/lotes', other)).body).toEqual({ lotes: [], siguiente: null });
    expect(await call('GET', '/lotes?cursor=nada', '/lotes', many)).toEqual({ status: 400, body: { message: BULK_MESSAGES.invalidCursor } });
    // A well-formed cursor past every id (beyond a 32-bit integer) pages from there, not a 500.
    const farCursor = Buffer.from(`${new Date().toISOString()}|${Number.MAX_SAFE_INTEGER}`, 'utf8').toString('base64url');
    const far = await call('GET', `/lotes?cursor=${farCursor}`, '/lotes', many);
    expect(far.status).toBe(200);
    expect((far.body as typeof page1).lotes).toHaveLength(CONSOLE_JOBS_PAGE_SIZE);
  });

  it('pages the watch lists newest first by cursor, and only the caller’s', async () => {
    const first = (await call('GET', '/vigilancias', '/vigilancias', many)).body as { vigilancias: ListBody[]; siguiente: string | null };
    expect(first.vigilancias).toHaveLength(WATCH_LISTS_PAGE_SIZE);
    expect(first.vigilancias[0]!.nombre).toBe(`Lista ${WATCH_LISTS_PAGE_SIZE}`);
    const second = (await call('GET', `/vigilancias?cursor=${first.siguiente}`, '/vigilancias', many)).body as typeof first;
    expect(second).toMatchObject({ vigilancias: [{ nombre: 'Lista 0', estado: 'en_pausa' }], siguiente: null });
    expect((await call('GET', '/vigilancias', '/vigilancias', other)).body).toEqual({ vigilancias: [], siguiente: null });
    // Another integration's cursor pages nothing of the owner's.
    expect((await call('GET', `/vigilancias?cursor=${first.siguiente}`, '/vigilancias', other)).body).toEqual({ vigilancias: [], siguiente: null });
    expect(await call('GET', '/vigilancias?cursor=nada', '/vigilancias', many)).toEqual({ status: 400, body: { message: WATCH_LIST_MESSAGES.invalidCursor } });
  });
});

describe('PATCH /vigilancias/{id}', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('adds and removes NITs: the next run compares only NITs with a state, and a removed NIT is gone with its changes', async () => {
    const [a, b, c] = cleanNits;
    const created = await call('POST', '/vigilancias', '/vigilancias', main, { nombre: 'Proveedores', catalogo: 'omisos', frecuencia: 'semanal', nits: [a!, b!] });
    expect(created.status).toBe(201);
    const listId = (created.body as ListBody).id;
    await untilCompared(listId, 1);
    // A turns omiso: run 2 reports it.
    gateway.simulator.amendTaxpayer(a!, { omiso: true });
    await runNow(listId, 2);
    expect((await call('GET', `/vigilancias/${listId}/cambios`, '/vigilancias/{id}/cambios', main)).body).toMatchObject({ cambios: [{ nit: a, tipo: 'omiso' }] });

    // A leaves, C joins (C already changed at its source: with no state yet, nothing is reported for it).
    gateway.simulator.amendTaxpayer(c!, { omiso: true });
    const edited = await call('PATCH', `/vigilancias/${listId}`, '/vigilancias/{id}', main, {
      quitar_nits: [`${a!.slice(0, -1)}-${a!.slice(-1)}`, '999999-9', 'no-es-nit'],
      agregar_nits: [c!, b!, c!],
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({
      id: listId,
      nits: 2,
      cambios: 0,
      apartados: expect.arrayContaining([
        { campo: 'quitar_nits', posicion: 3, motivo: 'nit_invalido' },
        { campo: 'agregar_nits', posicion: 2, motivo: 'duplicado' },
        { campo: 'agregar_nits', posicion: 3, motivo: 'duplicado' },
      ]),
    });
    const setAside = (edited.body as ListBody).apartados!;
    expect(setAside).toHaveLength(4);
    expect(setAside.find((entry) => entry.campo === 'quitar_nits' && entry.posicion === 2)?.motivo).toMatch(/^(no_vigilado|nit_invalido)$/);
    // A's NIT, its state and its change are gone from the database.
    expect(await storedNits(listId)).toEqual([b, c]);
    expect((await call('GET', `/vigilancias/${listId}/cambios`, '/vigilancias/{id}/cambios', main)).body).toEqual({ cambios: [], siguiente: null });
    const changeRows = await gateway.withDatabase((handle) => handle.rows<{ n: number }>(sql`select count(*)::int as n from watch_list_changes c join watch_lists w on w.id = c.watch_list_id where w.public_id = ${listId}`));
    expect(changeRows[0]!.n).toBe(0);

    // Run 3: B turned omiso is reported; C gets its first state and reports nothing; A is not looked up.
    gateway.simulator.amendTaxpayer(b!, { omiso: true });
    await runNow(listId, 3);
    const third = (await call('GET', `/vigilancias/${listId}/cambios`, '/vigilancias/{id}/cambios', main)).body as { cambios: { nit: string; ejecucion: number }[] };
    expect(third.cambios.map((change) => [change.nit, change.ejecucion])).toEqual([[b, 3]]);
    const [job3] = (await runsOf(listId)).filter((run) => Number(run.watch_list_run) === 3);
    expect((await call('GET', `/lotes/${job3!.public_id}`, '/lotes/{id}', main)).body).toMatchObject({ conteos: { total: 2 } });

    // Run 4: C changes back, and now that it has a state, it is compared.
    gateway.simulator.amendTaxpayer(c!, { omiso: false });
    await runNow(listId, 4);
    const fourth = (await call('GET', `/vigilancias/${listId}/cambios`, '/vigilancias/{id}/cambios', main)).body as { cambios: { nit: string; ejecucion: number; antes: unknown; despues: unknown }[] };
    expect(fourth.cambios.filter((change) => change.ejecucion === 4)).toEqual([expect.objectContaining({ nit: c, antes: true, despues: false })]);

    const audit = await auditOf(listId);
    expect(audit.map((row) => row.action)).toEqual(['watch_list.remove_nits', 'watch_list.add_nits']);
    for (const row of audit) {
      expect(row.actor).toBe(`api:${main.id} (${main.nombre})`);
      expect(row.target_id).toBe(String(main.id));
      expect(JSON.stringify(row)).not.toContain(a!.slice(0, -1));
      expect(JSON.stringify(row)).not.toContain(c!.slice(0, -1));
    }
    expect(audit.map((row) => row.after)).toEqual([
      { vigilancia: listId, nits: 1, quitados: 1 },
      { vigilancia: listId, nits: 2, agregados: 1 },
    ]);
  });

  it('renames, changes the frequency, pauses and resumes, each audited and in effect for the scheduler', async () => {
    const created = await call('POST', '/vigilancias', '/vigilancias', main, { nombre: 'Clientes', catalogo: 'omisos', frecuencia: 'semanal', nits: [cleanNits[3]!] });
    const listId = (created.body as ListBody).id;
    await untilCompared(listId, 1);

    const renamed = await call('PATCH', `/vigilancias/${listId}`, '/vigilancias/{id}', main, { nombre: 'Clientes grandes', frecuencia: 'mensual' });
    expect(renamed.status).toBe(200);
    const list = renamed.body as ListBody;
    expect(list).toMatchObject({ nombre: 'Clientes grandes', frecuencia: 'mensual', apartados: [] });
    // Monthly from its creation: a calendar month after it was saved, not seven days.
    expect(list.proxima_ejecucion).toBe(nextRunAfter('mensual', new Date(list.creada_en)).toISOString());

    const paused = await call('PATCH', `/vigilancias/${listId}`, '/vigilancias/{id}', main, { estado: 'en_pausa' });
    expect(paused.body).toMatchObject({ estado: 'en_pausa' });
    const later = new Date(new Date(list.proxima_ejecucion).getTime() + DAY_MS);
    expect((await gateway.withDatabase(() => startDueRuns(later))).map((run) => run.listPublicId)).not.toContain(listId);
    // Sending the same state again changes nothing and writes nothing.
    expect((await call('PATCH', `/vigilancias/${listId}`, '/vigilancias/{id}', main, { estado: 'en_pausa' })).status).toBe(200);
    expect((await call('PATCH', `/vigilancias/${listId}`, '/vigilancias/{id}', main, { estado: 'activa' })).body).toMatchObject({ estado: 'activa' });
    expect((await gateway.withDatabase(() => startDueRuns(later))).map((run) => run.listPublicId)).toContain(listId);

    const audit = await auditOf(listId);
    expect(audit.map((row) => [row.action, row.before, row.after])).toEqual([
      ['watch_list.rename', { vigilancia: listId, nombre: 'anterior' }, { vigilancia: listId, nombre: 'nuevo' }],
      ['watch_list.set_schedule', { vigilancia: listId, frecuencia: 'semanal' }, { vigilancia: listId, frecuencia: 'mensual' }],
      ['watch_list.pause', { vigilancia: listId, estado: 'activa' }, { vigilancia: listId, estado: 'en_pausa' }],
      ['watch_list.resume', { vigilancia: listId, estado: 'en_pausa' }, { vigilancia: listId, estado: 'activa' }],
    ]);
    // The name itself is never in the log (free text).
    expect(JSON.stringify(audit)).not.toContain('Clientes');
  });

  it("refuses bad bodies in the watch lists' shape, and answers another integration's list as a missing one", async () => {
    const created = await call('POST', '/vigilancias', '/vigilancias', main, { nombre: 'Ajena', catalogo: 'omisos', frecuencia: 'semanal', nits: [cleanNits[2]!] });
    const listId = (created.body as ListBody).id;
    const refused = (message: string) => ({ status: 400, body: { message } });
    const path = `/vigilancias/${listId}`;
    expect(await call('PATCH', path, '/vigilancias/{id}', main, {})).toEqual(refused(WATCH_LIST_MESSAGES.editFields));
    expect(await call('PATCH', path, '/vigilancias/{id}', main, { catalogo: 'rtu' })).toEqual(refused(WATCH_LIST_MESSAGES.editFields));
    expect(await call('PATCH', path, '/vigilancias/{id}', main, { nombre: 'a\nb' })).toEqual(refused(WATCH_LIST_MESSAGES.nombre));
    expect(await call('PATCH', path, '/vigilancias/{id}', main, { frecuencia: 'diaria' })).toEqual(refused(WATCH_LIST_MESSAGES.frecuencia));
    expect(await call('PATCH', path, '/vigilancias/{id}', main, { estado: 'borrada' })).toEqual(refused(WATCH_LIST_MESSAGES.estado));
    expect(await call('PATCH', path, '/vigilancias/{id}', main, { agregar_nits: '576937K' })).toEqual(refused(WATCH_LIST_MESSAGES.agregar_nits));
    expect(await call('PATCH', path, '/vigilancias/{id}', main, { quitar_nits: [1] })).toEqual(refused(WATCH_LIST_MESSAGES.quitar_nits));
    expect(await call('PATCH', path, '/vigilancias/{id}', main, { quitar_nits: [cleanNits[2]!] })).toEqual(refused(WATCH_LIST_MESSAGES.nothingLeft));
    const malformed = await fetch(`${gateway.app.baseUrl}/api${path}`, { method: 'PATCH', headers: { ...credentialHeaders(main), 'content-type': 'application/json' }, body: '{' });
    expect({ status: malformed.status, body: await malformed.json() }).toEqual(refused(BULK_MESSAGES.malformed));

    const notFound = { status: 404, body: { message: WATCH_LIST_MESSAGES.notFound } };
    for (const id of [listId, 'vig_00000000000000000000', 'otra-cosa']) {
      expect(await call('PATCH', `/vigilancias/${id}`, '/vigilancias/{id}', other, { estado: 'en_pausa', quitar_nits: [cleanNits[2]!] })).toEqual(notFound);
    }
    // Untouched, and nothing was written in its name.
    expect((await call('GET', path, '/vigilancias/{id}', main)).body).toMatchObject({ estado: 'activa', nits: 1, nombre: 'Ajena' });
    expect(await auditOf(listId)).toEqual([]);
  });
});
