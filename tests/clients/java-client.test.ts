// The Java client library (clients/java, issue 69): its models, its table of the contract's messages
// and its pom.xml are what the app's OpenAPI document generates; clients/java/build.sh builds its jar
// with the JDK's javac and jar against Debian's Jackson, a directory of its own gets that jar alone,
// and the shared scenario (tests/clients/Escenario.java) run there against the built app and the
// simulator sees what the other libraries' does: the five lookups, each cause's exception with its
// request id, a 502 retried with the same key and charged once, a 429 never resent, a job, a watch
// list, every page of a list and a notice verified.
import { type ChildProcessWithoutNullStreams, execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatedClientFiles } from '@/clients/generate';
import { topUp } from '@/lib/core/billing/ledger';
import { signAlert } from '@/lib/reactions/alerts/signature';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';
import { CATALOG_UPSTREAM_PATHS, createTestIntegration, readMoney, ROUTES, startGateway, TEST_ACTOR, type Gateway, type TestIntegration } from '../conformance/harness';

const run = promisify(execFile);
const SCENARIO = path.join(process.cwd(), 'tests', 'clients', 'Escenario.java');
const VERSION = /<artifactId>cliente<\/artifactId>\s*<version>([^<]+)<\/version>/.exec(readFileSync('clients/java/pom.xml', 'utf8'))![1]!;
/** Debian's Jackson (.ci/run installs default-jdk-headless and libjackson2-databind-java). */
const JACKSON = ['jackson-databind', 'jackson-core', 'jackson-annotations'].map((name) => `/usr/share/java/${name}.jar`);

let testDb: TestDatabase;
let gateway: Gateway;
let workDirectory: string;
let installed: string;
const people: Record<string, TestIntegration> = {};

/** The jar as clients/java/build.sh builds it, copied alone into a directory of its own; its class path there. */
async function installedJar(): Promise<string> {
  workDirectory = await mkdtemp(path.join(tmpdir(), 'cliente-java-'));
  const { stdout } = await run(path.join(process.cwd(), 'clients', 'java', 'build.sh'), [path.join(workDirectory, 'target')]);
  const jar = stdout.trim();
  expect(path.basename(jar)).toBe(`cliente-${VERSION}.jar`);
  const project = path.join(workDirectory, 'proyecto');
  await mkdir(path.join(project, 'lib'), { recursive: true });
  await copyFile(jar, path.join(project, 'lib', path.basename(jar)));
  installed = project;
  const libraries = [path.join('lib', path.basename(jar)), ...JACKSON].join(':');
  // Compiled once against the installed jar: the single-file launcher compiled it again for every step.
  await run('javac', ['-encoding', 'UTF-8', '-cp', libraries, '-d', 'escenario', SCENARIO], { cwd: project });
  return `${libraries}:escenario`;
}

let classPath: string;

beforeAll(async () => {
  testDb = await useTestDatabase();
  people.main = await createTestIntegration('cliente-java', { tariffCentavos: 150, balanceCentavos: 100_000 });
  people.disabled = await createTestIntegration('cliente-java-sin-banderas', { flags: { isCuiNitEnabled: false, isRenapEnabled: false }, balanceCentavos: 100_000 });
  people.broke = await createTestIntegration('cliente-java-sin-saldo', { tariffCentavos: 150, balanceCentavos: 0 });
  people.limited = await createTestIntegration('cliente-java-limite', { tariffCentavos: 0, balanceCentavos: 100_000 });
  people.paged = await createTestIntegration('cliente-java-movimientos');
  for (let n = 1; n <= 55; n++) await topUp(TEST_ACTOR, people.paged.id, 100 + n, `Depósito ${n}`);
  [gateway, classPath] = await Promise.all([startGateway(testDb), installedJar()]);
}, PROCESS_TEST_TIMEOUT_MS * 2);

afterAll(async () => {
  scenario?.child.stdin.end();
  await gateway?.stop();
  await testDb?.cleanup();
  if (workDirectory) await rm(workDirectory, { recursive: true, force: true });
});

/** The scenario's one JVM, started with the first step: a JVM's start cost 1-3 s a step on CI's two cores. */
let scenario: { child: ChildProcessWithoutNullStreams; lines: AsyncIterator<string> } | undefined;

/** Runs one step of the scenario with the installed jar as its class path; its JSON line. */
async function step<T = Record<string, unknown>>(name: string, extra: Record<string, unknown> = {}): Promise<T> {
  const credentials = Object.fromEntries(Object.entries(people).map(([role, integration]) => [role, { login: integration.nombre, token: integration.token }]));
  const data = {
    base_url: `${gateway.app.baseUrl}/api`,
    nit: gateway.sample.individual.nit,
    cui: gateway.sample.individual.cui,
    unknown_nit: gateway.sample.unknownNit,
    ...credentials,
    ...extra,
  };
  if (!scenario) {
    const child = spawn('java', ['-cp', classPath, 'Escenario'], { cwd: installed });
    child.stderr.pipe(process.stderr);
    scenario = { child, lines: createInterface({ input: child.stdout })[Symbol.asyncIterator]() };
  }
  scenario.child.stdin.write(`${name}\t${JSON.stringify(data)}\n`);
  const line = await scenario.lines.next();
  if (line.done) throw new Error(`the scenario's JVM ended before answering ${name}`);
  const answer = JSON.parse(line.value) as T & { falla?: string };
  if (answer && typeof answer === 'object' && 'falla' in answer && typeof answer.falla === 'string') throw new Error(`${name}: ${answer.falla}`);
  return answer;
}

