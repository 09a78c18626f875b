// Issue 35's "done when" for bulk jobs, on two instances sharing PostgreSQL (and Redis for the
// limits): a job of 2,000 NITs of the simulator (found, unknown, invalid, repeated and fault
// identifiers mixed) runs on both, one instance is killed with kill -9 halfway, and the other
// finishes it: every identifier that ran has exactly one row and one query record for its row (and
// each lookup the killed instance left unsettled a "resultado desconocido" record), the charge is the
// found rows times the tariff, the ledger reconciles, the webhook arrives signed once, and the same
// Idempotency-Key gives the same job.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { database } from '@/db/client';
import { OUTCOME_UNKNOWN_DETAIL } from '@/lib/core/billing/holds';
import { balanceAndLedgerSum } from '@/lib/core/billing/ledger';
import { verifyLedger } from '@/lib/core/billing/verify';
import { nitCheckCharacter } from '@/lib/platform/guatemala/identifiers';
import { createPopulation, DEFAULT_SIMULATOR_SEED, FAULT_IDENTIFIERS, startSimulator, type RunningSimulator } from '@/simulator/index';
import { setNotificationWebhook } from '@/lib/reactions/integrator-notifications/preferences';
import { startApp, type RunningApp } from '../support/app-server';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { newIntegration, requiredEnv, servedBy, sourceUrls, TEST_ACTOR } from './support';

const TARIFF = 125;
const BALANCE = 5_000 * TARIFF;
const JOB_SIZE = 2_000;

let testDatabase: TestDatabase;
let simulator: RunningSimulator;
/** The instance killed halfway asks this one, the same population 400 ms slower. */
let slowSimulator: RunningSimulator;
const apps: RunningApp[] = [];
let webhook: WebhookReceiver | undefined;

beforeAll(async () => {
  requiredEnv('DATABASE_URL');
  testDatabase = await useTestDatabase();
  // Each source call takes a moment. The instance that is killed waits 400 ms on each of its
  // eight, so the kill always finds lookups there holding money: with 15 ms on a fast machine, a
  // kill could land between items and leave nothing for the sweeper (CI saw it once).
  simulator = await startSimulator({ port: 0, latencyMs: 15, onlineLatencyMs: 15, seed: DEFAULT_SIMULATOR_SEED });
  slowSimulator = await startSimulator({ port: 0, latencyMs: 400, onlineLatencyMs: 15, seed: DEFAULT_SIMULATOR_SEED });
  const env = {
    ...testDatabase.env,
    REDIS_URL: requiredEnv('REDIS_URL'),
    RATE_LIMIT_GLOBAL_MAX: '100000',
    // A limit the job does not wait on, so the test measures the crash, not the pacing.
    RATE_LIMIT_CATALOG_PER_MINUTE: '100000',
    BULK_LIMIT_SHARE_PERCENT: '100',
    BULK_CONCURRENCY: '8',
    // The test reads the job's state ten times a second.
    BULK_API_PER_MINUTE: '100000',
    BULK_POLL_MS: '100',
    // A short source ceiling and sweep, so the killed instance's leases (twice the sweep) expire in seconds.
    SOURCE_TIMEOUT_MS: '3000',
    HOLD_SWEEP_AFTER_SECONDS: '4',
    HOLD_SWEEP_INTERVAL_SECONDS: '1',
    ALERT_RETRY_BASE_MS: '50',
    // The webhook receiver listens on 127.0.0.1 (development only; production refuses this setting).
    INTEGRATOR_WEBHOOK_ALLOW_LOCAL_TARGETS: 'true',
  };
  apps.push(...(await Promise.all([startApp({ env: { ...env, ...sourceUrls(slowSimulator) } }), startApp({ env: { ...env, ...sourceUrls(simulator) } })])));
});

afterAll(async () => {
  await Promise.all(apps.map((app) => app.stop().catch(() => undefined)));
  await webhook?.close();
  await simulator?.close();
  await slowSimulator?.close();
  await testDatabase?.cleanup();
});

