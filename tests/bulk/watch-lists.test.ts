// Vigilancia (issue 35, point 5) through the API, against the built app and the simulator, on
// PGlite and on PostgreSQL. The done-when: a watch list run twice with the simulator
// changing one taxpayer to omiso in between reports exactly that change. Besides: the first run is
// the baseline and tells nothing; each run is an ordinary job charged found × tariff with the
// ledger reconciled; the integration is told once, signed, without a NIT; the schedule advances a
// week or a calendar month (Guatemala's); two scheduler ticks at once start one run; another integration's list
// answers as one that does not exist. The test drives the scheduler's clock by calling its tick
// with an instant (startDueRuns), as the app's runner does with the present.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { verifyLedger } from '@/lib/core/billing/verify';
import { CATALOG_MESSAGES } from '@/lib/contract/messages';
import { setIntegrationDetails } from '@/lib/flows/integration-management/details-service';
import { setConstancias } from '@/lib/flows/integration-management/service';
import { BULK_MESSAGES } from '@/lib/surfaces/api/bulk-responses';
import { setNotificationWebhook } from '@/lib/reactions/integrator-notifications/preferences';
import { WATCH_LIST_MESSAGES } from '@/lib/surfaces/api/watch-list-responses';
import { listWatchListChanges, pauseWatchList, readWatchList, startDueRuns } from '@/lib/flows/watch-lists';
import { createPopulation, DEFAULT_SIMULATOR_SEED } from '@/simulator';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';
import { createTestIntegration, credentialHeaders, eventually, readMoney, startGateway, TEST_ACTOR, type Gateway, type TestIntegration } from '../conformance/harness';

const TARIFF = 150;
const LIST_ID = /^vig_[0-9a-f]{20}$/;
const DAY_MS = 86_400_000;

let testDb: TestDatabase;
let gateway: Gateway;
let main: TestIntegration;
let other: TestIntegration;
let penniless: TestIntegration;
let withReceipts: TestIntegration;
let receiver: WebhookReceiver;

/** NITs of taxpayers the omisos catalog finds, neither omiso nor in coercive collection. */
const cleanNits = (() => {
  const population = createPopulation({ seed: DEFAULT_SIMULATOR_SEED });
  const nits: string[] = [];
  for (let index = 1; nits.length < 5; index++) {
    const member = population.member(index);
    if (member.classicNit && member.sourceHoldsCopy && member.quirks.length === 0 && member.omissions.length === 0 && !member.coerciveCollection) nits.push(member.classicNit);
  }
  return nits;
})();

beforeAll(async () => {
  testDb = await useTestDatabase();
  main = await createTestIntegration('vigilancia-principal', { tariffCentavos: TARIFF, balanceCentavos: 100 * TARIFF });
  other = await createTestIntegration('vigilancia-otra', { tariffCentavos: TARIFF, balanceCentavos: 100 * TARIFF });
  // No balance: its runs wait, unfinished, in en_pausa_sin_saldo.
  penniless = await createTestIntegration('vigilancia-sin-saldo', { tariffCentavos: TARIFF, balanceCentavos: 0 });
  withReceipts = await createTestIntegration('vigilancia-constancias', { tariffCentavos: TARIFF, balanceCentavos: 100 * TARIFF });
  expect((await setConstancias(TEST_ACTOR, withReceipts.id, true)).ok).toBe(true);
  const details = await setIntegrationDetails(TEST_ACTOR, main.id, { technicalContactName: 'Tania Técnica', technicalContactEmail: `tecnica@${main.nombre}.gt` });
  if (!details.ok) throw new Error(details.error.message);
  let secret = '';
  receiver = await startWebhookReceiver(() => secret);
  const set = await setNotificationWebhook(TEST_ACTOR, main.id, receiver.url, { allowLocalTargets: true });
  if (!set.ok) throw new Error(set.error.message);
  secret = set.value.secret;
  gateway = await startGateway(testDb, {
    env: { RATE_LIMIT_CATALOG_PER_MINUTE: '1000', BULK_POLL_MS: '100', BULK_CONCURRENCY: '4', ALERT_RETRY_BASE_MS: '50', INTEGRATOR_WEBHOOK_ALLOW_LOCAL_TARGETS: 'true' },
  });
});

afterAll(async () => {
  await gateway?.stop();
  await receiver?.close();
  await testDb?.cleanup();
});

let keys = 0;