type Cause = { tipo: string; status: number; request_id: string | null; intentos: number } | null;

describe('the Java client library', () => {
  it('is what the app’s OpenAPI document generates, with the document’s version', async () => {
    for (const file of await generatedClientFiles()) expect(readFileSync(file.path, 'utf8'), path.relative(process.cwd(), file.path)).toBe(file.text);
    expect(VERSION).toBe(JSON.parse(readFileSync('clients/typescript/package.json', 'utf8')).version);
    expect(readFileSync('clients/java/src/main/java/gt/pasarela/contribuyentes/modelos/OmisosRespuesta.java', 'utf8')).toContain('@JsonProperty("data")');
  });

  it('requires the base URL and both credentials, and waits longer than the contract’s ceiling', async () => {
    const { problemas, tiempo_de_espera } = await step<{ problemas: string[]; tiempo_de_espera: number }>('obligatorios');
    expect(problemas).toEqual([expect.stringMatching(/^baseUrl es obligatoria/), expect.stringMatching(/^login y token son obligatorios/)]);
    expect(tiempo_de_espera).toBeGreaterThan(30);
  });

  it('answers the five lookups', async () => {
    const answers = await step<{ renap: string; request_id: string; estados: number[]; con_data: boolean[]; claves: Array<string | null>; intentos: number[]; modelo_omisos: string }>('consultas');
    expect(answers.renap).toBe(gateway.sample.individual.cui);
    expect(answers.modelo_omisos).toBe(gateway.sample.individual.nit);
    expect(answers.request_id).toMatch(/^req_/);
    expect(answers.estados).toEqual([200, 200, 200, 200]);
    expect(answers.con_data).toEqual([true, true, true, true]);
    expect(answers.claves[0]).toBeNull();
    for (const key of answers.claves.slice(1)) expect(key).toMatch(/^[0-9a-f-]{36}$/);
    expect(answers.intentos).toEqual([1, 1, 1, 1]);
  });

  it('raises each cause’s own exception, with the answer’s request id', async () => {
    const causes = await step<Record<string, Cause>>('errores');
    const expected: Record<string, [string, number]> = {
      clave_equivocada: ['IntegracionNoEncontrada', 401],
      catalogo_apagado: ['ConsultaNoHabilitada', 403],
      registro_apagado: ['ConsultaNoHabilitada', 403],
      sin_saldo: ['SaldoInsuficiente', 402],
      no_encontrado: ['NoEncontrado', 404],
      sin_identificador: ['SolicitudNoValida', 400],
    };
    for (const [what, [type, status]] of Object.entries(expected)) {
      expect(causes[what], what).toMatchObject({ tipo: type, status, request_id: expect.stringMatching(/^req_/), intentos: 1 });
    }
  });

  it('retries a 502 with the same Idempotency-Key, and the app charges the call once', async () => {
    let failures = 1;
    gateway.upstream.answerInstead((request) => request.path === CATALOG_UPSTREAM_PATHS[ROUTES.omisos] && failures-- > 0, { status: 503, contentType: 'text/plain', body: 'no disponible' });
    const before = await gateway.withDatabase((handle) => readMoney(handle, people.main!.id));
    const answer = await step<{ status: number; intentos: number; clave: string; enviadas: string[] }>('reintento');
    expect(answer).toMatchObject({ status: 200, intentos: 2 });
    expect(answer.enviadas).toEqual([answer.clave, answer.clave]);
    const after = await gateway.withDatabase((handle) => readMoney(handle, people.main!.id));
    expect(after.ledger.slice(before.ledger.length).filter((entry) => entry.kind === 'capture')).toHaveLength(1);
    expect(before.balanceCentavos - after.balanceCentavos).toBe(150);
  });

  it('never retries a 429', async () => {
    expect(await step<Cause>('limite')).toMatchObject({ tipo: 'LimitePorMinuto', status: 429, intentos: 1 });
  });

  it('submits a bulk job once, waits for it and reads its results', async () => {
    expect(await step('lote')).toMatchObject({
      mismo: true,
      estado: 'completado',
      conteos: { total: 3, encontrados: 1, no_encontrados: 1, invalidos: 1 },
      ultimo_visto: 'completado',
      filas: ['encontrado', 'no_encontrado', 'invalido'],
      csv: expect.stringContaining('identificador'),
      listado: true,
    });
  });

  it('creates, lists, changes and deletes a watch list', async () => {
    expect(await step('vigilancia')).toMatchObject({ listada: true, nombre: 'Proveedores 2027', estado: 'en_pausa', cambios: [], despues: { tipo: 'NoEncontrado', status: 404 } });
  });

  it('reads every page of a list by its cursors', async () => {
    const { ids, saldo } = await step<{ ids: number[]; saldo: number }>('paginas');
    expect(ids).toHaveLength(55);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    expect(saldo).toBe(Array.from({ length: 55 }, (_, index) => 101 + index).reduce((sum, amount) => sum + amount, 0));
  });

  it('verifies a notice signed as the service signs its webhooks, and refuses one altered, old or under another secret', async () => {
    const cuerpo = JSON.stringify({ id: 'ntf_1', tipo: 'saldo_bajo', mensaje: 'Saldo bajo: Q 12.50' });
    const fecha = Math.floor(Date.now() / 1000);
    const aviso = { secreto: 'whsec_secreto', cuerpo, fecha: String(fecha), firma: signAlert('whsec_secreto', fecha, cuerpo) };
    expect(await step('aviso', { aviso })).toEqual({ valido: true, alterado: false, otro_secreto: false, viejo: false });
  });
});
