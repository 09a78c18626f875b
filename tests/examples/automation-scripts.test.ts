// The three automations docs/integrators.md shows for the account API, run as an integrator runs them
// (bash, curl and jq) against the built app and the simulator, on PGlite and on PostgreSQL:
// examples/saldo.sh warns and exits non-zero once real lookups take the balance under the threshold or
// a given amount, and otherwise when it runs out; examples/conciliacion.sh reconciles a day's file of
// request ids (charged lookups over more than one page, a 404, a refusal, a replay, ids the gateway
// does not know, one lookup the file lacks) with totals equal to what the ledger took; and
// examples/agregar-a-vigilancia.sh finds a watch list by name past the first page and adds a NIT once.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/db/client';
import { describeRequestTrace } from '@/lib/presentation/request-traces';
import { requestTrace } from '@/lib/core/request-traces/read';
import { setLowBalanceAlert } from '@/lib/flows/integration-management/service';
import { createWatchList, pauseWatchList, WATCH_LISTS_PAGE_SIZE } from '@/lib/flows/watch-lists';
import { guatemalanToday } from '@/lib/platform/time/guatemala-time';
import { RECORDS_PAGE_SIZE } from '@/lib/surfaces/api/records';
import { createPopulation, DEFAULT_SIMULATOR_SEED } from '@/simulator';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';
import { createTestIntegration, credentialHeaders, eventually, ROUTES, startGateway, TEST_ACTOR, type Gateway, type TestIntegration } from '../conformance/harness';

const TARIFF = 150;

let testDb: TestDatabase;
let gateway: Gateway;
let folder: string;
let balance: TestIntegration;
let reconciled: TestIntegration;
let watcher: TestIntegration;
let other: TestIntegration;
let watchedListId: string;
let othersListId: string;

/** NITs the omisos catalog finds, neither omiso nor in coercive collection: a watch list's. */
const cleanNits = (() => {
  const population = createPopulation({ seed: DEFAULT_SIMULATOR_SEED });
  const nits: string[] = [];
  for (let index = 1; nits.length < 2; index++) {
    const member = population.member(index);
    if (member.classicNit && member.sourceHoldsCopy && member.quirks.length === 0 && member.omissions.length === 0 && !member.coerciveCollection) nits.push(member.classicNit);
  }
  return nits;
})();

/** Saves a watch list as POST /api/vigilancias would, paused unless `active` (a paused one never runs). */
async function saveList(integration: TestIntegration, name: string, nit: string, active = false): Promise<string> {
  return (await db()).transaction(async (tx) => {
    const created = await createWatchList(integration.id, { name, catalog: 'omisos', schedule: 'mensual', nits: [nit] }, tx);
    if (created.kind !== 'created') throw new Error(created.kind);
    if (!active) await pauseWatchList(integration.id, created.list.publicId, tx);
    return created.list.publicId;
  });
}

beforeAll(async () => {
  testDb = await useTestDatabase();
  folder = await mkdtemp(path.join(tmpdir(), 'automatizaciones-'));
  // Q 21.00, with a low-balance threshold of Q 20.00: one lookup at Q 1.50 takes it under.
  balance = await createTestIntegration('automatizacion-saldo', { tariffCentavos: TARIFF, balanceCentavos: 2_100 });
  await setLowBalanceAlert(TEST_ACTOR, balance.id, 2_000);
  reconciled = await createTestIntegration('automatizacion-conciliacion', { tariffCentavos: TARIFF, balanceCentavos: 200 * TARIFF, flags: { isCuiNitEnabled: false } });
  watcher = await createTestIntegration('automatizacion-vigilancia', { tariffCentavos: TARIFF, balanceCentavos: 100 * TARIFF });
  other = await createTestIntegration('automatizacion-otra', { tariffCentavos: TARIFF, balanceCentavos: 100 * TARIFF });
  // The list the script looks for is the oldest of more than a page; another integration has one of the same name.
  watchedListId = await saveList(watcher, 'Proveedores', cleanNits[0]!, true);
  for (let index = 0; index < WATCH_LISTS_PAGE_SIZE; index++) await saveList(watcher, `Lista ${index}`, cleanNits[0]!);
  for (let index = 0; index < 2; index++) await saveList(watcher, 'Repetida', cleanNits[0]!);
  othersListId = await saveList(other, 'Proveedores', cleanNits[0]!);
  gateway = await startGateway(testDb, { env: { RATE_LIMIT_CATALOG_PER_MINUTE: '1000', BULK_API_PER_MINUTE: '1000', BULK_POLL_MS: '100' } });
}, PROCESS_TEST_TIMEOUT_MS);

afterAll(async () => {
  await gateway?.stop();
  await testDb?.cleanup();
  if (folder) await rm(folder, { recursive: true, force: true });
});

