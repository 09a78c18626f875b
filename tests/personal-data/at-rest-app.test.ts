// Issue 23, points 2, 3 and 7, through the built app (startApp, through the harness): lookups answer integrators exactly as before,
// while what the database keeps of them (every column of query_records and
// query_record_identifiers, and on PostgreSQL a pg_dump of the whole database) holds no NIT or CUI
// in clear; records the previous release left in clear are sealed by `personal-data:reseal` run
// beside the app; and the search finds every record, batches included, by any writing.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@/db/client';
import { createTestIntegration, ROUTES, startGateway, type Gateway, type TestIntegration } from '../conformance/harness';
import { runCli } from '../support/cli';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';

const PG_DUMP = '/usr/lib/postgresql/15/bin/pg_dump';
// The CUI a registry echoes in its error body (the relay answers for it instead of the simulator).
const ECHOED_CUI = '2415751810101';
const OLD_NIT = '8832114K';

let testDb: TestDatabase;
let gateway: Gateway;
let integration: TestIntegration;

beforeAll(async () => {
  testDb = await useTestDatabase();
  integration = await createTestIntegration('datos-personales', { tariffCentavos: 100, balanceCentavos: 100_000 });
  gateway = await startGateway(testDb);
});

afterAll(async () => {
  await gateway?.stop();
  await testDb?.cleanup();
});

/** Every writing of the identifiers the lookups below sent, as it could appear in clear. */
function identifiersSent(): string[] {
  const { individual, legalEntity, unknownNit } = gateway.sample;
  const spaced = (cui: string) => `${cui.slice(0, 4)} ${cui.slice(4, 9)} ${cui.slice(9)}`;
  const hyphened = (nit: string) => `${nit.slice(0, -1)}-${nit.slice(-1)}`;
  return [
    individual.cui!,
    spaced(individual.cui!),
    individual.nit,
    hyphened(individual.nit),
    legalEntity.nit,
    hyphened(legalEntity.nit),
    unknownNit,
    ECHOED_CUI,
    spaced(ECHOED_CUI),
    OLD_NIT,
  ];
}

async function storedRows(handle: DatabaseHandle): Promise<string> {
  const records = await handle.rows<{ row: string }>(sql`select row_to_json(r)::text as row from query_records r`);
  const identifiers = await handle.rows<{ row: string }>(sql`select row_to_json(i)::text as row from query_record_identifiers i`);
  return [...records, ...identifiers].map(({ row }) => row).join('\n');
}

function expectNoIdentifierIn(text: string, where: string): void {
  for (const identifier of identifiersSent()) expect(text, `${where} holds "${identifier}" in clear`).not.toContain(identifier);
}

async function searchByCli(identifier: string): Promise<Array<{ requestId: string; nit: string | null; cui: string | null; errorMessage: string | null }>> {
  const result = await runCli(['records:list', '--identifier', identifier, '--motivo', 'Prueba de cifrado', '--limit', '100', '--json'], testDb.env);
  expect(result.code, result.stderr).toBe(0);
  return result.json();
}

