// Contract, "Errors: Catalogs", row by row on each of the three catalogs, over HTTP against the
// built app (startApp, through the harness) with the simulator's fault injection. The row of the
// shared 30-per-minute limit is walked in limits.test.ts with the contract's number; this file
// raises that limit so that its many queries per integration are not cut short.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAULT_IDENTIFIERS, type FaultName } from '@/simulator';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';
import {
  CATALOG_ROUTES,
  catalogData,
  createTestIntegration,
  expectErrorBody,
  expectUnspecifiedErrorBody,
  readMoney,
  readRecords,
  startGateway,
  type ApiAnswer,
  type CatalogRoute,
  type Gateway,
  type TestIntegration,
  type UpstreamRequest,
} from './harness';

const MESSAGES = {
  identifierRequired: 'Envia un NIT o un CUI para consultar.',
  sourceRejectedData: 'Los datos de la consulta no son validos.',
  integrationNotFound: 'Integración no encontrada con estas credenciales.',
  sourceAuthRejected: 'No fue posible autenticar la consulta. Escribe a soporte.',
  balanceExhausted: 'Tu integracion no tiene saldo disponible. Recarga para seguir consultando.',
  sourceBalanceExhausted: 'El servicio de consultas no tiene saldo disponible. Escribe a soporte.',
  credentialsRequired: 'Se requieren credenciales de integracion.',
  catalogNotEnabled: 'Esta consulta no esta habilitada para tu integracion.',
  sourceDeniedQueryType: 'Esta consulta no esta habilitada. Escribe a soporte.',
  notFound: 'No encontramos informacion para los datos enviados.',
  sourceRateLimited: 'Demasiadas consultas seguidas. Intenta de nuevo en unos minutos.',
  sourceUnavailable: 'El servicio de consultas no esta disponible en este momento.',
} as const;

/** What each source outcome the simulator can inject becomes (contract table; docs/sources.md). */
const SOURCE_FAULT_ROWS: Array<{ fault: FaultName; status: number; message: string }> = [
  { fault: 'data_rejected', status: 400, message: MESSAGES.sourceRejectedData },
  { fault: 'auth_rejected', status: 401, message: MESSAGES.sourceAuthRejected },
  { fault: 'balance_exhausted', status: 402, message: MESSAGES.sourceBalanceExhausted },
  { fault: 'query_type_denied', status: 403, message: MESSAGES.sourceDeniedQueryType },
  { fault: 'not_found', status: 404, message: MESSAGES.notFound },
  { fault: 'query_failed', status: 404, message: MESSAGES.notFound },
  { fault: 'rate_limited', status: 429, message: MESSAGES.sourceRateLimited },
  { fault: 'server_error', status: 502, message: MESSAGES.sourceUnavailable },
  { fault: 'unparseable', status: 502, message: MESSAGES.sourceUnavailable },
  { fault: 'connection_dropped', status: 502, message: MESSAGES.sourceUnavailable },
  { fault: 'slow', status: 502, message: MESSAGES.sourceUnavailable },
];

const TARIFF = 125;
const START_BALANCE = 100_000;

let testDb: TestDatabase;
let gateway: Gateway;
let faults: TestIntegration;
let broke: TestIntegration;
let catalogsOff: TestIntegration;
let databaseFailure: TestIntegration;

beforeAll(async () => {
  testDb = await useTestDatabase();
  faults = await createTestIntegration('catalog-faults', { tariffCentavos: TARIFF, balanceCentavos: START_BALANCE });
  broke = await createTestIntegration('catalog-broke', { tariffCentavos: TARIFF, balanceCentavos: 0 });
  catalogsOff = await createTestIntegration('catalogs-off', {
    tariffCentavos: TARIFF,
    balanceCentavos: START_BALANCE,
    flags: { isCuiNitEnabled: false, isRtuV2Enabled: false, isOmisosEnabled: false },
  });
  databaseFailure = await createTestIntegration('catalog-db-failure', { tariffCentavos: TARIFF, balanceCentavos: START_BALANCE });
  gateway = await startGateway(testDb, { env: { RATE_LIMIT_CATALOG_PER_MINUTE: '1000' } });
});

