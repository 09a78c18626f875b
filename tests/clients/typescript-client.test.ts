// The TypeScript client library (clients/typescript, issue 69): its generated part matches the app's
// OpenAPI document; it builds, packs with npm pack and installs from that package in a clean
// directory; and, run from there against the built app and the simulator, it answers the five
// lookups, gives each contract cause its own error type with the request id, retries a 502 with the
// same Idempotency-Key (the app's ledger shows one charge) and never retries a 429.
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatedClientFiles } from '@/clients/generate';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';
import { topUp } from '@/lib/core/billing/ledger';
import { signAlert } from '@/lib/reactions/alerts/signature';
import { CATALOG_UPSTREAM_PATHS, createTestIntegration, readMoney, ROUTES, startGateway, TEST_ACTOR, type Gateway, type TestIntegration } from '../conformance/harness';
import { readFileSync } from 'node:fs';
import { PAIRED_ANSWERS } from './paired-answers';

const run = promisify(execFile);
const BIN = path.join(process.cwd(), 'node_modules', '.bin');

type ClientModule = typeof import('@/clients/typescript/src/index');

let testDb: TestDatabase;
let gateway: Gateway;
let main: TestIntegration;
let disabled: TestIntegration;
let broke: TestIntegration;
let limited: TestIntegration;
let workDirectory: string;
let client: ClientModule;

/** Builds the package where a user would, packs it, installs the tarball in an empty project and loads it from there. */
async function installedClient(): Promise<ClientModule> {
  workDirectory = await mkdtemp(path.join(tmpdir(), 'cliente-ts-'));
  const source = path.join(workDirectory, 'paquete');
  await cp(path.join(process.cwd(), 'clients', 'typescript'), source, { recursive: true });
  // Built with the repository's TypeScript and Node.js types, as its devDependencies pin them.
  await run(path.join(BIN, 'tsc'), ['-p', 'tsconfig.json', '--typeRoots', path.join(process.cwd(), 'node_modules', '@types')], { cwd: source });
  const { stdout } = await run('npm', ['pack', '--silent'], { cwd: source });
  const tarball = path.join(source, stdout.trim().split('\n').at(-1)!);
  const user = path.join(workDirectory, 'proyecto');
  await run('mkdir', ['-p', user]);
  await writeFile(path.join(user, 'package.json'), JSON.stringify({ name: 'proyecto', private: true, type: 'module' }));
  await run('npm', ['install', '--offline', '--no-audit', '--no-fund', tarball], { cwd: user });
  const installed = path.join(user, 'node_modules', '@pasarela-contribuyentes', 'cliente');
  expect((await readdir(installed)).sort()).toEqual(['README.md', 'dist', 'package.json']);
  return (await import(path.join(installed, 'dist', 'index.js'))) as ClientModule;
}

beforeAll(async () => {
  testDb = await useTestDatabase();
  main = await createTestIntegration('cliente-ts', { tariffCentavos: 150, balanceCentavos: 100_000 });
  disabled = await createTestIntegration('cliente-ts-sin-banderas', { flags: { isCuiNitEnabled: false, isRenapEnabled: false }, balanceCentavos: 100_000 });
  broke = await createTestIntegration('cliente-ts-sin-saldo', { tariffCentavos: 150, balanceCentavos: 0 });
  limited = await createTestIntegration('cliente-ts-limite', { tariffCentavos: 0, balanceCentavos: 100_000 });
  [gateway, client] = await Promise.all([startGateway(testDb), installedClient()]);
}, PROCESS_TEST_TIMEOUT_MS * 2);

afterAll(async () => {
  await gateway?.stop();
  await testDb?.cleanup();
  if (workDirectory) await rm(workDirectory, { recursive: true, force: true });
});

/** An integration created while the app runs (on PGlite the app is stopped meanwhile). */
function createTestIntegrationLater(nombre: string): Promise<TestIntegration> {
  return gateway.withDatabase(() => createTestIntegration(nombre));
}