/** A request as an integrator's system sends it; a POST gets an Idempotency-Key of its own unless given one (or null: none). */
async function call(method: string, path: string, as: TestIntegration, json?: unknown, idempotencyKey?: string | null): Promise<{ status: number; body: unknown; refusal?: string }> {
  const key = idempotencyKey === undefined ? (method === 'POST' ? `vigilancia-${++keys}` : null) : idempotencyKey;
  const response = await fetch(`${gateway.app.baseUrl}${path}`, {
    method,
    headers: { ...credentialHeaders(as), ...(json === undefined ? {} : { 'content-type': 'application/json' }), ...(key === null ? {} : { 'idempotency-key': key }) },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  const text = await response.text();
  const refusal = response.headers.get('x-motivo-rechazo');
  return { status: response.status, body: text === '' ? null : (JSON.parse(text) as unknown), ...(refusal === null ? {} : { refusal }) };
}

interface ListBody {
  id: string;
  estado: string;
  nits: number;
  proxima_ejecucion: string;
  ejecuciones: number;
  ultima_ejecucion: { lote: string; estado: string } | null;
  cambios: number;
  apartados?: { posicion: number; motivo: string }[];
}

/** The list's runs as jobs, oldest first, with whether their changes were compared. */
function runsOf(listId: string) {
  return gateway.withDatabase((handle) =>
    handle.rows<{ public_id: string; state: string; watch_list_run: number; computed: boolean }>(sql`
      select j.public_id, j.state, j.watch_list_run, j.changes_computed_at is not null as computed
        from bulk_jobs j join watch_lists w on w.id = j.watch_list_id where w.public_id = ${listId} order by j.watch_list_run`),
  );
}

/** Waits for the list's run `run` to be completed and compared (by the app's runner). */
function untilCompared(listId: string, run: number) {
  return eventually(
    () => runsOf(listId),
    (runs) => runs.some((candidate) => Number(candidate.watch_list_run) === run && candidate.state === 'completado' && candidate.computed),
    60_000,
    `run ${run} of ${listId} compared`,
  );
}

interface Notice {
  signed: boolean;
  rawBody: string;
  body: { tipo: string; condicion: string; datos: Record<string, unknown> };
}

/** What the webhook received (the receiver types bodies as alerts; integrator notices carry datos). */
const notices = () => receiver.received as unknown as Notice[];
const vigilanciaNotices = () => notices().filter((notice) => notice.body.tipo === 'vigilancia_cambios');

describe('a watch list', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('run twice with one taxpayer turned omiso in between reports exactly that change, once, charged as jobs are', async () => {
    const [changing, steady] = cleanNits;
    const nits = [changing!, steady!, gateway.sample.unknownNit, 'no-es-nit', `${steady!.slice(0, -1)}-${steady!.slice(-1)}`];
    const created = await call('POST', '/api/vigilancias', main, { nombre: 'Proveedores', catalogo: 'omisos', frecuencia: 'semanal', nits });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const list = created.body as ListBody;
    expect(list.id).toMatch(LIST_ID);
    // The invalid and the repeated NIT are set aside, by position; the three others are watched.
    expect(list.apartados).toEqual([
      { posicion: 4, motivo: 'nit_invalido' },
      { posicion: 5, motivo: 'duplicado' },
    ]);
    expect(list.nits).toBe(3);

    // Two scheduler ticks at once (and the app's own runner, which ticks too): one run. Due at the
    // database's now(), in microseconds, which the answer gives in milliseconds: due a millisecond on.
    const firstDue = new Date(list.proxima_ejecucion);
    const due = new Date(firstDue.getTime() + 1);
    await gateway.withDatabase(() => Promise.all([startDueRuns(due), startDueRuns(due)]));
    const [baseline] = await untilCompared(list.id, 1);
    expect(await runsOf(list.id)).toHaveLength(1);
    // The baseline: nothing changed, nothing told.
    const afterBaseline = (await call('GET', `/api/vigilancias/${list.id}`, main)).body as ListBody;
    expect(afterBaseline).toMatchObject({ estado: 'activa', ejecuciones: 1, cambios: 0, ultima_ejecucion: { lote: baseline!.public_id, estado: 'completado' } });
    // Weekly: seven days after the instant it was due.
    expect(new Date(afterBaseline.proxima_ejecucion).getTime()).toBe(firstDue.getTime() + 7 * DAY_MS);
    expect((await call('GET', `/api/vigilancias/${list.id}/cambios`, main)).body).toEqual({ cambios: [], siguiente: null });
    // Not yet due: a tick now starts nothing.
    expect(await gateway.withDatabase(() => startDueRuns())).toEqual([]);

    // The supplier files nothing: the source now records it omiso. A week later the list runs again.
    gateway.simulator.amendTaxpayer(changing!, { omiso: true });
    const secondDue = new Date(afterBaseline.proxima_ejecucion);
    const started = await gateway.withDatabase(() => startDueRuns(new Date(secondDue.getTime() + 1_000)));
    expect(started).toEqual([{ listPublicId: list.id, jobPublicId: expect.stringMatching(/^lote_/), run: 2 }]);
    await untilCompared(list.id, 2);

    const changes = await call('GET', `/api/vigilancias/${list.id}/cambios`, main);
    expect(changes).toEqual({
      status: 200,
      body: {
        cambios: [
          { nit: changing, tipo: 'omiso', antes: false, despues: true, ejecucion: 2, lote: started[0]!.jobPublicId, detectado_en: expect.any(String), constancia_id: null, constancia_url: null },
        ],
        siguiente: null,
      },
    });
    const afterSecond = (await call('GET', `/api/vigilancias/${list.id}`, main)).body as ListBody;
    expect(afterSecond).toMatchObject({ ejecuciones: 2, cambios: 1 });
    expect(new Date(afterSecond.proxima_ejecucion).getTime()).toBe(secondDue.getTime() + 7 * DAY_MS);

    // Told once, signed, with the counts and the link; no NIT. Neither run told its end as a lote.
    const [notice, ...more] = await eventually(async () => vigilanciaNotices(), (received) => received.length > 0, 30_000, 'vigilancia_cambios');
    expect(more).toEqual([]);
    expect(notice!.signed).toBe(true);
    expect(notice!.body.condicion).toBe(`vigilancia_cambios:${started[0]!.jobPublicId}`);
    expect(notice!.body.datos).toMatchObject({ vigilancia: list.id, ejecucion: 2, lote: started[0]!.jobPublicId, cambios: 1, omiso: 1, cobro_coactivo: 0, estado_rtu: 0, registro: 0, cambios_url: `/api/vigilancias/${list.id}/cambios` });
    for (const nit of [changing!, steady!, gateway.sample.unknownNit]) expect(notice!.rawBody).not.toContain(nit);
    expect(notices().filter((received) => received.body.tipo === 'lote_completado')).toEqual([]);

    // Each run is a job charged for what it found (two of three), and the ledger reconciles.
    for (const run of await runsOf(list.id)) {
      const job = await call('GET', `/api/lotes/${run.public_id}`, main);
      expect(job.body).toMatchObject({ estado: 'completado', conteos: { total: 3, encontrados: 2, no_encontrados: 1 }, monto_cobrado: '3.00' });
    }
    const { money, verification } = await gateway.withDatabase(async (handle) => ({ money: await readMoney(handle, main.id), verification: await verifyLedger({ trigger: 'cli', sweepAfterSeconds: 60 }) }));
    expect(money.balanceCentavos).toBe(100 * TARIFF - 4 * TARIFF);
    expect(verification.ok).toBe(true);
    // The NITs and their states are sealed at rest.
    const stored = await gateway.withDatabase((handle) => handle.rows<{ row: string }>(sql`select row_to_json(e)::text as row from watch_list_entries e union all select row_to_json(c)::text from watch_list_changes c`));
    for (const nit of [changing!, steady!]) expect(stored.map((row) => row.row).join('\n')).not.toContain(nit);
  });

  it('with constancias: true, gives each change the receipt of the answer that showed it, from the next run on once asked', async () => {
    const nit = cleanNits[4]!;
    const body = { nombre: 'Clientes con constancia', catalogo: 'omisos', frecuencia: 'semanal', nits: [nit], constancias: true };
    // Only where the integration has receipts on.
    expect(await call('POST', '/api/vigilancias', main, body)).toEqual({ status: 403, body: { message: BULK_MESSAGES.constanciasNotEnabled } });
    const created = await call('POST', '/api/vigilancias', withReceipts, body);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const list = created.body as ListBody & { constancias: boolean };
    expect(list.constancias).toBe(true);

    await gateway.withDatabase(() => startDueRuns(new Date(new Date(list.proxima_ejecucion).getTime() + 1)));
    await untilCompared(list.id, 1);
    gateway.simulator.amendTaxpayer(nit, { omiso: true });
    const next = (await call('GET', `/api/vigilancias/${list.id}`, withReceipts)).body as ListBody;
    const [started] = await gateway.withDatabase(() => startDueRuns(new Date(new Date(next.proxima_ejecucion).getTime() + 1_000)));
    await untilCompared(list.id, 2);

    const [change] = ((await call('GET', `/api/vigilancias/${list.id}/cambios`, withReceipts)).body as { cambios: Array<{ tipo: string; lote: string; constancia_id: string | null; constancia_url: string | null }> }).cambios;
    expect(change).toMatchObject({ tipo: 'omiso', lote: started!.jobPublicId, constancia_id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(change!.constancia_url).toBe(`${gateway.app.baseUrl}/api/constancias/${change!.constancia_id}`);
    // The receipt is of the run's answer for that NIT: omiso, from the catalog, for this integration.
    const read = await fetch(change!.constancia_url!, { headers: credentialHeaders(withReceipts) });
    expect(read.status).toBe(200);
    const verified = await fetch(`${gateway.app.baseUrl}/api/constancias/verificar`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ constancia: ((await read.json()) as { constancia: string }).constancia }),
    });
    const verdict = (await verified.json()) as { valida: boolean; constancia: { solicitud: { integracion: string; cuerpo: unknown }; respuesta: { cuerpo: { data: { tieneIncumplimientos: boolean } } } } };
    expect(verdict.valida).toBe(true);
    expect(verdict.constancia.solicitud).toMatchObject({ integracion: withReceipts.nombre, cuerpo: { nit } });
    expect(verdict.constancia.respuesta.cuerpo.data.tieneIncumplimientos).toBe(true);

    // Turned off: the list says so, and the change is in its integration's activity.
    const edited = await call('PATCH', `/api/vigilancias/${list.id}`, withReceipts, { constancias: false });
    expect(edited.body).toMatchObject({ constancias: false });
    const audited = await gateway.withDatabase((handle) => handle.rows<{ action: string }>(sql`select action from audit_log where action = 'watch_list.set_constancias' and target_id = ${String(withReceipts.id)}`));
    expect(audited).toHaveLength(1);
  });

  it('runs monthly a calendar month after it was due', async () => {
    const created = await call('POST', '/api/vigilancias', main, { nombre: 'Clientes', catalogo: 'rtu', frecuencia: 'mensual', nits: [cleanNits[2]!] });
    expect(created.status).toBe(201);
    const list = created.body as ListBody;
    const due = new Date(list.proxima_ejecucion);
    await untilCompared(list.id, 1);
    const after = (await call('GET', `/api/vigilancias/${list.id}`, main)).body as ListBody;
    // In Guatemala's calendar (UTC-6): read its wall clock with the UTC accessors, then shift back.
    const local = new Date(due.getTime() - 6 * 3_600_000);
    const lastDayOfNextMonth = new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth() + 2, 0)).getUTCDate();
    const expectedLocal = new Date(local);
    expectedLocal.setUTCDate(1);
    expectedLocal.setUTCMonth(local.getUTCMonth() + 1);
    expectedLocal.setUTCDate(Math.min(local.getUTCDate(), lastDayOfNextMonth));
    const expected = new Date(expectedLocal.getTime() + 6 * 3_600_000);
    expect(after.proxima_ejecucion).toBe(expected.toISOString());
    // A paused list is not due, even past its instant.
    await gateway.withDatabase(() => pauseWatchList(main.id, list.id));
    const later = await gateway.withDatabase(() => startDueRuns(new Date(expected.getTime() + DAY_MS)));
    expect(later.map((run) => run.listPublicId)).not.toContain(list.id);
    expect(await runsOf(list.id)).toHaveLength(1);
  });

  it("answers another integration's list exactly as one that does not exist", async () => {
    const created = await call('POST', '/api/vigilancias', main, { nombre: 'Ajena', catalogo: 'omisos', frecuencia: 'semanal', nits: [cleanNits[3]!] });
    const list = created.body as ListBody;
    const missing = 'vig_00000000000000000000';
    const notFound = { status: 404, body: { message: WATCH_LIST_MESSAGES.notFound } };
    for (const id of [list.id, missing]) {
      expect(await call('GET', `/api/vigilancias/${id}`, other)).toEqual(notFound);
      expect(await call('GET', `/api/vigilancias/${id}/cambios`, other)).toEqual(notFound);
      expect(await call('DELETE', `/api/vigilancias/${id}`, other)).toEqual(notFound);
    }
    expect(await gateway.withDatabase(() => readWatchList(other.id, list.id))).toBeNull();
    expect(await gateway.withDatabase(() => listWatchListChanges(other.id, list.id))).toBeNull();
    expect(await gateway.withDatabase(() => pauseWatchList(other.id, list.id))).toBeNull();
    // Untouched by the other's attempts; its owner deletes it, and then it is gone for it too.
    expect(((await call('GET', `/api/vigilancias/${list.id}`, main)).body as ListBody).estado).toBe('activa');
    expect((await call('DELETE', `/api/vigilancias/${list.id}`, main)).status).toBe(204);
    expect(await call('GET', `/api/vigilancias/${list.id}`, main)).toEqual(notFound);
  });

  it('starts no run while the previous one is unfinished, and deleting the list cancels that run', async () => {
    const created = await call('POST', '/api/vigilancias', penniless, { nombre: 'Sin saldo', catalogo: 'omisos', frecuencia: 'semanal', nits: [cleanNits[0]!, cleanNits[1]!] });
    expect(created.status).toBe(201);
    const list = created.body as ListBody;
    const [run] = await eventually(() => runsOf(list.id), (runs) => runs.some((candidate) => candidate.state === 'en_pausa_sin_saldo'), 60_000, 'the run paused without balance');
    // Weeks later its run still waits for balance: no second run starts beside it.
    const later = await gateway.withDatabase(() => startDueRuns(new Date(Date.now() + 30 * DAY_MS)));
    expect(later.map((started) => started.listPublicId)).not.toContain(list.id);
    expect(await runsOf(list.id)).toHaveLength(1);
    expect((await call('DELETE', `/api/vigilancias/${list.id}`, penniless)).status).toBe(204);
    expect((await call('GET', `/api/lotes/${run!.public_id}`, penniless)).body).toMatchObject({ estado: 'cancelado', monto_cobrado: '0.00' });
    expect(await call('GET', `/api/vigilancias/${list.id}`, penniless)).toEqual({ status: 404, body: { message: WATCH_LIST_MESSAGES.notFound } });
  });

  it('saves one list however often the same POST is sent with its Idempotency-Key, and refuses the key with another list or no key', async () => {
    const body = { nombre: 'Reenviada', catalogo: 'omisos', frecuencia: 'mensual', nits: [cleanNits[0]!, 'no-es-nit'] };
    const first = await call('POST', '/api/vigilancias', main, body, 'reenvio-2026-11');
    expect(first.status).toBe(201);
    // The answer was lost: the integrator's system sends the same request again, twice at once too.
    const again = await Promise.all([call('POST', '/api/vigilancias', main, body, 'reenvio-2026-11'), call('POST', '/api/vigilancias', main, body, 'reenvio-2026-11')]);
    // The same list as it is now (its first run may have started meanwhile), with the same set-aside NITs.
    const { id, apartados } = first.body as { id: string; apartados: unknown };
    for (const repeat of again) expect(repeat).toMatchObject({ status: 200, body: { id, apartados } });
    const [saved] = await (await database()).rows<{ lists: number }>(sql`select count(*)::int as lists from watch_lists where name = 'Reenviada'`);
    expect(saved!.lists).toBe(1);

    expect(await call('POST', '/api/vigilancias', main, { ...body, frecuencia: 'semanal' }, 'reenvio-2026-11')).toEqual({
      status: 400,
      body: { message: CATALOG_MESSAGES.sourceRejectedData },
      refusal: 'idempotency-key-reused',
    });
    expect(await call('POST', '/api/vigilancias', main, body, null)).toEqual({ status: 400, body: { message: WATCH_LIST_MESSAGES.idempotencyKeyMissing } });
    // Another integration's key space is its own: the same key saves its own list.
    expect((await call('POST', '/api/vigilancias', other, body, 'reenvio-2026-11')).status).toBe(201);
  });

  it('refuses a list with no valid NIT, a catalog that is not watched, and a name with a control character', async () => {
    // PostgreSQL refuses a NUL in text: the route's 400, not a 500 from the insert.
    for (const nombre of ['Pro\u0000veedores', 'Pro\nveedores']) {
      expect(await call('POST', '/api/vigilancias', main, { nombre, catalogo: 'omisos', frecuencia: 'semanal', nits: [cleanNits[0]!] })).toEqual({
        status: 400,
        body: { message: WATCH_LIST_MESSAGES.nombre },
      });
    }
    expect(await call('POST', '/api/vigilancias', main, { nombre: 'Nada', catalogo: 'omisos', frecuencia: 'semanal', nits: ['no-es-nit'] })).toEqual({
      status: 400,
      body: { message: WATCH_LIST_MESSAGES.nothingToWatch },
    });
    expect(await call('POST', '/api/vigilancias', main, { nombre: 'CUI', catalogo: 'cui-nit', frecuencia: 'semanal', nits: [cleanNits[0]!] })).toEqual({
      status: 400,
      body: { message: WATCH_LIST_MESSAGES.catalogo },
    });
  });
});
