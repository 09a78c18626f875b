// A job's figures are counters on its row (bulk_jobs), moved by the statement that answers each
// item (its lookup's settlement, or a set-aside): the console's and the portal's Lotes pages read
// them instead of counting up to 10,000 items per job on every view. They must never drift from
// the items: after a job with every kind of item, a lease that expired under an instance that died,
// a late lookup whose claim was lost and a cancel, the stored counters equal a recount. So does the
// migration's backfill, run again over the same items.
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { createPopulation, DEFAULT_SIMULATOR_SEED, FAULT_IDENTIFIERS, startSimulator, type RunningSimulator } from '@/simulator/index';
import { createTestIntegration, type TestIntegration } from '@/tests/conformance/harness';
import { useTestDatabase, type TestDatabase } from '@/tests/support/test-database';
import { claimItems, completeFinishedJobs, setAside, type ClaimedItem } from './items';
import { cancelJob, readJob, submitJob } from './jobs';
import { runItem } from './runner';
import { setProcessSlot } from '@/lib/platform/runtime/process-state';

const LEASE_SECONDS = 120;
const TARIFF = 150;

let simulator: RunningSimulator;
let testDatabase: TestDatabase;
let integration: TestIntegration;

/** NITs whose RTU record the simulator's catalog holds: each is found. */
const knownNits = (() => {
  const population = createPopulation({ seed: DEFAULT_SIMULATOR_SEED });
  const nits: string[] = [];
  for (let index = 0; nits.length < 5; index++) {
    const member = population.member(index);
    if (member.classicNit && member.sourceHoldsCopy && member.quirks.length === 0) nits.push(member.classicNit);
  }
  return nits;
})();

beforeAll(async () => {
  simulator = await startSimulator({ port: 0, latencyMs: 0, onlineLatencyMs: 0 });
  // Before anything reads the settings: this process's catalog is the simulator just started.
  process.env.CATALOG_BASE_URL = `${simulator.url}/catalog`;
  setProcessSlot('env', undefined);
  testDatabase = await useTestDatabase();
  integration = await createTestIntegration('lotes-contadores', { tariffCentavos: TARIFF, balanceCentavos: 100 * TARIFF });
});

afterAll(async () => {
  await testDatabase?.cleanup();
  await simulator?.close();
});

interface Figures {
  found: number;
  notFound: number;
  invalid: number;
  duplicates: number;
  rejected: number;
  failed: number;
  pending: number;
  charged: number;
}

/** What the job's row holds (its counters, and the pending items they imply). */
async function stored(jobId: number): Promise<Figures> {
  const [row] = await (await database()).rows<Record<string, string | number>>(sql`
    select found_items, not_found_items, invalid_items, duplicate_items, rejected_items, failed_items, charged_centavos,
           total_items - found_items - not_found_items - invalid_items - failed_items as pending
      from bulk_jobs where id = ${jobId}::integer`);
  return {
    found: Number(row!.found_items),
    notFound: Number(row!.not_found_items),
    invalid: Number(row!.invalid_items),
    duplicates: Number(row!.duplicate_items),
    rejected: Number(row!.rejected_items),
    failed: Number(row!.failed_items),
    pending: Number(row!.pending),
    charged: Number(row!.charged_centavos),
  };
}

/** The same figures counted over the job's items, as the pages counted them before. */
async function recount(jobId: number): Promise<Figures> {
  const [row] = await (await database()).rows<Record<string, string | number>>(sql`
    select count(*) filter (where status = 'encontrado') as found,
           count(*) filter (where status = 'no_encontrado') as not_found,
           count(*) filter (where status = 'invalido') as invalid,
           count(*) filter (where status = 'invalido' and reason = 'duplicado') as duplicates,
           count(*) filter (where status = 'invalido' and reason = 'rechazado_por_la_fuente') as rejected,
           count(*) filter (where status = 'error_fuente') as failed,
           count(*) filter (where status = 'pendiente') as pending,
           coalesce(sum(charged_centavos), 0) as charged
      from bulk_job_items where job_id = ${jobId}::integer`);
  return {
    found: Number(row!.found),
    notFound: Number(row!.not_found),
    invalid: Number(row!.invalid),
    duplicates: Number(row!.duplicates),
    rejected: Number(row!.rejected),
    failed: Number(row!.failed),
    pending: Number(row!.pending),
    charged: Number(row!.charged),
  };
}

async function claimOne(holder: string): Promise<ClaimedItem> {
  const [item] = await claimItems(holder, 1, LEASE_SECONDS);
  if (!item) throw new Error(`${holder} found nothing to claim`);
  return item;
}

