// Contract, "Limits" rules 7 (billing) and 8 (recording), "Errors" rules 2 and 4, and
// docs/decisions.md "Billing", "Recording" and "Request ids", over HTTP against the built app
// (startApp, through the harness). Money and records are read from the app's database at the end
// of each describe (on PGlite that stops the app meanwhile, so reads are batched).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { listHistoryPage } from '@/lib/core/billing/history';
import { openIdentifierLink } from '@/lib/core/records/sealed';
import { normalizeTaxIdentifier, searchKey } from '@/lib/core/sealing/search-keys';
import { verifyLedger } from '@/lib/core/billing/verify';
import { setTariff } from '@/lib/flows/integration-management/service';
import { computeStatementFigures } from '@/lib/flows/statements/figures';
import { FAULT_IDENTIFIERS, type FaultName } from '@/simulator';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';
import {
  CATALOG_ROUTES,
  createTestIntegration,
  expectErrorBody,
  readMoney,
  readRecords,
  RECORDED_LOOKUP,
  ROUTES,
  startGateway,
  TEST_ACTOR,
  TEST_SOURCE_TIMEOUT_MS,
  type ApiAnswer,
  type Gateway,
  type MoneyState,
  type RecordRow,
  type Route,
  type TestIntegration,
} from './harness';

const BALANCE_EXHAUSTED = 'Tu integracion no tiene saldo disponible. Recarga para seguir consultando.';

let testDb: TestDatabase;
let gateway: Gateway;
const integrations: Record<string, TestIntegration> = {};

const SETUPS = {
  /** Every outcome once; enough money for all of them. */
  outcomes: { tariffCentavos: 275, balanceCentavos: 100_000 },
  /** Exactly two queries' worth. */
  twoQueries: { tariffCentavos: 300, balanceCentavos: 600 },
  /** Less than one query, but not zero. */
  short: { tariffCentavos: 300, balanceCentavos: 299 },
  /** Free queries on a positive balance. */
  free: { tariffCentavos: 0, balanceCentavos: 1 },
  /** Free queries at zero balance: still 402 (decision). */
  freeButEmpty: { tariffCentavos: 0, balanceCentavos: 0 },
  /** A tariff changed between two queries. */
  retariffed: { tariffCentavos: 100, balanceCentavos: 10_000 },
} as const;

beforeAll(async () => {
  testDb = await useTestDatabase();
  for (const [name, setup] of Object.entries(SETUPS)) integrations[name] = await createTestIntegration(`billing-${name}`, setup);
  gateway = await startGateway(testDb, { env: { RATE_LIMIT_CATALOG_PER_MINUTE: '1000' } });
});

afterAll(async () => {
  await gateway?.stop();
  await testDb?.cleanup();
});

const as = (name: keyof typeof SETUPS) => integrations[name]!;

interface SentQuery {
  route: Route;
  json: Record<string, unknown>;
  answer: ApiAnswer;
}

async function send(name: keyof typeof SETUPS, route: Route, json: Record<string, unknown>): Promise<SentQuery> {
  return { route, json, answer: await gateway.call(route, { as: as(name), json }) };
}

type IntegrationState = { records: RecordRow[]; money: MoneyState };

/** Records and money of several integrations, in one visit to the database. */
async function readStates<Name extends keyof typeof SETUPS>(...names: Name[]): Promise<Record<Name, IntegrationState>> {
  return gateway.withDatabase(async (handle) => {
    const states = {} as Record<Name, IntegrationState>;
    for (const name of names) states[name] = { records: await readRecords(handle, as(name).id), money: await readMoney(handle, as(name).id) };
    return states;
  });
}

/** Each hold settled exactly once, by a capture (amount 0) or a void (the tariff back). */
function expectHoldsSettledOnce(money: MoneyState): void {
  const holds = money.ledger.filter((entry) => entry.kind === 'hold');
  const settlements = money.ledger.filter((entry) => entry.kind === 'capture' || entry.kind === 'void');
  expect(settlements.map((entry) => entry.holdId).sort()).toEqual(holds.map((entry) => entry.id).sort());
  for (const settlement of settlements) {
    const hold = holds.find((entry) => entry.id === settlement.holdId)!;
    expect(settlement.requestId).toBe(hold.requestId);
    expect(settlement.amountCentavos).toBe(settlement.kind === 'capture' ? 0 : -hold.amountCentavos);
  }
}

