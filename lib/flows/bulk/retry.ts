// "Reintentar los fallidos": a new job of only the rows of a finished job that
// the source answered with an error (error_fuente), linked to it. Retrying the same job again gives
// the same new job, so a retried request never makes (or pays for) a second one.
import { sql } from 'drizzle-orm';
import { database } from '@/db/client';
import type { CatalogName } from '@/lib/flows/lookups/catalog-request';
import { idempotencyKeyHash } from '@/lib/core/idempotency/key';
import { isPublicJobId, newPublicJobId } from './jobs';

export type RetryOutcome =
  | { kind: 'created'; publicId: string }
  /** This job was retried before: that retry. */
  | { kind: 'existing'; publicId: string }
  | { kind: 'not_finished' }
  | { kind: 'nothing_to_retry' }
  | { kind: 'unknown' };

/**
 * The retry's key in the submissions' unique index (integration, key hash). A NUL cannot be part of
 * an Idempotency-Key (printable ASCII only), so no key an integrator sends can take a retry's place.
 */
function retryKeyHash(publicId: string): string {
  return idempotencyKeyHash(`\u0000reintentar:${publicId}`);
}

/**
 * An item still running: pending under a live claim. A cancelled job ends at once, but the items
 * its instances were already running finish afterwards and may still land as error_fuente; a
 * completed job has none (it completes only when nothing is pending).
 */
const ITEM_RUNNING = sql`i.status = 'pendiente' and i.lease_token is not null and i.lease_until > now()`;

/** The job of `publicId`'s error_fuente rows, in their order, created at most once. */
export async function retryFailedItems(integrationId: number, publicId: string): Promise<RetryOutcome> {
  if (!isPublicJobId(publicId)) return { kind: 'unknown' };
  const handle = await database();
  const keyHash = retryKeyHash(publicId);
  const [original] = await handle.rows<{ id: number; catalog: CatalogName; state: string; failed: string | number; running: boolean; retry: string | null }>(sql`
    select j.id, j.catalog, j.state,
           (select count(*) from bulk_job_items i where i.job_id = j.id and i.status = 'error_fuente') as failed,
           exists (select 1 from bulk_job_items i where i.job_id = j.id and ${ITEM_RUNNING}) as running,
           (select r.public_id from bulk_jobs r where r.integration_id = j.integration_id and r.idempotency_key_hash = ${keyHash}::text) as retry
      from bulk_jobs j where j.integration_id = ${integrationId}::integer and j.public_id = ${publicId}::text`);
  if (!original) return { kind: 'unknown' };
  if (original.retry !== null) return { kind: 'existing', publicId: original.retry };
  if ((original.state !== 'completado' && original.state !== 'cancelado') || original.running) return { kind: 'not_finished' };
  if (Number(original.failed) === 0) return { kind: 'nothing_to_retry' };
  // The job and its items in one statement, from one reading of the failed rows (so its total is
  // the rows it copies), and only while the job still has no item running: a failure landing
  // between the check above and this statement makes it create nothing, and the caller is told
  // the job has not finished. Two retries racing: the unique index lets one insert, and the other
  // reads that job below.
  const [created] = await handle.rows<{ public_id: string }>(sql`
    with failed as (
      select i.position, i.identifier_sealed from bulk_job_items i
       where i.job_id = ${Number(original.id)}::integer and i.status = 'error_fuente'
         and not exists (select 1 from bulk_job_items i where i.job_id = ${Number(original.id)}::integer and ${ITEM_RUNNING})
    ),
    job as (
      -- A retry asks for what its job asked for: its rows found now get their constancias too.
      insert into bulk_jobs (public_id, integration_id, catalog, idempotency_key_hash, request_hash, total_items, retry_of, constancias)
      select ${newPublicJobId()}::text, ${integrationId}::integer, ${original.catalog}::text, ${keyHash}::text, ${keyHash}::text,
             count(*)::integer, ${Number(original.id)}::integer, (select o.constancias from bulk_jobs o where o.id = ${Number(original.id)}::integer)
        from failed having count(*) > 0
      on conflict (integration_id, idempotency_key_hash) do nothing
      returning id, public_id
    ),
    items as (
      insert into bulk_job_items (job_id, position, identifier_sealed, status)
      select job.id, (row_number() over (order by failed.position) - 1)::integer, failed.identifier_sealed, 'pendiente'
        from job, failed
    )
    select public_id from job`);
  if (created) return { kind: 'created', publicId: created.public_id };
  const [existing] = await handle.rows<{ public_id: string }>(sql`
    select public_id from bulk_jobs where integration_id = ${integrationId}::integer and idempotency_key_hash = ${keyHash}::text`);
  // Nothing inserted and no retry under the key: an item started running or failed since the check.
  if (!existing) return { kind: 'not_finished' };
  return { kind: 'existing', publicId: existing.public_id };
}