/** The list: found and unknown NITs, invalid ones, repeats (some written with a hyphen) and fault identifiers. */
function mixedList(): { identifiers: string[]; unique: number } {
  const population = createPopulation({ seed: DEFAULT_SIMULATOR_SEED });
  const found: string[] = [];
  for (let index = 0; found.length < 1_600; index++) {
    const member = population.member(index);
    if (member.classicNit) found.push(member.classicNit);
  }
  // Bodies past every range the population draws from: valid NITs nobody has.
  const unknown = Array.from({ length: 60 }, (_, index) => {
    const body = String(90_000_100 + index);
    return `${body}${nitCheckCharacter(body)}`;
  });
  const faults = [FAULT_IDENTIFIERS.server_error.nit, FAULT_IDENTIFIERS.unparseable.nit, FAULT_IDENTIFIERS.rate_limited.nit, FAULT_IDENTIFIERS.data_rejected.nit];
  const invalid = found.slice(0, 150).map((nit) => `${nit.slice(0, -1)}${nit.endsWith('1') ? '2' : '1'}`).filter((nit) => !found.includes(nit));
  const unique = [...found, ...unknown, ...faults];
  const repeats: string[] = [];
  for (let index = 0; unique.length + invalid.length + repeats.length < JOB_SIZE; index++) {
    const nit = unique[(index * 7) % unique.length]!;
    repeats.push(index % 2 === 0 ? nit : `${nit.slice(0, -1)}-${nit.slice(-1)}`);
  }
  // Spread through the list, so the job's two halves both hold every kind.
  const identifiers = [...unique, ...invalid, ...repeats].map((value, index) => ({ value, order: (index * 7919) % 10_007 })).sort((a, b) => a.order - b.order).map((entry) => entry.value);
  return { identifiers, unique: unique.length };
}

interface JobBody {
  id: string;
  estado: string;
  conteos: Record<string, number>;
  monto_cobrado: string;
}

async function submit(app: RunningApp, headers: Record<string, string>, identifiers: string[], key: string): Promise<{ status: number; body: JobBody }> {
  const response = await fetch(`${app.baseUrl}/api/lotes`, { method: 'POST', headers: { ...headers, 'idempotency-key': key }, body: JSON.stringify({ catalogo: 'rtu', identificadores: identifiers }) });
  return { status: response.status, body: (await response.json()) as JobBody };
}

async function job(app: RunningApp, headers: Record<string, string>, id: string): Promise<JobBody> {
  const response = await fetch(`${app.baseUrl}/api/lotes/${id}`, { headers });
  expect(response.status).toBe(200);
  return (await response.json()) as JobBody;
}