describe('billing and recording of every outcome', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  const tariff = SETUPS.outcomes.tariffCentavos;
  const sent: SentQuery[] = [];
  const refused: SentQuery[] = [];

  it('a resolved catalog query is charged exactly the tariff; the registry lookups are never billed', async () => {
    const { individual } = gateway.sample;
    for (const route of CATALOG_ROUTES) {
      const query = await send('outcomes', route, { nit: individual.nit });
      expect(query.answer.status).toBe(200);
      sent.push(query);
    }
    // Both identifiers, and a CUI with its printed spaces: recorded exactly as sent.
    sent.push(await send('outcomes', ROUTES.cuiNit, { nit: individual.nit, cui: individual.cui }));
    sent.push(await send('outcomes', ROUTES.omisos, { cui: '1587 56444 0904' }));
    // A success with nothing recognizable is still a success (decision: captured on every 200).
    sent.push(await send('outcomes', ROUTES.cuiNit, { nit: FAULT_IDENTIFIERS.empty_success.nit }));
    sent.push(await send('outcomes', ROUTES.renap, { cui: individual.cui! }));
    sent.push(await send('outcomes', ROUTES.renap, { cui: FAULT_IDENTIFIERS.server_error.cui }));
    sent.push(await send('outcomes', ROUTES.rtuNits, { nits: [individual.nit, gateway.sample.legalEntity.nit] }));
    expect(sent.slice(-6).map((query) => query.answer.status)).toEqual([200, 200, 200, 200, 500, 200]);
  });

  it('links the NIT and CUI the catalogs\' answers gave together, by keyed hash, with the pair sealed (issue 30, point 6)', async () => {
    const { individual } = gateway.sample;
    const links = await gateway.withDatabase((handle) =>
      handle.rows<{ nit_key: string; cui_key: string; pair_sealed: string }>(sql`select nit_key, cui_key, pair_sealed from identifier_links`),
    );
    // Three answers (cui-nit, rtu's persona.dpi, omisos) about one person: one link.
    expect(links.map(({ nit_key, cui_key }) => ({ nit_key, cui_key }))).toEqual([{ nit_key: searchKey(individual.nit), cui_key: searchKey(individual.cui!) }]);
    expect(openIdentifierLink(links[0]!.pair_sealed)).toEqual({ nit: normalizeTaxIdentifier(individual.nit), cui: normalizeTaxIdentifier(individual.cui!) });
    for (const clear of [individual.nit, individual.cui!, normalizeTaxIdentifier(individual.nit)!]) expect(JSON.stringify(links)).not.toContain(clear);
  });

  it('404, 429 and 502 from the source, and every other source error, are not charged', async () => {
    const faults: FaultName[] = ['not_found', 'query_failed', 'rate_limited', 'server_error', 'unparseable', 'connection_dropped', 'slow', 'data_rejected', 'auth_rejected', 'balance_exhausted', 'query_type_denied'];
    const answers = await Promise.all(faults.map((fault) => send('outcomes', ROUTES.omisos, { nit: FAULT_IDENTIFIERS[fault].nit })));
    expect(answers.map((query) => query.answer.status)).toEqual([404, 404, 429, 502, 502, 502, 502, 400, 401, 402, 403]);
    sent.push(...answers);
    sent.push(await send('outcomes', ROUTES.catalogRtu, { nit: gateway.sample.unknownNit }));
  });

  it('refusals before the query: no identifier, malformed body, flag and credential checks (never recorded, never charged)', async () => {
    for (const json of [{}, { nit: '' }, { nit: 'x'.repeat(40) }, { nit: gateway.sample.individual.nit, actualizado: 'true' }]) {
      const query = await send('outcomes', ROUTES.cuiNit, json);
      expect(query.answer.status).toBe(400);
      refused.push(query);
    }
    const tooMany = await send('outcomes', ROUTES.rtuNits, { nits: Array.from({ length: 51 }, () => gateway.sample.individual.nit) });
    expect(tooMany.answer.status).toBe(400);
    refused.push(tooMany);
  });

  it('records every query that reached a source with its integration, lookup, status, time, identifiers, charge, tariff and request id; the balance equals the ledger', async () => {
    const { records, money } = (await readStates('outcomes')).outcomes;
    const byRequestId = new Map(records.map((record) => [record.requestId, record]));
    expect(records.length).toBe(sent.length);
    for (const query of sent) {
      const record = byRequestId.get(query.answer.requestId);
      const billed = CATALOG_ROUTES.includes(query.route as (typeof CATALOG_ROUTES)[number]);
      const nits = query.json.nits as string[] | undefined;
      expect(record, `${query.route} ${JSON.stringify(query.json)}`).toEqual({
        id: expect.any(Number),
        requestId: query.answer.requestId,
        integrationId: as('outcomes').id,
        lookup: RECORDED_LOOKUP[query.route],
        httpStatus: query.answer.status,
        responseTimeMs: expect.any(Number),
        nit: nits ? nits.join(',') : ((query.json.nit as string | undefined) ?? null),
        cui: (query.json.cui as string | undefined) ?? null,
        chargedCentavos: billed && query.answer.status === 200 ? tariff : 0,
        tariffCentavos: billed ? tariff : null,
      });
      expect(Number.isInteger(record!.responseTimeMs) && record!.responseTimeMs >= 0).toBe(true);
    }
    // The slow source was waited for until the ceiling: the recorded time includes that wait.
    const slow = sent.find((query) => query.json.nit === FAULT_IDENTIFIERS.slow.nit)!;
    expect(byRequestId.get(slow.answer.requestId)!.responseTimeMs).toBeGreaterThanOrEqual(TEST_SOURCE_TIMEOUT_MS - 1);
    expect(refused.filter((query) => byRequestId.has(query.answer.requestId))).toEqual([]);

    const captured = sent.filter((query) => CATALOG_ROUTES.includes(query.route as (typeof CATALOG_ROUTES)[number]) && query.answer.status === 200).length;
    expect(captured).toBe(6);
    expect(money.balanceCentavos).toBe(SETUPS.outcomes.balanceCentavos - captured * tariff);
    expect(money.ledgerSumCentavos).toBe(money.balanceCentavos);
    expectHoldsSettledOnce(money);
    const holdRequestIds = money.ledger.filter((entry) => entry.kind === 'hold').map((entry) => entry.requestId);
    const billedRequestIds = sent.filter((query) => CATALOG_ROUTES.includes(query.route as (typeof CATALOG_ROUTES)[number])).map((query) => query.answer.requestId);
    expect(holdRequestIds.sort()).toEqual(billedRequestIds.sort());
    // Each settlement points at the record of its query.
    for (const settlement of money.ledger.filter((entry) => entry.kind === 'capture' || entry.kind === 'void')) {
      expect(settlement.queryRecordId).toBe(byRequestId.get(settlement.requestId!)?.id);
    }
  });
});

