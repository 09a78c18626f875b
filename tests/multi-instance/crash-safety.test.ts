// kill -9 of an instance while billed lookups wait on a slow source: after a restart every hold is
// settled once (captured or voided), the balance equals the ledger's sum, nothing is charged
// without a query record, and every query that reached the source is recorded, as "resultado
// desconocido, sin cobro" (issue 30, point 4: the source counted one more call than the records);
// the registries' lookups too, from the intents the killed process noted before asking them.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { database } from '@/db/client';
import { balanceAndLedgerSum } from '@/lib/core/billing/ledger';
import { listLatestRecords } from '@/lib/core/records/list';
import { startSimulator, type RunningSimulator } from '@/simulator/index';
import { SHOWCASE_MEMBER } from '@/simulator/population';
import { startUpstreamRecorder, type UpstreamRecorder } from '../conformance/harness';
import { startApp, type RunningApp } from '../support/app-server';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { newIntegration, requiredEnv, servedBy, sourceUrls } from './support';

const IN_FLIGHT = 50;
/** RENAP and RTU-by-NIT lookups in flight at the kill, of each. */
const REGISTRY_IN_FLIGHT = 10;
const TARIFF = 200;
const SOURCE_LATENCY_MS = 4_000;

let testDatabase: TestDatabase;
let simulator: RunningSimulator;
/** Between the app and the simulator: counts what reached the source. */
let upstream: UpstreamRecorder;
let app: RunningApp | undefined;

beforeAll(async () => {
  requiredEnv('DATABASE_URL');
  testDatabase = await useTestDatabase();
  simulator = await startSimulator({ port: 0, latencyMs: SOURCE_LATENCY_MS });
  upstream = await startUpstreamRecorder(simulator.url);
});

afterAll(async () => {
  await app?.stop();
  await upstream?.close();
  await simulator?.close();
  await testDatabase?.cleanup();
});

async function poll<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)} after ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

