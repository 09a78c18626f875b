// A run's changes are told even when the instance that compared them dies before queuing the notice:
// the comparison commits with the run's job still owing its 'finished' notice (lib/flows/bulk/notices.ts),
// and the next telling of that job, on any instance, reads the written changes and tells them once.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database, db } from '@/db/client';
import { setIntegrationDetails } from '@/lib/flows/integration-management/details-service';
import { onBulkJobEvent } from '@/lib/flows/bulk/events';
import { completeFinishedJobs } from '@/lib/flows/bulk/items';
import { tellOverdueJobChanges } from '@/lib/flows/bulk/notices';
import { noteBulkJobEvent } from '@/lib/reactions/integrator-notifications/bulk-jobs';
import { noteWatchListChanges } from '@/lib/reactions/integrator-notifications/watch-lists';
import { integratorNotifier } from '@/lib/reactions/integrator-notifications/notifier';
import { seal } from '@/lib/core/sealing/envelope';
import { createTestIntegration, TEST_ACTOR, type TestIntegration } from '@/tests/conformance/harness';
import { useTestDatabase, type TestDatabase } from '@/tests/support/test-database';
import { onWatchListChanges } from './events';
import { createWatchList, deleteWatchList } from './lists';
import { compareFinishedRuns, startDueRuns } from './runs';
import { whenDue } from '@/tests/support/watch-lists';

let testDatabase: TestDatabase;
let integration: TestIntegration;

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  integration = await createTestIntegration('vigilancia-avisos', { tariffCentavos: 150, balanceCentavos: 1_500 });
  const details = await setIntegrationDetails(TEST_ACTOR, integration.id, {
    technicalContactName: 'Tania Técnica',
    technicalContactEmail: 'tecnica@vigilancia-avisos.gt',
    billingContactName: 'Fabio Facturas',
    billingContactEmail: 'pagos@vigilancia-avisos.gt',
  });
  if (!details.ok) throw new Error(details.error.message);
  // Every instance compares the runs that end on it (lib/root/startup.ts).
  compareFinishedRuns();
});

afterAll(async () => {
  await testDatabase?.cleanup();
});

/** The source answers every item of the run (found), the given NIT's taxpayer omiso or not. */
async function answerRun(jobPublicId: string, omiso: boolean): Promise<number> {
  const handle = await database();
  const [job] = await handle.rows<{ id: number }>(sql`select id from bulk_jobs where public_id = ${jobPublicId}`);
  const answer = seal(JSON.stringify({ nit: '576937K', tieneIncumplimientos: omiso, tieneProcesoCoactivo: false, estadoContribuyente: 'ACTIVO' }), 'bulk_result');
  await handle.rows(sql`
    update bulk_job_items set status = 'encontrado', result_sealed = ${answer}, answered_at = now(), source = 'catalog'
     where job_id = ${Number(job!.id)}::integer`);
  return Number(job!.id);
}

async function changeNotices(listPublicId: string): Promise<string[]> {
  const rows = await (await database()).rows<{ recipient: string }>(sql`
    select recipient from alert_deliveries
     where integration_id = ${integration.id}::integer and condition = 'watch_list_changes' and payload like ${`%${listPublicId}%`}
     order by id`);
  return rows.map((row) => row.recipient);
}

describe("a watch list run's changes when the instance that compared them dies before queuing the notice", () => {
  it('are told once by the next look of any instance, read from what the comparison wrote', async () => {
    const created = await createWatchList(integration.id, { name: 'Proveedores', catalog: 'omisos', schedule: 'semanal', nits: ['576937-K'] });
    if (created.kind !== 'created') throw new Error('a new list');
    const listId = created.list.publicId;

    // The baseline run: compared, nothing to tell.
    const [baseline] = await startDueRuns(whenDue(created.list));
    await completeFinishedJobs(await answerRun(baseline!.jobPublicId, false));
    expect(await changeNotices(listId)).toEqual([]);

    // A week later the taxpayer is omiso; the instance dies once the comparison has committed.
    const [second] = await startDueRuns(new Date(Date.now() + 8 * 24 * 3_600_000));
    const died = onWatchListChanges(() => {
      throw new Error('la instancia terminó antes de encolar el aviso');
    });
    await completeFinishedJobs(await answerRun(second!.jobPublicId, true));
    died();
    expect(await changeNotices(listId)).toEqual([]);

    // Another instance (or this one restarted), its notifier subscribed as lib/root/startup.ts does, looks.
    const notifier = onWatchListChanges((changes) => noteWatchListChanges(integratorNotifier(), changes));
    const bulkNotices = onBulkJobEvent(() => {});
    expect(await tellOverdueJobChanges(0)).toBe(1);
    expect(await changeNotices(listId)).toEqual(['technical']);
    // Told: nothing left to tell, however often instances look.
    expect(await tellOverdueJobChanges(0)).toBe(0);
    expect(await changeNotices(listId)).toEqual(['technical']);
    notifier();
    bulkNotices();
  });

  it("of a list deleted in the portal while it ran: the cancelled run is told as a run, never as a job's lote_completado", async () => {
    const created = await createWatchList(integration.id, { name: 'Borrada', catalog: 'omisos', schedule: 'semanal', nits: ['576937-K'] });
    if (created.kind !== 'created') throw new Error('a new list');
    const [run] = await startDueRuns(whenDue(created.list));
    // The portal deletes inside its own transaction (with its audit row): the run's cancel is told later.
    await (await db()).transaction((tx) => deleteWatchList(integration.id, created.list.publicId, tx));
    const bulkNotices = onBulkJobEvent((event) => noteBulkJobEvent(integratorNotifier(), event));
    expect(await tellOverdueJobChanges(0)).toBeGreaterThanOrEqual(1);
    bulkNotices();
    const [told] = await (await database()).rows<{ notices: number; state: string }>(sql`
      select (select count(*)::int from alert_deliveries where integration_id = ${integration.id}::integer and condition = 'bulk_job_finished' and payload like ${`%${run!.jobPublicId}%`}) as notices,
             (select state from bulk_jobs where public_id = ${run!.jobPublicId}) as state`);
    expect(told).toEqual({ notices: 0, state: 'cancelado' });
  });
});