interface ScriptRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a script of examples/ as an integrator's cron would, with its three variables and nothing else. */
async function script(name: string, as: TestIntegration, ...args: string[]): Promise<ScriptRun> {
  const env = { PATH: process.env.PATH, BASE_URL: `${gateway.app.baseUrl}/api`, LOGIN: as.nombre, TOKEN: as.token, NODE_ENV: 'production' as const };
  try {
    const { stdout, stderr } = await promisify(execFile)('bash', [`examples/${name}`, ...args], { env });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

async function omisos(as: TestIntegration, nit = gateway.sample.individual.nit, headers: Record<string, string> = {}) {
  return gateway.call(ROUTES.omisos, { as, json: { nit }, headers });
}

async function readJson<T>(path: string, as: TestIntegration): Promise<T> {
  const response = await fetch(`${gateway.app.baseUrl}/api${path}`, { headers: credentialHeaders(as) });
  expect(response.status, path).toBe(200);
  return (await response.json()) as T;
}

describe('the automations of docs/integrators.md, run from their scripts', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('saldo.sh: a line and exit 0 above the threshold, a warning and 1 under it or under a given amount, 2 once it runs out, 3 if it cannot read', async () => {
    expect(await script('saldo.sh', balance)).toEqual({
      code: 0,
      stdout: 'Saldo de automatizacion-saldo: Q 21.00, paga 14 consultas a Q 1.50. No está bajo el umbral de saldo bajo, Q 20.00.\n',
      stderr: '',
    });
    expect((await omisos(balance)).status).toBe(200);
    const low = 'AVISO: Saldo de automatizacion-saldo: Q 19.50, paga 13 consultas a Q 1.50.';
    expect(await script('saldo.sh', balance)).toEqual({ code: 1, stdout: '', stderr: `${low} Está bajo el umbral de saldo bajo, Q 20.00: recargue (depósito reportado en Recargas del portal).\n` });
    expect(await script('saldo.sh', balance, '19.50')).toMatchObject({ code: 0, stdout: expect.stringContaining('No está bajo Q 19.50.') });
    expect(await script('saldo.sh', balance, '19.51')).toEqual({ code: 1, stdout: '', stderr: `${low} Está bajo Q 19.51: recargue (depósito reportado en Recargas del portal).\n` });

    // Thirteen more lookups spend it all: the catalogs now answer 402, and the script says why.
    for (let index = 0; index < 13; index++) expect((await omisos(balance)).status).toBe(200);
    expect((await omisos(balance)).status).toBe(402);
    expect(await script('saldo.sh', balance, '5')).toEqual({
      code: 2,
      stdout: '',
      stderr: 'AVISO: Saldo de automatizacion-saldo: Q 0.00, paga 0 consultas a Q 1.50. Sin saldo: los catálogos responden 402 hasta que se acredite una recarga.\n',
    });

    const wrong = await script('saldo.sh', { ...balance, token: 'otro-token' });
    expect(wrong).toMatchObject({ code: 3, stdout: '', stderr: expect.stringMatching(/^HTTP 401 en GET \/cuenta: /) });
    expect(await script('saldo.sh', balance, 'cien')).toMatchObject({ code: 3, stderr: expect.stringContaining('Uso: saldo.sh') });
  });

  it("conciliacion.sh: a day's request ids charged, not charged and why, unknown, and the gateway's records the file lacks, with the ledger's totals", async () => {
    const before = (await readJson<{ saldo_centavos: number }>('/cuenta', reconciled)).saldo_centavos;
    // More charged lookups than a page of /consultas holds. The integrator's system never logged the
    // first (the oldest, on the second page), nor the second: its answer was lost, and the replay with
    // the same Idempotency-Key is what it logged.
    const charged: string[] = [];
    for (let index = 0; index < RECORDS_PAGE_SIZE + 2; index++) {
      const answer = await omisos(reconciled, gateway.sample.individual.nit, index === 1 ? { 'idempotency-key': 'conciliacion-1' } : {});
      expect(answer.status).toBe(200);
      charged.push(answer.requestId);
    }
    const [unlogged, cut, ...logged] = charged;
    const replay = await omisos(reconciled, gateway.sample.individual.nit, { 'idempotency-key': 'conciliacion-1' });
    expect(replay.headers.get('idempotency-replayed')).toBe('true');
    const missing = await omisos(reconciled, gateway.sample.unknownNit);
    expect(missing.status).toBe(404);
    const refused = await gateway.call(ROUTES.cuiNit, { as: reconciled, json: { nit: gateway.sample.individual.nit } });
    expect(refused.status).toBe(403);
    const others = await omisos(other);
    expect(others.status).toBe(200);
    const traces = await eventually(
      () => gateway.withDatabase(async () => [await requestTrace(refused.requestId), await requestTrace(replay.requestId)]),
      (found) => found.every((trace) => trace !== undefined),
      30_000,
      'the refusal and the replay traced',
    );
    const whyNot = (await readJson<{ registro: { motivo_sin_cobro: string } }>(`/consultas/${missing.requestId}`, reconciled)).registro.motivo_sin_cobro;
    expect(whyNot).toContain('404');

    // The integrator's log of the day: CRLF, a blank line, another integration's id, an id nobody gave.
    const ids = path.join(folder, 'request-ids.txt');
    const unknown = ['req_00000000000000000000', others.requestId];
    await writeFile(ids, [...logged, missing.requestId, refused.requestId, replay.requestId, '', ...unknown].join('\r\n'));
    const day = guatemalanToday();
    const run = await script('conciliacion.sh', reconciled, ids, day);

    expect(run).toEqual({
      code: 1,
      stderr: '',
      stdout: [
        ...logged.map((id) => `${id} cobrada (omisos): Q 1.50`),
        `${missing.requestId} sin cobro (omisos): ${whyNot}`,
        `${refused.requestId} sin cobro (cui_nit): ${describeRequestTrace(traces[0]!)}`,
        `${replay.requestId} sin cobro (omisos): ${describeRequestTrace(traces[1]!)}`,
        ...unknown.map((id) => `${id} desconocida: la pasarela no tiene una solicitud de su integración con ese request id.`),
        `${cut} cobrada (omisos): Q 1.50, la original de ${replay.requestId}`,
        `${unlogged} no está en su archivo (omisos): Q 1.50`,
        `Conciliación del ${day}: ${logged.length + 1} cobradas por Q 76.50, 3 sin cobro, 2 desconocidas; 1 registradas que su archivo no tiene, por Q 1.50.`,
        '',
      ].join('\n'),
    });
    // The two totals together are what the ledger took.
    const spent = before - (await readJson<{ saldo_centavos: number }>('/cuenta', reconciled)).saldo_centavos;
    expect(spent).toBe(7_650 + 150);

    // The file complete (the unlogged one too) and nothing unknown: all reconciled, exit 0.
    await writeFile(ids, [...charged, missing.requestId].join('\n'));
    const clean = await script('conciliacion.sh', reconciled, ids, day);
    expect(clean.code, clean.stderr).toBe(0);
    expect(clean.stdout.split('\n').at(-2)).toBe(`Conciliación del ${day}: ${charged.length} cobradas por Q 78.00, 1 sin cobro, 0 desconocidas; 0 registradas que su archivo no tiene, por Q 0.00.`);
  });

  it('agregar-a-vigilancia.sh: finds the list by name past the first page and adds the NIT once, leaving lists of other names and integrations alone', async () => {
    const [watched, onboarded] = cleanNits;
    const added = await script('agregar-a-vigilancia.sh', watcher, 'Proveedores', onboarded!);
    expect(added).toMatchObject({ code: 0, stderr: '' });
    expect(added.stdout).toMatch(new RegExp(`^Vigilancia ${watchedListId} «Proveedores» \\(omisos, mensual, activa\\): 2 NIT vigilados\\. Próxima ejecución: \\S+\\.\\n$`));
    expect(await readJson(`/vigilancias/${watchedListId}`, watcher)).toMatchObject({ nits: 2 });

    // The next day's run again (or the NIT with a hyphen): nothing added twice; an invalid NIT set aside.
    const hyphenated = `${onboarded!.slice(0, -1)}-${onboarded!.slice(-1)}`;
    const again = await script('agregar-a-vigilancia.sh', watcher, 'Proveedores', hyphenated, 'no-es-nit');
    expect(again.code).toBe(0);
    expect(again.stdout.split('\n').slice(1)).toEqual(['Apartado: NIT 1 de los enviados, duplicado.', 'Apartado: NIT 2 de los enviados, nit_invalido.', '']);
    expect(await readJson(`/vigilancias/${watchedListId}`, watcher)).toMatchObject({ nits: 2 });
    expect(await readJson(`/vigilancias/${othersListId}`, other)).toMatchObject({ nits: 1 });
    expect(watched).not.toBe(onboarded);

    expect(await script('agregar-a-vigilancia.sh', watcher, 'Clientes', onboarded!)).toEqual({ code: 1, stdout: '', stderr: 'Ninguna de sus vigilancias se llama «Clientes».\n' });
    const twice = await script('agregar-a-vigilancia.sh', watcher, 'Repetida', onboarded!);
    expect(twice).toMatchObject({ code: 1, stdout: '', stderr: expect.stringMatching(/^Hay 2 vigilancias llamadas «Repetida» \(vig_[0-9a-f]{20} vig_[0-9a-f]{20}\): use el id con PATCH \/vigilancias\/\{id\}\.\n$/) });
  });
});
