// The shared client scenario (docs/clients.md, issue 69): what every library installed from its own
// package does against the built app and the simulator, asserted the same way for each: the five
// lookups, each cause's exception with its request id, a 502 retried with the same key and charged
// once (the app's ledger shows one capture), a 429 never resent, a job, a watch list, every page of a
// list and a webhook notice verified. Each language's file says how to build, install and run its
// library (tests/clients/escenario.py, escenario.php, Escenario.java: one step per call, a JSON answer).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatedClientFiles } from '@/clients/generate';
import { topUp } from '@/lib/core/billing/ledger';
import { signAlert } from '@/lib/reactions/alerts/signature';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';
import { PAIRED_ANSWERS } from './paired-answers';
import { CATALOG_UPSTREAM_PATHS, createTestIntegration, readMoney, ROUTES, startGateway, TEST_ACTOR, type Gateway, type TestIntegration } from '../conformance/harness';

export interface LibraryUnderTest {
  /** As the describe block names it: "the Python client library". */
  name: string;
  /** The prefix of its integrations' names. */
  login: string;
  /** Builds its package as its ecosystem does and installs that package alone in a directory of its own. */
  install(): Promise<void>;
  /** Runs one step of the scenario in the installed library: its JSON answer. */
  run(step: string, data: Record<string, unknown>): Promise<unknown>;
  /** Stops what install() or run() left running and removes its directory. */
  cleanup(): Promise<void>;
  /** The version its package description says. */
  version(): string;
  /** How its constructor names the base URL when it refuses an empty one. */
  baseUrlName: string;
  /** What it answers beyond the other libraries, per step. */
  alsoAnswers?: { consultas?: (gateway: Gateway) => Record<string, unknown>; aviso?: Record<string, boolean> };
}

type Cause = { tipo: string; status: number; request_id: string | null; intentos: number } | null;

export function describeScenario(library: LibraryUnderTest, ownChecks: () => void = () => {}): void {
  let testDb: TestDatabase;
  let gateway: Gateway;
  const people: Record<string, TestIntegration> = {};

  beforeAll(async () => {
    testDb = await useTestDatabase();
    people.main = await createTestIntegration(library.login, { tariffCentavos: 150, balanceCentavos: 100_000 });
    people.disabled = await createTestIntegration(`${library.login}-sin-banderas`, { flags: { isCuiNitEnabled: false, isRenapEnabled: false }, balanceCentavos: 100_000 });
    people.broke = await createTestIntegration(`${library.login}-sin-saldo`, { tariffCentavos: 150, balanceCentavos: 0 });
    people.limited = await createTestIntegration(`${library.login}-limite`, { tariffCentavos: 0, balanceCentavos: 100_000 });
    people.paged = await createTestIntegration(`${library.login}-movimientos`);
    for (let n = 1; n <= 55; n++) await topUp(TEST_ACTOR, people.paged.id, 100 + n, `Depósito ${n}`);
    [gateway] = await Promise.all([startGateway(testDb), library.install()]);
  }, PROCESS_TEST_TIMEOUT_MS * 2);

  afterAll(async () => {
    await library.cleanup();
    await gateway?.stop();
    await testDb?.cleanup();
  });

  /** One step, with the gateway's address, its sample taxpayers and every integration's credentials. */
  async function step<T = Record<string, unknown>>(name: string, extra: Record<string, unknown> = {}): Promise<T> {
    const credentials = Object.fromEntries(Object.entries(people).map(([role, integration]) => [role, { login: integration.nombre, token: integration.token }]));
    return (await library.run(name, {
      base_url: `${gateway.app.baseUrl}/api`,
      nit: gateway.sample.individual.nit,
      cui: gateway.sample.individual.cui,
      unknown_nit: gateway.sample.unknownNit,
      ...credentials,
      ...extra,
    })) as T;
  }

  describe(library.name, () => {
    it('is what the app’s OpenAPI document generates, with the document’s version', async () => {
      for (const file of await generatedClientFiles()) expect(readFileSync(file.path, 'utf8'), path.relative(process.cwd(), file.path)).toBe(file.text);
      expect(library.version()).toBe((JSON.parse(readFileSync('clients/typescript/package.json', 'utf8')) as { version: string }).version);
    });

    ownChecks();

    it('requires the base URL and both credentials, and waits longer than the contract’s ceiling', async () => {
      const { problemas, tiempo_de_espera } = await step<{ problemas: string[]; tiempo_de_espera: number }>('obligatorios');
      expect(problemas).toEqual([expect.stringMatching(new RegExp(`^${library.baseUrlName} es obligatoria`)), expect.stringMatching(/^login y token son obligatorios/)]);
      expect(tiempo_de_espera).toBeGreaterThan(30);
    });

    it('answers the five lookups', async () => {
      const answers = await step<{ renap: string; request_id: string; estados: number[]; con_data: boolean[]; claves: Array<string | null>; intentos: number[] }>('consultas');
      expect(answers.renap).toBe(gateway.sample.individual.cui);
      expect(answers).toMatchObject(library.alsoAnswers?.consultas?.(gateway) ?? {});
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

    it('tells apart the causes that share a status, by their message, as the contract’s table says', async () => {
      const { tipos } = await step<{ tipos: string[] }>('causas', { respuestas: PAIRED_ANSWERS.map(([status, body, headers]) => ({ status, body, headers })) });
      expect(tipos).toEqual(PAIRED_ANSWERS.map(([, , , type]) => type));
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
      expect(await step('aviso', { aviso })).toEqual({ valido: true, alterado: false, otro_secreto: false, viejo: false, ...library.alsoAnswers?.aviso });
    });
  });
}