describe('402: the balance cannot cover the tariff', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  const refusedWith402: ApiAnswer[] = [];

  it('a balance of exactly two tariffs pays two queries; the third gets 402 and never reaches the source, whatever it asks', async () => {
    const { individual } = gateway.sample;
    expect((await send('twoQueries', ROUTES.cuiNit, { nit: individual.nit })).answer.status).toBe(200);
    expect((await send('twoQueries', ROUTES.omisos, { nit: individual.nit })).answer.status).toBe(200);
    const upstreamBefore = gateway.upstream.requests.length;
    for (const json of [{ nit: individual.nit }, { nit: FAULT_IDENTIFIERS.server_error.nit }, { cui: FAULT_IDENTIFIERS.slow.cui }]) {
      for (const route of CATALOG_ROUTES) {
        const { answer } = await send('twoQueries', route, json);
        expectErrorBody(answer, 402, 'message', BALANCE_EXHAUSTED);
        refusedWith402.push(answer);
      }
    }
    expect(gateway.upstream.requests.length).toBe(upstreamBefore);
    // The registry lookups are not billed and keep working at zero balance.
    expect((await send('twoQueries', ROUTES.renap, { cui: individual.cui! })).answer.status).toBe(200);
  });

  it('a positive balance below the tariff is also 402; at zero balance even a zero tariff is 402 (decision); a zero tariff on a positive balance is free', async () => {
    const { individual } = gateway.sample;
    const short = await send('short', ROUTES.cuiNit, { nit: individual.nit });
    expectErrorBody(short.answer, 402, 'message', BALANCE_EXHAUSTED);
    const freeButEmpty = await send('freeButEmpty', ROUTES.cuiNit, { nit: individual.nit });
    expectErrorBody(freeButEmpty.answer, 402, 'message', BALANCE_EXHAUSTED);
    refusedWith402.push(short.answer, freeButEmpty.answer);
    for (const route of CATALOG_ROUTES) expect((await send('free', route, { nit: individual.nit })).answer.status).toBe(200);
  });

  it('decision (precedence): the body is checked before the balance, so a malformed request at zero balance is a 400', async () => {
    const malformed = await send('twoQueries', ROUTES.cuiNit, { cui: '' });
    expectErrorBody(malformed.answer, 400, 'message', 'Envia un NIT o un CUI para consultar.');
  });

  it('nothing was recorded or held for a 402; the balance is exactly zero, never below, and equals the ledger', async () => {
    const { twoQueries, short, free } = await readStates('twoQueries', 'short', 'free');
    expect(twoQueries.money.balanceCentavos).toBe(0);
    expect(twoQueries.money.ledgerSumCentavos).toBe(0);
    expect(twoQueries.money.ledger.map((entry) => entry.kind)).toEqual(['top_up', 'hold', 'capture', 'hold', 'capture']);
    expect(twoQueries.records.map((record) => [record.lookup, record.httpStatus, record.chargedCentavos])).toEqual([
      ['cui_nit', 200, 300],
      ['omisos', 200, 300],
      ['renap', 200, 0],
    ]);
    const recorded = new Set(twoQueries.records.map((record) => record.requestId));
    expect(refusedWith402.filter((answer) => recorded.has(answer.requestId))).toEqual([]);

    expect(short.records).toEqual([]);
    expect(short.money).toMatchObject({ balanceCentavos: 299, ledgerSumCentavos: 299 });

    expect(free.records.map((record) => [record.httpStatus, record.chargedCentavos, record.tariffCentavos])).toEqual([
      [200, 0, 0],
      [200, 0, 0],
      [200, 0, 0],
    ]);
    expect(free.money).toMatchObject({ balanceCentavos: 1, ledgerSumCentavos: 1 });
  });

  it('decision: a free query (tariff Q 0.00) moves no money: no capture, nothing in the balance history, the reconciliation and the statement agree', async () => {
    const freeId = as('free').id;
    const { ledger, verification, history, statement } = await gateway.withDatabase(async (handle) => {
      const now = new Date();
      const month = `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
      const afterTheMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 2));
      return {
        ledger: (await readMoney(handle, freeId)).ledger,
        verification: await verifyLedger({ integrationId: freeId, trigger: 'cli', sweepAfterSeconds: 3600 }),
        history: await listHistoryPage(freeId, {}),
        statement: await computeStatementFigures({ id: freeId, nombre: as('free').nombre }, month, afterTheMonth).then(
          (figures) => ({ charges: figures.charges.count, closing: figures.closingBalanceCentavos }),
          (error: Error) => ({ error: error.message }),
        ),
      };
    });
    // The three free queries were held (the zero balance check is the hold's) and voided: no capture.
    expect(ledger.map((entry) => entry.kind)).toEqual(['top_up', 'hold', 'void', 'hold', 'void', 'hold', 'void']);
    expect(verification.differences).toEqual([]);
    expect(verification.ok).toBe(true);
    expect(history.rows.map((row) => [row.kind, row.amountCentavos])).toEqual([['top_up', 1]]);
    expect(statement).toEqual({ charges: 0, closing: 1 });
  });
});

describe('tariff changes and request ids', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('decision: the tariff is read when the query is held, so a change applies to the next query', async () => {
    const { individual } = gateway.sample;
    const before = await send('retariffed', ROUTES.cuiNit, { nit: individual.nit });
    await gateway.withDatabase(async () => {
      const changed = await setTariff(TEST_ACTOR, as('retariffed').id, 250);
      if (!changed.ok) throw new Error(changed.error.message);
    });
    const after = await send('retariffed', ROUTES.cuiNit, { nit: individual.nit });
    const { records, money } = (await readStates('retariffed')).retariffed;
    expect(records.map((record) => [record.requestId, record.chargedCentavos, record.tariffCentavos])).toEqual([
      [before.answer.requestId, 100, 100],
      [after.answer.requestId, 250, 250],
    ]);
    expect(money).toMatchObject({ balanceCentavos: 10_000 - 350, ledgerSumCentavos: 10_000 - 350 });
  });

  it('decision: every response gets a fresh request id; one sent by the client is replaced', async () => {
    const ids = new Set<string>();
    for (const route of [...CATALOG_ROUTES, ROUTES.renap, ROUTES.rtuNits]) {
      const answer = await gateway.call(route, { as: as('free'), headers: { 'x-request-id': 'req_chosen_by_client' }, json: {} });
      expect(answer.requestId).not.toBe('req_chosen_by_client');
      ids.add(answer.requestId);
    }
    expect(ids.size).toBe(5);
  });
});