it('settles every hold of the lookups a killed instance left in flight', async () => {
  app = await startApp({
    env: {
      ...testDatabase.env,
      ...sourceUrls(upstream),
      RATE_LIMIT_GLOBAL_MAX: '100000',
      RATE_LIMIT_CATALOG_PER_MINUTE: '1000',
      RATE_LIMIT_RENAP_PER_MINUTE: '1000',
      RATE_LIMIT_RTU_PER_MINUTE: '1000',
      // All 70 lookups at the source at once (64 would run and the rest wait their turn).
      LOOKUP_CONCURRENCY: '128',
      SOURCE_TIMEOUT_MS: '10000',
      // Holds older than the source's ceiling are orphans; sweep for them every second.
      HOLD_SWEEP_AFTER_SECONDS: '11',
      HOLD_SWEEP_INTERVAL_SECONDS: '1',
    },
  });
  const integration = await newIntegration(TARIFF, 1_000 * TARIFF);
  // One RENAP lookup (recorded, not billed); the records counted below are the catalog's.
  await servedBy([app], integration);
  const handle = await database();
  const holdsPlaced = () =>
    handle
      .rows<{ holds: number }>(sql`select count(*)::int as holds from ledger_entries where integration_id = ${integration.id} and kind = 'hold'`)
      .then(([row]) => row!.holds);

  const inFlight = Array.from({ length: IN_FLIGHT }, () =>
    fetch(`${app!.baseUrl}/api/catalogos/omisos`, { method: 'POST', headers: integration.headers, body: JSON.stringify({ nit: SHOWCASE_MEMBER.nit }) }).then(
      (response) => response.status,
      () => 'connection lost' as const,
    ),
  );
  const registriesInFlight = Array.from({ length: REGISTRY_IN_FLIGHT }, () => [
    fetch(`${app!.baseUrl}/api/renap/buscar-cui`, { method: 'POST', headers: integration.headers, body: JSON.stringify({ cui: SHOWCASE_MEMBER.cui }) }),
    fetch(`${app!.baseUrl}/api/rtu/nits`, { method: 'POST', headers: integration.headers, body: JSON.stringify({ nits: [SHOWCASE_MEMBER.nit] }) }),
  ]).flat().map((answer) => answer.then((response) => response.status, () => 'connection lost' as const));
  const registryCalls = () => ({
    renap: upstream.requests.filter((request) => request.path.startsWith('/renap')).length,
    rtu_nits: upstream.requests.filter((request) => request.path.startsWith('/rtu')).length,
  });
  const registryCallsBefore = registryCalls();
  // Every lookup has held its tariff (the registries' have reached theirs) and is waiting on the
  // slow source: now the process dies.
  await poll(holdsPlaced, (holds) => holds === IN_FLIGHT, SOURCE_LATENCY_MS - 500, 'holds placed before the kill');
  await poll(
    async () => registryCalls(),
    (calls) => calls.renap === registryCallsBefore.renap + REGISTRY_IN_FLIGHT && calls.rtu_nits === registryCallsBefore.rtu_nits + REGISTRY_IN_FLIGHT,
    SOURCE_LATENCY_MS - 500,
    'registry lookups reaching their sources before the kill',
  );
  process.kill(app.pid, 'SIGKILL');
  const outcomes = await Promise.all([...inFlight, ...registriesInFlight]);
  expect(outcomes.filter((outcome) => outcome === 'connection lost')).toHaveLength(IN_FLIGHT + 2 * REGISTRY_IN_FLIGHT);

  // While the instance is down the money is held, not lost.
  expect(await balanceAndLedgerSum(integration.id)).toEqual({ balanceCentavos: 950 * TARIFF, ledgerSumCentavos: 950 * TARIFF });

  await app.restart();
  const settlement = () =>
    handle
      .rows<{ unsettled: number; captures: number; voids: number; charged_without_record: number; records: number }>(sql`
        select
          (select count(*)::int from ledger_entries h where h.integration_id = ${integration.id} and h.kind = 'hold'
             and not exists (select 1 from ledger_entries s where s.hold_id = h.id)) as unsettled,
          (select count(*)::int from ledger_entries where integration_id = ${integration.id} and kind = 'capture') as captures,
          (select count(*)::int from ledger_entries where integration_id = ${integration.id} and kind = 'void') as voids,
          (select count(*)::int from ledger_entries c where c.integration_id = ${integration.id} and c.kind = 'capture'
             and not exists (select 1 from query_records r where r.id = c.query_record_id and r.charged_centavos = ${TARIFF})) as charged_without_record,
          (select count(*)::int from query_records where integration_id = ${integration.id} and lookup = 'omisos') as records`)
      .then(([row]) => row!);
  const settled = await poll(settlement, (state) => state.unsettled === 0, 30_000, 'holds left unsettled after the restart');
  // Each call the source received has its record: written by the sweeper from what the hold kept.
  const sourceCalls = upstream.requestsTo('/catalog/v2/consultas/cumplimiento').length;
  expect(sourceCalls).toBe(IN_FLIGHT);
  expect(settled).toEqual({ unsettled: 0, captures: 0, voids: IN_FLIGHT, charged_without_record: 0, records: sourceCalls });
  const records = await handle.rows<{ http_status: number; charged_centavos: number; tariff_centavos: number; failure: { kind: string }; nit: string; keys: number; void_points_here: boolean }>(sql`
    select r.http_status, r.charged_centavos::int as charged_centavos, r.tariff_centavos::int as tariff_centavos, r.failure, r.nit,
           (select count(*)::int from query_record_identifiers k where k.record_id = r.id) as keys,
           exists (select 1 from ledger_entries v where v.kind = 'void' and v.query_record_id = r.id) as void_points_here
      from query_records r where r.integration_id = ${integration.id} and r.lookup = 'omisos'`);
  for (const record of records) {
    expect(record).toMatchObject({ http_status: 500, charged_centavos: 0, tariff_centavos: TARIFF, failure: { kind: 'outcome_unknown' }, keys: 1, void_points_here: true });
    // Sealed like every record: the NIT is not in clear.
    expect(record.nit).toMatch(/^pd1:/);
  }
  // Found by the NIT, as the console's search and a person's report find records.
  const found = await listLatestRecords({ integracion: integration.id, consulta: 'omisos', identificador: SHOWCASE_MEMBER.nit }, 100);
  expect(found).toHaveLength(IN_FLIGHT);
  expect(await balanceAndLedgerSum(integration.id)).toEqual({ balanceCentavos: 1_000 * TARIFF, ledgerSumCentavos: 1_000 * TARIFF });
  const [sweeper] = await handle.rows<{ actors: string[] }>(
    sql`select array_agg(distinct actor) as actors from ledger_entries where integration_id = ${integration.id} and kind = 'void'`,
  );
  expect(sweeper!.actors).toEqual(['system:sweeper']);

  // The registries' queries too: the restarted process recorded, from the intents its predecessor
  // noted, each one the killed process had sent; the lookup answered before the kill keeps its 200.
  const registryRecords = () =>
    handle.rows<{ lookup: string; http_status: number; failure: { kind: string } | string | null }>(
      sql`select lookup, http_status, failure from query_records where integration_id = ${integration.id} and lookup in ('renap', 'rtu_nits')`,
    );
  const calls = registryCalls();
  const recorded = await poll(registryRecords, (rows) => rows.length === calls.renap + calls.rtu_nits, 30_000, 'registry records after the restart');
  const kindOf = (failure: { kind: string } | string | null) => (failure === null ? null : (typeof failure === 'string' ? JSON.parse(failure) : failure).kind);
  expect(recorded.filter((row) => row.lookup === 'renap')).toHaveLength(calls.renap);
  expect(recorded.filter((row) => row.lookup === 'rtu_nits')).toHaveLength(calls.rtu_nits);
  expect(recorded.filter((row) => kindOf(row.failure) === 'outcome_unknown' && row.http_status === 500)).toHaveLength(2 * REGISTRY_IN_FLIGHT);
});