/** A client for `as`, whose every attempt is counted with the Idempotency-Key it carried. */
function clientFor(as: TestIntegration, options: { token?: string } = {}) {
  const attempts: Array<{ path: string; key: string | null }> = [];
  const counting: typeof fetch = async (input, init) => {
    attempts.push({ path: new URL(String(input)).pathname, key: new Headers(init?.headers).get('idempotency-key') });
    return fetch(input, init);
  };
  const instance = new client.ClienteConsultas({ baseUrl: `${gateway.app.baseUrl}/api`, login: as.nombre, token: options.token ?? as.token, fetch: counting, backoffMs: 10 });
  return { instance, attempts };
}

describe('the TypeScript client library', () => {
  it('is what the app’s OpenAPI document generates, and its version is the document’s', async () => {
    for (const file of await generatedClientFiles()) expect(readFileSync(file.path, 'utf8'), path.relative(process.cwd(), file.path)).toBe(file.text);
    const served = (await (await fetch(`${gateway.app.baseUrl}/api/openapi.json`)).json()) as { info: { version: string } };
    const [year, month, day] = served.info.version.split('-').map(Number);
    expect(JSON.parse(readFileSync('clients/typescript/package.json', 'utf8')).version).toBe(`${year}.${month}.${day}`);
  });

  it('is in /docs beside curl, Python, PHP and Java: how to install each, and the same call in each', async () => {
    const page = await (await fetch(`${gateway.app.baseUrl}/docs`)).text();
    const version = JSON.parse(readFileSync('clients/typescript/package.json', 'utf8')).version as string;
    expect(page).toContain('Librerías cliente');
    for (const library of ['curl', 'typescript', 'python', 'php', 'java']) expect(page).toContain(`data-testid="library-${library}"`);
    expect(page).toContain(`npm install ./pasarela-contribuyentes-cliente-${version}.tgz`);
    expect(page).toContain(`pip install pasarela_contribuyentes-${version}-py3-none-any.whl`);
    expect(page).toContain(`${gateway.app.baseUrl}/api/catalogos/omisos`);
  });

  it('requires the base URL and both credentials: no host is assumed', () => {
    expect(() => new client.ClienteConsultas({ baseUrl: '', login: 'a', token: 'b' })).toThrow(/baseUrl is required/);
    expect(() => new client.ClienteConsultas({ baseUrl: 'https://x/api', login: 'a', token: '' })).toThrow(/login and token are required/);
    expect(client.DEFAULT_TIMEOUT_MS).toBeGreaterThan(30_000);
  });

  it('answers the five lookups with the contract’s bodies', async () => {
    const { instance } = clientFor(main);
    const { individual } = gateway.sample;
    const renap = await instance.renap({ cui: individual.cui! });
    expect(renap.body).toMatchObject({ success: true, data: { cui: individual.cui! } });
    expect(renap.requestId).toMatch(/^req_/);
    const rtuNits = await instance.rtuNits({ nits: [individual.nit] });
    expect(rtuNits.body).toMatchObject({ success: true });
    for (const lookup of ['cuiNit', 'rtu', 'omisos'] as const) {
      const answer = await instance[lookup]({ nit: individual.nit });
      expect(answer.status, lookup).toBe(200);
      expect(answer.body, lookup).toHaveProperty('data');
      expect(answer.idempotencyKey, lookup).toMatch(/^[0-9a-f-]{36}$/);
      expect(answer.attempts).toBe(1);
    }
  });

  it('gives each cause its own error type, with the answer’s request id', async () => {
    const cases: Array<[string, () => Promise<unknown>, string, number]> = [
      ['wrong token', () => clientFor(main, { token: 'tlk_not-the-token' }).instance.cuiNit({ nit: gateway.sample.individual.nit }), 'IntegracionNoEncontrada', 401],
      ['catalog off', () => clientFor(disabled).instance.cuiNit({ nit: gateway.sample.individual.nit }), 'ConsultaNoHabilitada', 403],
      ['registry off', () => clientFor(disabled).instance.renap({ cui: gateway.sample.individual.cui! }), 'ConsultaNoHabilitada', 403],
      ['no balance', () => clientFor(broke).instance.omisos({ nit: gateway.sample.individual.nit }), 'SaldoInsuficiente', 402],
      ['not found', () => clientFor(main).instance.omisos({ nit: gateway.sample.unknownNit }), 'NoEncontrado', 404],
      ['no identifier', () => clientFor(main).instance.omisos({} as never), 'SolicitudNoValida', 400],
      ['no CUI', () => clientFor(main).instance.renap({} as never), 'SolicitudNoValida', 400],
    ];
    for (const [what, call, type, status] of cases) {
      const error = await call().then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(error, what).toBeInstanceOf(client.ErrorDeConsulta);
      expect((error as Error).name, what).toBe(type);
      expect(error, what).toBeInstanceOf(client[type as keyof ClientModule] as never);
      expect(error, what).toMatchObject({ status, requestId: expect.stringMatching(/^req_/) });
    }
  });

  it('tells apart every pair of causes that share a status, by the contract’s message', () => {
    const types = PAIRED_ANSWERS.map(([status, body, headers]) => client.errorOf(status, null, body, new Headers(headers)).name);
    expect(types).toEqual(PAIRED_ANSWERS.map(([, , , type]) => type));
  });

  it('retries a 502 with the same Idempotency-Key, and the app charges the call once', async () => {
    let failures = 1;
    gateway.upstream.answerInstead((request) => request.path === CATALOG_UPSTREAM_PATHS[ROUTES.omisos] && failures-- > 0, { status: 503, contentType: 'text/plain', body: 'no disponible' });
    const { instance, attempts } = clientFor(main);
    const before = await gateway.withDatabase((handle) => readMoney(handle, main.id));
    const answer = await instance.omisos({ nit: gateway.sample.individual.nit });
    expect(answer.status).toBe(200);
    expect(answer.attempts).toBe(2);
    expect(attempts.map((attempt) => attempt.key)).toEqual([answer.idempotencyKey, answer.idempotencyKey]);
    const after = await gateway.withDatabase((handle) => readMoney(handle, main.id));
    const captures = after.ledger.slice(before.ledger.length).filter((entry) => entry.kind === 'capture');
    expect(captures).toHaveLength(1);
    expect(before.balanceCentavos - after.balanceCentavos).toBe(150);
  });

  it('submits a bulk job once, waits for it with its progress and reads its results', async () => {
    const { instance, attempts } = clientFor(main);
    const request = { catalogo: 'omisos' as const, identificadores: [gateway.sample.individual.nit, gateway.sample.unknownNit, 'no-es-nit'] };
    const job = await instance.crearLote(request, { idempotencyKey: 'lote-del-cliente' });
    // The same call again (a retry after a lost answer) is the same job.
    expect((await instance.crearLote(request, { idempotencyKey: 'lote-del-cliente' })).id).toBe(job.id);
    const seen: string[] = [];
    const done = await instance.esperarLote(job.id, { intervalMs: 1_000, onProgress: (progress) => seen.push(progress.estado) });
    expect(done).toMatchObject({ id: job.id, estado: 'completado', conteos: { total: 3, encontrados: 1, no_encontrados: 1, invalidos: 1 } });
    expect(seen.at(-1)).toBe('completado');
    const rows = [];
    for await (const row of instance.resultadosLote(job.id)) rows.push(row);
    expect(rows.map((row) => row.estado)).toEqual(['encontrado', 'no_encontrado', 'invalido']);
    expect((await instance.resultadosLoteCsv(job.id)).split('\n')[0]).toContain('identificador');
    const listed = [];
    for await (const listedJob of instance.lotes()) listed.push(listedJob.id);
    expect(listed).toContain(job.id);
    expect(attempts.filter((attempt) => attempt.path === '/api/lotes' && attempt.key !== null).map((attempt) => attempt.key)).toEqual(['lote-del-cliente', 'lote-del-cliente']);
  });

  it('creates, lists, changes and deletes a watch list', async () => {
    const { instance } = clientFor(main);
    const created = await instance.crearVigilancia({ nombre: 'Proveedores', catalogo: 'omisos', frecuencia: 'mensual', nits: [gateway.sample.individual.nit] });
    const listed = [];
    for await (const list of instance.vigilancias()) listed.push(list.id);
    expect(listed).toContain(created.id);
    expect(await instance.modificarVigilancia(created.id, { nombre: 'Proveedores 2027', estado: 'en_pausa' })).toMatchObject({ id: created.id, nombre: 'Proveedores 2027', estado: 'en_pausa' });
    expect(await instance.vigilancia(created.id)).toMatchObject({ nombre: 'Proveedores 2027' });
    const changes = [];
    for await (const change of instance.cambiosVigilancia(created.id)) changes.push(change);
    expect(changes).toEqual([]);
    await instance.eliminarVigilancia(created.id);
    await expect(instance.vigilancia(created.id)).rejects.toBeInstanceOf(client.NoEncontrado);
  });

  it('reads every page of a list by its cursors, newest first', async () => {
    const extra = await createTestIntegrationLater('cliente-ts-movimientos');
    await gateway.withDatabase(async () => {
      for (let n = 1; n <= 55; n++) await topUp(TEST_ACTOR, extra.id, 100 + n, `Depósito ${n}`);
    });
    const ids: number[] = [];
    for await (const movement of clientFor(extra).instance.movimientos()) ids.push(movement.id);
    expect(ids).toHaveLength(55);
    expect(new Set(ids).size).toBe(55);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    expect((await clientFor(extra).instance.cuenta()).saldo_centavos).toBe(Array.from({ length: 55 }, (_, index) => 101 + index).reduce((sum, amount) => sum + amount, 0));
  });

  it('verifies a notice signed as the service signs its webhooks, and refuses one altered or old', () => {
    const body = JSON.stringify({ id: 'ntf_1', tipo: 'saldo_bajo' });
    const now = Math.floor(Date.now() / 1000);
    const firma = signAlert('whsec_secreto', now, body);
    expect(client.verificarAviso('whsec_secreto', { body, fecha: String(now), firma })).toBe(true);
    expect(client.verificarAviso('whsec_secreto', { body: Buffer.from(body), fecha: String(now), firma })).toBe(true);
    expect(client.verificarAviso('whsec_secreto', { body: body.replace('saldo_bajo', 'saldo_agotado'), fecha: String(now), firma })).toBe(false);
    expect(client.verificarAviso('whsec_otro', { body, fecha: String(now), firma })).toBe(false);
    const old = now - 600;
    expect(client.verificarAviso('whsec_secreto', { body, fecha: String(old), firma: signAlert('whsec_secreto', old, body) })).toBe(false);
    expect(client.verificarAviso('whsec_secreto', { body, fecha: null, firma })).toBe(false);
  });

  it('never retries a 429: the per-minute limit is thrown at once', async () => {
    const { instance, attempts } = clientFor(limited);
    let limitedError: unknown;
    for (let n = 0; n < 40 && !limitedError; n++) {
      await instance.cuiNit({ nit: gateway.sample.individual.nit }).catch((error: unknown) => {
        limitedError = error;
      });
    }
    expect(limitedError).toBeInstanceOf(client.LimitePorMinuto);
    // One attempt per call: the last call, refused, was not sent again.
    expect(attempts.length).toBe(new Set(attempts.map((attempt) => attempt.key)).size);
  });
});