afterAll(async () => {
  await gateway?.stop();
  await testDb?.cleanup();
});

const query = (route: CatalogRoute, json: unknown, as: TestIntegration | undefined = faults) => gateway.call(route, { as, json });

/** Answers that reached the source, with the status they were recorded under; and refusals. */
const reachedSource: ApiAnswer[] = [];
const refusedBeforeSource: ApiAnswer[] = [];

describe('Errors: catalogs', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it("400 'Envia un NIT o un CUI para consultar.' when neither nit nor cui is a usable string", async () => {
    const bodies = [{}, { nit: '' }, { cui: '   ' }, { nit: null, cui: null }, { nit: 12345678 }, { actualizado: true }, { NIT: gateway.sample.individual.nit }];
    for (const route of CATALOG_ROUTES) {
      for (const body of bodies) {
        const answer = await query(route, body);
        expectErrorBody(answer, 400, 'message', MESSAGES.identifierRequired);
        refusedBeforeSource.push(answer);
      }
    }
  });

  for (const row of SOURCE_FAULT_ROWS) {
    it(`${row.status} '${row.message}' when the source answers with the ${row.fault} fault (by NIT and by CUI)`, async () => {
      const identifiers = FAULT_IDENTIFIERS[row.fault];
      const answers = await Promise.all(
        CATALOG_ROUTES.flatMap((route) => [query(route, { nit: identifiers.nit }), query(route, { cui: identifiers.cui })]),
      );
      for (const answer of answers) {
        expectErrorBody(answer, row.status, 'message', row.message);
        if (row.status === 429) expect(answer.headers.get('retry-after')).toBeNull();
        reachedSource.push(answer);
      }
    });
  }

  it("400 'Los datos de la consulta no son validos.' also when the source finds the identifiers invalid, or wants a date of birth it did not get", async () => {
    const { withoutHeldCopy } = gateway.sample;
    const rejected = [
      await query(CATALOG_ROUTES[0], { nit: '12345678' }),
      await query(CATALOG_ROUTES[2], { cui: '1234567890123' }),
      await query(CATALOG_ROUTES[1], { nit: withoutHeldCopy.nit }),
      await query(CATALOG_ROUTES[1], { nit: withoutHeldCopy.nit, date_of_birth: '1900-01-01' }),
    ];
    for (const answer of rejected) {
      expectErrorBody(answer, 400, 'message', MESSAGES.sourceRejectedData);
      reachedSource.push(answer);
    }
  });

  it("404 'No encontramos informacion para los datos enviados.' for identifiers the source does not know, or a NIT and a CUI of different people", async () => {
    const { unknownNit, unknownCui, individual, omiso } = gateway.sample;
    for (const route of CATALOG_ROUTES) {
      for (const body of [{ nit: unknownNit }, { cui: unknownCui }, { nit: individual.nit, cui: omiso.cui }]) {
        const answer = await query(route, body);
        expectErrorBody(answer, 404, 'message', MESSAGES.notFound);
        reachedSource.push(answer);
      }
    }
  });

  it('Errors rule 3: a success with nothing recognizable is a 200 with every field null, not a 404', async () => {
    for (const route of CATALOG_ROUTES) {
      const answer = await query(route, { nit: FAULT_IDENTIFIERS.empty_success.nit });
      const data = catalogData(answer);
      expect(data.nit).toBeNull();
      expect(data.fechaConsulta).toBeNull();
      reachedSource.push(answer);
    }
  });

  it('502 also for upstream answers the simulator cannot give: a 404 that is not the provider\'s, and bodies with bytes PostgreSQL text cannot hold', async () => {
    const forNit = (nit: string) => (request: UpstreamRequest) => (request.body as { nit_consulta?: string }).nit_consulta === nit;
    gateway.upstream.answerInstead(forNit('relay-proxy-404'), { status: 404, contentType: 'text/html', body: '<html>Not Found</html>' });
    gateway.upstream.answerInstead(forNit('relay-nul-503'), { status: 503, contentType: 'text/plain', body: 'upstream\u0000failure' });
    for (const nit of ['relay-proxy-404', 'relay-nul-503']) {
      for (const route of CATALOG_ROUTES) {
        const answer = await query(route, { nit });
        expectErrorBody(answer, 502, 'message', MESSAGES.sourceUnavailable);
        reachedSource.push(answer);
      }
    }
  });

  it("401 'Integración no encontrada con estas credenciales.' and 403 'Se requieren credenciales de integracion.' (credentials)", async () => {
    for (const route of CATALOG_ROUTES) {
      const oneHeader = await gateway.call(route, { headers: { 'x-integracion-login': faults.nombre }, json: { nit: gateway.sample.individual.nit } });
      expectErrorBody(oneHeader, 401, 'message', MESSAGES.integrationNotFound);
      const none = await gateway.call(route, { json: { nit: gateway.sample.individual.nit } });
      expectErrorBody(none, 403, 'message', MESSAGES.credentialsRequired);
      refusedBeforeSource.push(oneHeader, none);
    }
  });

  it("403 'Esta consulta no esta habilitada para tu integracion.' when the catalog is not enabled", async () => {
    for (const route of CATALOG_ROUTES) {
      const answer = await query(route, { nit: gateway.sample.individual.nit }, catalogsOff);
      expectErrorBody(answer, 403, 'message', MESSAGES.catalogNotEnabled);
      refusedBeforeSource.push(answer);
    }
  });

  it("402 'Tu integracion no tiene saldo disponible. Recarga para seguir consultando.' at zero balance, without querying the source", async () => {
    const upstreamBefore = gateway.upstream.requests.length;
    for (const route of CATALOG_ROUTES) {
      const answer = await query(route, { nit: gateway.sample.individual.nit }, broke);
      expectErrorBody(answer, 402, 'message', MESSAGES.balanceExhausted);
      refusedBeforeSource.push(answer);
    }
    expect(gateway.upstream.requests.length).toBe(upstreamBefore);
  });

  it('500 on an unhandled failure (here the database refusing to record the query): one `message` string, text unspecified', async () => {
    const failingNit = gateway.sample.legalEntity.nit;
    await gateway.withDatabase(async (handle) => {
      await handle.rows(sql.raw(`
        create function test_refuse_record() returns trigger language plpgsql as $$
        begin
          if new.integration_id = ${databaseFailure.id} then raise exception 'simulated database failure'; end if;
          return new;
        end $$`));
      await handle.rows(sql.raw('create trigger test_refuse_record before insert on query_records for each row execute function test_refuse_record()'));
    });
    for (const route of CATALOG_ROUTES) {
      expectUnspecifiedErrorBody(await query(route, { nit: failingNit }, databaseFailure), 500, 'message');
    }
  });

  it('every query that reached the source is recorded with the status it answered, uncharged unless 200; refusals are not recorded', async () => {
    const state = await gateway.withDatabase(async (handle) => {
      await handle.rows(sql`drop trigger test_refuse_record on query_records`);
      return { records: await readRecords(handle, faults.id), money: await readMoney(handle, faults.id), brokeRecords: await readRecords(handle, broke.id) };
    });
    const byRequestId = new Map(state.records.map((record) => [record.requestId, record]));
    for (const answer of reachedSource) {
      const record = byRequestId.get(answer.requestId);
      expect(record, `record of ${answer.requestId} (${answer.status})`).toBeDefined();
      expect(record!.httpStatus).toBe(answer.status);
      expect(record!.chargedCentavos).toBe(answer.status === 200 ? TARIFF : 0);
    }
    expect(state.records.length).toBe(reachedSource.length);
    expect(refusedBeforeSource.filter((answer) => byRequestId.has(answer.requestId))).toEqual([]);
    expect(state.brokeRecords).toEqual([]);

    const successes = reachedSource.filter((answer) => answer.status === 200).length;
    expect(state.money.balanceCentavos).toBe(START_BALANCE - successes * TARIFF);
    expect(state.money.ledgerSumCentavos).toBe(state.money.balanceCentavos);
  });
});
