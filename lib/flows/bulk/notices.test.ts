// A job's end or pause is told even when the instance that made the change dies before queuing the
// notice (lib/flows/bulk/notices.ts): the change marks its notice due in the same statement, and the
// runner's upkeep on any instance tells it again, once (the outbox key), however often it looks.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { setIntegrationDetails } from '@/lib/flows/integration-management/details-service';
import { noteBulkJobEvent } from '@/lib/reactions/integrator-notifications/bulk-jobs';
import { integratorNotifier } from '@/lib/reactions/integrator-notifications/notifier';
import { createTestIntegration, TEST_ACTOR, type TestIntegration } from '@/tests/conformance/harness';
import { useTestDatabase, type TestDatabase } from '@/tests/support/test-database';
import { onBulkJobEvent } from './events';
import { completeFinishedJobs, pauseForBalance } from './items';
import { submitJob } from './jobs';
import { tellOverdueJobChanges } from './notices';

let testDatabase: TestDatabase;
let integration: TestIntegration;

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  integration = await createTestIntegration('lotes-avisos', { tariffCentavos: 150, balanceCentavos: 1_500 });
  const details = await setIntegrationDetails(TEST_ACTOR, integration.id, {
    technicalContactName: 'Tania Técnica',
    technicalContactEmail: 'tecnica@lotes-avisos.gt',
    billingContactName: 'Fabio Facturas',
    billingContactEmail: 'pagos@lotes-avisos.gt',
  });
  if (!details.ok) throw new Error(details.error.message);
});

afterAll(async () => {
  await testDatabase?.cleanup();
});

async function jobId(publicId: string): Promise<number> {
  const [row] = await (await database()).rows<{ id: number }>(sql`select id from bulk_jobs where public_id = ${publicId}`);
  return Number(row!.id);
}

/** The notices of one kind queued for the integration's contacts, by recipient. */
async function notices(kind: string, publicId: string): Promise<string[]> {
  const rows = await (await database()).rows<{ recipient: string }>(sql`
    select recipient from alert_deliveries
     where integration_id = ${integration.id}::integer and condition = ${kind} and payload like ${`%${publicId}%`}
     order by id`);
  return rows.map((row) => row.recipient);
}

/** Another instance (or this one restarted): its notifier subscribed, as lib/root/startup.ts does it. */
function anotherInstance(): () => void {
  return onBulkJobEvent((event) => noteBulkJobEvent(integratorNotifier(), event));
}

/** The instance that made the change dies before its notice is queued: its listener never gets there. */
function dieBeforeQueuing(): () => void {
  return onBulkJobEvent(() => {
    throw new Error('la instancia terminó antes de encolar el aviso');
  });
}

describe("a bulk job's notice when the instance that changed the job dies before queuing it", () => {
  it('a finished job is told once by the next look of any instance', async () => {
    const submitted = await submitJob(integration.id, 'omisos', ['no-es-un-nit'], 'avisos-terminado');
    if (submitted.kind !== 'created') throw new Error('a new job');
    const id = await jobId(submitted.publicId);

    const died = dieBeforeQueuing();
    await completeFinishedJobs(id);
    died();
    expect(await notices('bulk_job_finished', submitted.publicId)).toEqual([]);

    // Another instance (or this one restarted) subscribes its notifier and looks.
    const instance = anotherInstance();
    expect(await tellOverdueJobChanges(0)).toBe(1);
    expect(await notices('bulk_job_finished', submitted.publicId)).toEqual(['technical']);
    // Told: nothing left to tell, however often instances look.
    expect(await tellOverdueJobChanges(0)).toBe(0);
    expect(await notices('bulk_job_finished', submitted.publicId)).toEqual(['technical']);
    instance();
  });

  it('a pause for balance is told once, named by its instant, by the next look', async () => {
    const submitted = await submitJob(integration.id, 'omisos', ['576937-K'], 'avisos-pausa');
    if (submitted.kind !== 'created') throw new Error('a new job');
    const id = await jobId(submitted.publicId);

    const died = dieBeforeQueuing();
    await pauseForBalance(id);
    died();
    expect(await notices('bulk_job_paused', submitted.publicId)).toEqual([]);

    const instance = anotherInstance();
    expect(await tellOverdueJobChanges(0)).toBe(1);
    expect(await notices('bulk_job_paused', submitted.publicId)).toEqual(['billing']);
    // A look that races a slow instance's own telling (the mark set again) queues nothing twice.
    await (await database()).rows(sql`update bulk_jobs set notice_due_at = now() where id = ${id}`);
    expect(await tellOverdueJobChanges(0)).toBe(1);
    expect(await notices('bulk_job_paused', submitted.publicId)).toEqual(['billing']);
    instance();
  });
});