describe('personal data at rest, through the built app', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  const requestIds: Record<string, string> = {};

  it('answers every lookup as the contract says, identifiers as sent', async () => {
    const { individual, legalEntity, unknownNit } = gateway.sample;
    gateway.upstream.answerInstead((request) => (request.body as { cui?: string }).cui === ECHOED_CUI, {
      // Not the registry's JSON: the record's detail quotes the body.
      status: 502,
      contentType: 'text/plain',
      body: `Error interno al consultar el CUI ${ECHOED_CUI}`,
    });
    const calls = {
      renap: await gateway.call(ROUTES.renap, { as: integration, json: { cui: `${individual.cui!.slice(0, 4)} ${individual.cui!.slice(4, 9)} ${individual.cui!.slice(9)}` } }),
      batch: await gateway.call(ROUTES.rtuNits, { as: integration, json: { nits: [legalEntity.nit, individual.nit.toLowerCase(), unknownNit] } }),
      cuiNit: await gateway.call(ROUTES.cuiNit, { as: integration, json: { nit: individual.nit, cui: individual.cui } }),
      omisos: await gateway.call(ROUTES.omisos, { as: integration, json: { nit: `${individual.nit.slice(0, -1)}-${individual.nit.slice(-1)}` } }),
      echoed: await gateway.call(ROUTES.renap, { as: integration, json: { cui: ECHOED_CUI } }),
    };
    expect(calls.renap.status).toBe(200);
    expect(calls.batch.status).toBe(200);
    expect((calls.batch.body as { data: Array<{ nit: string }> }).data.map((record) => record.nit)).toEqual([legalEntity.nit, individual.nit]);
    expect(calls.cuiNit.status).toBe(200);
    expect((calls.cuiNit.body as { data: { nit: string; cui: string } }).data).toMatchObject({ nit: individual.nit, cui: individual.cui });
    expect(calls.omisos.status).toBe(200);
    expect(calls.echoed.status).toBe(500);
    for (const [name, answer] of Object.entries(calls)) requestIds[name] = answer.requestId;
  });

  it('keeps no identifier in clear in any column, and no identifier in the error text the registry echoed', async () => {
    const stored = await gateway.withDatabase(async (handle) => storedRows(handle));
    expect(stored).toContain(requestIds.echoed);
    expectNoIdentifierIn(stored, 'query_records / query_record_identifiers');
    const [echoed] = await searchByCli(ECHOED_CUI);
    expect(echoed).toMatchObject({ cui: ECHOED_CUI, errorMessage: expect.stringContaining('Error interno al consultar el CUI [identificador]') });
  });

  it('finds every record of an identifier by any writing, batches included', async () => {
    const { individual } = gateway.sample;
    const everyRecordOfTheNit = [requestIds.batch, requestIds.cuiNit, requestIds.omisos].sort();
    for (const typed of [individual.nit, individual.nit.toLowerCase(), `${individual.nit.slice(0, -1)}-${individual.nit.slice(-1).toLowerCase()}`, `00${individual.nit}`]) {
      expect((await searchByCli(typed)).map((record) => record.requestId).sort(), typed).toEqual(everyRecordOfTheNit);
    }
    const spacedCui = `${individual.cui!.slice(0, 4)} ${individual.cui!.slice(4, 9)} ${individual.cui!.slice(9)}`;
    const byCui = await searchByCli(individual.cui!);
    expect(byCui.map((record) => record.requestId).sort()).toEqual([requestIds.cuiNit, requestIds.renap].sort());
    expect(byCui.find((record) => record.requestId === requestIds.renap)?.cui).toBe(spacedCui);
    const [batch] = await searchByCli(gateway.sample.unknownNit);
    expect(batch?.nit).toBe([gateway.sample.legalEntity.nit, individual.nit.toLowerCase(), gateway.sample.unknownNit].join(','));
  });

  it('seals the records an earlier release left in clear with personal-data:reseal beside the app; a dump reveals nothing', async () => {
    await gateway.withDatabase(async (handle) => {
      await handle.rows(sql`
        insert into query_records (integration_id, lookup, http_status, response_time_ms, nit, cui, request_id)
        values (${integration.id}, 'cui_nit', 200, 12, ${OLD_NIT}, ${gateway.sample.individual.cui}, 'req_previous_release')`);
      await handle.rows(sql`
        insert into query_record_identifiers (record_id, identifier, created_at)
        select id, normalize_tax_identifier(sent.identifier), created_at
          from query_records, unnest(array[nit, cui]) as sent(identifier) where request_id = 'req_previous_release'`);
      await handle.rows(sql`update personal_data_state set clear_records_remain = true`);
    });
    const resealed = await runCli(['personal-data:reseal', '--batch', '2', '--json'], testDb.env);
    expect(resealed.code, resealed.stderr).toBe(0);
    expect(resealed.json()).toMatchObject({ complete: true, resealed: 1 });

    const stored = await gateway.withDatabase(async (handle) => storedRows(handle));
    expect(stored).toContain('req_previous_release');
    expectNoIdentifierIn(stored, 'query_records / query_record_identifiers after the reseal');
    expect((await searchByCli('8832114-k')).map((record) => record.requestId)).toEqual(['req_previous_release']);
    expect((await searchByCli(gateway.sample.individual.cui!)).map((record) => record.requestId)).toContain('req_previous_release');

    if (testDb.kind === 'postgres') {
      const dump = await promisify(execFile)(PG_DUMP, ['--no-owner', testDb.env.DATABASE_URL!], { maxBuffer: 64 * 1024 * 1024 });
      expect(dump.stdout).toContain('req_previous_release');
      expectNoIdentifierIn(dump.stdout, 'pg_dump');
    }
  });
});