describe("a bulk job's stored counters", () => {
  it('equal a recount of its items after every kind of answer, an expired lease, a lost claim and a cancel', async () => {
    const [first, second, third, fourth, fifth] = knownNits;
    const identifiers = [
      first!, // 0: found
      second!, // 1: found by a second instance after the first died holding it
      FAULT_IDENTIFIERS.not_found.nit, // 2: not found
      FAULT_IDENTIFIERS.server_error.nit, // 3: the source failed
      FAULT_IDENTIFIERS.data_rejected.nit, // 4: the source rejected it (invalid)
      'no-es-nit', // 5: set aside at submission
      first!, // 6: a duplicate, set aside at submission
      third!, // 7: set aside by the runner
      fourth!, // 8: claimed, and its job cancelled before its lookup ran
      fifth!, // 9: never claimed before the cancel
    ];
    const submitted = await submitJob(integration.id, 'rtu', identifiers, 'contadores');
    if (submitted.kind !== 'created') throw new Error('a new job');

    const found = await claimOne('instancia-a');
    expect(found.position).toBe(0);
    expect(await runItem(found)).toEqual({ kind: 'answered' });
    const jobId = found.jobId;
    expect(await stored(jobId)).toEqual(await recount(jobId));

    // Instance A is killed holding item 1: its lease expires and instance B answers it. A's late
    // lookup then finds its claim gone and changes nothing, counters included.
    const dead = await claimOne('instancia-a');
    expect(dead.position).toBe(1);
    await (await database()).rows(sql`update bulk_job_items set lease_until = now() - interval '1 second' where job_id = ${jobId}::integer and position = 1`);
    const taken = await claimOne('instancia-b');
    expect(taken.position).toBe(1);
    expect(await runItem(taken)).toEqual({ kind: 'answered' });
    expect(await runItem(dead)).toEqual({ kind: 'lost' });

    for (const position of [2, 3, 4]) {
      const item = await claimOne('instancia-b');
      expect(item.position).toBe(position);
      expect(await runItem(item)).toEqual({ kind: 'answered' });
    }
    const rejected = await claimOne('instancia-b');
    expect(rejected.position).toBe(7);
    await setAside(rejected, 'nit_invalido');

    const running = await claimOne('instancia-b');
    expect(running.position).toBe(8);
    expect(await cancelJob(integration.id, submitted.publicId)).toEqual({ kind: 'cancelled' });
    expect(await runItem(running)).toEqual({ kind: 'lost' });

    const expected: Figures = { found: 2, notFound: 1, invalid: 4, duplicates: 1, rejected: 1, failed: 1, pending: 2, charged: 2 * TARIFF };
    expect(await recount(jobId)).toEqual(expected);
    expect(await stored(jobId)).toEqual(expected);
    // What the API, the portal and the console show is read from those counters.
    expect(await readJob(integration.id, submitted.publicId)).toMatchObject({
      state: 'cancelado',
      counts: { total: 10, done: 8, found: 2, notFound: 1, invalid: 4, duplicates: 1, rejected: 1, failed: 1, pending: 2 },
      chargedCentavos: 2 * TARIFF,
    });

    // The migrations' backfills, run again over the same items, give the same counters.
    await (await database()).rows(sql`
      update bulk_jobs set found_items = 0, not_found_items = 0, invalid_items = 0, duplicate_items = 0, rejected_items = 0, failed_items = 0, charged_centavos = 0
       where id = ${jobId}::integer`);
    const migrations = path.join(process.cwd(), 'db', 'migrations');
    for (const suffix of ['_bulk_job_counters.sql', '_bulk_jobs_rejected_items.sql']) {
      const migration = fs.readFileSync(path.join(migrations, fs.readdirSync(migrations).find((name) => name.endsWith(suffix))!), 'utf8');
      const backfill = migration.split('--> statement-breakpoint').find((statement) => /update "bulk_jobs"/i.test(statement));
      if (!backfill) throw new Error(`the migration ${suffix} has no backfill of bulk_jobs`);
      await (await database()).rows(sql.raw(backfill));
    }
    expect(await stored(jobId)).toEqual(expected);
  });

  it("are the items' own once the job completes, even when an instance of the version before the counters answered some", async () => {
    const [first, second] = knownNits;
    const submitted = await submitJob(integration.id, 'rtu', [first!, second!, FAULT_IDENTIFIERS.not_found.nit], 'contadores-despliegue');
    if (submitted.kind !== 'created') throw new Error('a new job');
    const item = await claimOne('instancia-nueva');
    expect(await runItem(item)).toEqual({ kind: 'answered' });
    // An instance still on the previous version (a rolling deploy across the counters' migration)
    // answers the other two as it did: the items move, the job's counters do not.
    await (await database()).rows(sql`
      update bulk_job_items set status = case when position = 1 then 'encontrado' else 'no_encontrado' end::bulk_item_status,
             answered_at = now(), charged_centavos = case when position = 1 then ${TARIFF}::integer else 0 end
       where job_id = ${item.jobId}::integer and status = 'pendiente'`);
    expect((await stored(item.jobId)).pending).toBe(2);

    await completeFinishedJobs(item.jobId);
    const expected: Figures = { found: 2, notFound: 1, invalid: 0, duplicates: 0, rejected: 0, failed: 0, pending: 0, charged: 2 * TARIFF };
    expect(await recount(item.jobId)).toEqual(expected);
    expect(await stored(item.jobId)).toEqual(expected);
    expect(await readJob(integration.id, submitted.publicId)).toMatchObject({ state: 'completado', counts: { pending: 0, found: 2 }, chargedCentavos: 2 * TARIFF });
  });
});