async function until<T>(probe: () => Promise<T>, accept: (value: T) => boolean, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (accept(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not after ${timeoutMs} ms (last: ${JSON.stringify(value)})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('a bulk job on two instances', () => {
  it('survives kill -9 of one of them halfway: one row and one record per identifier, charged found × tariff', { timeout: 180_000 }, async () => {
    const integration = await newIntegration(TARIFF, BALANCE);
    let secret = '';
    webhook = await startWebhookReceiver(() => secret);
    const set = await setNotificationWebhook(TEST_ACTOR, integration.id, webhook.url, { allowLocalTargets: true });
    if (!set.ok) throw new Error(set.error.message);
    secret = set.value.secret;
    await servedBy(apps, integration);
    const { identifiers, unique } = mixedList();
    expect(identifiers).toHaveLength(JOB_SIZE);
    const [killed, survivor] = apps as [RunningApp, RunningApp];

    const created = await submit(killed, integration.headers, identifiers, 'proveedores-2026-11');
    expect(created.status).toBe(202);
    const id = created.body.id;
    expect(created.body.conteos).toMatchObject({ total: JOB_SIZE, pendientes: unique });

    // Halfway (and both instances at work), the first one dies without a word, with lookups of its
    // own holding money (its items wait on the slow source).
    await until(() => job(survivor, integration.headers, id), (body) => body.conteos.pendientes! <= unique / 2, 60_000, 'half the job run');
    const handle = await database();
    // Its lookups waiting on its slow source: each holds money (the hold comes before the call), and
    // 400 ms there leaves the kill time to land before they settle. Leased items alone were not
    // enough: on a busy machine the kill could land between a batch's settlements and its next holds.
    await until(async () => slowSimulator.lookupsInFlight(), (waiting) => waiting > 0, 30_000, 'lookups of the instance to be killed waiting on its source');
    process.kill(killed.pid, 'SIGKILL');

    const done = await until(() => job(survivor, integration.headers, id), (body) => body.estado === 'completado', 90_000, 'the job completed by the survivor');
    expect(done.conteos.pendientes).toBe(0);
    expect(done.conteos.total).toBe(JOB_SIZE);
    // The same key and list, after everything: the same job.
    const again = await submit(survivor, integration.headers, identifiers, 'proveedores-2026-11');
    expect({ status: again.status, id: again.body.id }).toEqual({ status: 200, id });

    // Every hold the killed instance left is voided by the sweeper, which writes the record its intent
    // kept ("resultado desconocido", not charged): that query may have reached the source. Its item
    // ran again under another request id, with its own record.
    await until(
      async () => (await handle.rows<{ open: number }>(sql`select count(*)::int as open from ledger_open_holds o join ledger_entries h on h.id = o.hold_id where h.integration_id = ${integration.id}`))[0]!.open,
      (open) => open === 0,
      30_000,
      'open holds left by the killed instance voided',
    );
    // The kill landed mid-item: lookups the killed instance had held money for and never settled,
    // given back by the sweeper (eight in flight there, each waiting on its slow source).
    const [swept] = await handle.rows<{ voids: number }>(sql`
      select count(*)::int as voids from ledger_entries where integration_id = ${integration.id} and kind = 'void' and actor = 'system:sweeper'`);
    expect(swept!.voids).toBeGreaterThan(0);
    const [items] = await handle.rows<{ ran: number; found: number; with_one_record: number; charged: string }>(sql`
      select count(*) filter (where i.request_id is not null)::int as ran,
             count(*) filter (where i.status = 'encontrado')::int as found,
             count(*) filter (where (select count(*) from query_records r where r.request_id = i.request_id) = 1)::int as with_one_record,
             sum(i.charged_centavos)::text as charged
        from bulk_job_items i join bulk_jobs j on j.id = i.job_id where j.public_id = ${id}`);
    expect(items!.ran).toBe(unique);
    expect(items!.with_one_record).toBe(unique);
    const [records] = await handle.rows<{ total: number; charged: string; unknown: number }>(sql`
      select count(*)::int as total, coalesce(sum(charged_centavos), 0)::text as charged,
             count(*) filter (where error_message = ${OUTCOME_UNKNOWN_DETAIL})::int as unknown from query_records
       where integration_id = ${integration.id} and lookup = 'rtu'`);
    // No other catalog record (servedBy's RENAP lookups aside): one per item's settled run, and one
    // "resultado desconocido" per lookup the killed instance held money for and never settled.
    expect(records!.unknown).toBe(swept!.voids);
    expect(records!.total).toBe(unique + swept!.voids);
    expect(items!.found).toBeGreaterThan(1_000);
    expect(Number(records!.charged)).toBe(items!.found * TARIFF);
    expect(Number(items!.charged)).toBe(items!.found * TARIFF);
    expect(done.monto_cobrado).toBe((items!.found * TARIFF / 100).toFixed(2));
    expect(await balanceAndLedgerSum(integration.id)).toEqual({ balanceCentavos: BALANCE - items!.found * TARIFF, ledgerSumCentavos: BALANCE - items!.found * TARIFF });
    expect((await verifyLedger({ trigger: 'cli', sweepAfterSeconds: 60 })).ok).toBe(true);

    // Told once, signed, by whichever instance saw the job end; one delivery in the outbox.
    const notices = await until(async () => webhook!.about(`lote_completado:${id}`), (received) => received.length > 0, 30_000, 'the lote_completado notice');
    expect(notices.map((notice) => notice.signed)).toEqual([true]);
    expect((notices[0]!.body as unknown as { datos: unknown }).datos).toMatchObject({ lote: id, estado: 'completado', total: JOB_SIZE, encontrados: items!.found, cobrado_centavos: items!.found * TARIFF });
    const [deliveries] = await handle.rows<{ webhooks: string | number }>(sql`
      select count(*) filter (where channel = 'webhook') as webhooks from alert_deliveries where payload::jsonb ->> 'condicion' = ${`lote_completado:${id}`}`);
    expect(Number(deliveries!.webhooks)).toBe(1);
  });
});
