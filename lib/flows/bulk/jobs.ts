// Bulk jobs as the integrator sees them: submitting a list, reading a job's state and
// counts, cancelling it. Every read and change is scoped to the integration that asks: another
// integration's job id is answered exactly as an id that does not exist.
import { createHmac, randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { database, rowsIn, type SqlExecutor } from '@/db/client';
import type { BulkJobState } from '@/db/schema';
import { idempotencyKeyHash } from '@/lib/core/idempotency/key';
import type { CatalogName } from '@/lib/flows/lookups/catalog-request';
import { seal } from '@/lib/core/sealing/envelope';
import { personalDataKeys } from '@/lib/core/sealing/keys';
import { planItems } from './identifiers';
import { tellJobChange, type DueNotice } from './notices';
import { bulkItemsPerMinute } from './pacing';

// lote_ and 20 hex characters: 80 random bits, so an id says nothing of how many jobs exist and
// cannot be guessed from another.
const PUBLIC_ID = /^lote_[0-9a-f]{20}$/;

export function newPublicJobId(): string {
  return `lote_${randomBytes(10).toString('hex')}`;
}

export function isPublicJobId(value: string): boolean {
  return PUBLIC_ID.test(value);
}

/**
 * What tells two submissions with one key apart: the catalog and the list as sent, hashed with the
 * personal-data search key (an HMAC: a list of NITs is not recoverable from it, unlike a bare SHA-256).
 */
function requestHash(catalog: CatalogName, identifiers: readonly string[], constancias: boolean): string {
  // Receipts are part of what was asked (the same key without them is another request); a job
  // without them hashes as every job did before they existed.
  const asked = constancias ? [catalog, identifiers, 'constancias'] : [catalog, identifiers];
  return createHmac('sha256', personalDataKeys().search.key).update(JSON.stringify(asked), 'utf8').digest('base64url');
}

export type SubmitOutcome =
  | { kind: 'created'; publicId: string }
  /** The same key and the same list as an earlier submission: that job. */
  | { kind: 'existing'; publicId: string }
  /** The same key with another catalog or list. */
  | { kind: 'key_reused' };

/** Where a job came from, for its page: the portal's upload (its file and who sent it), or nothing for the API. */
export interface JobOrigin {
  /** Already made safe to show (lib/flows/bulk/file-name.ts). */
  fileName?: string | null;
  portalUserId?: number;
  /** Each found item gets a constancia de consulta (the integration has them enabled: checked by the caller). */
  constancias?: boolean;
}

/**
 * Creates the job and all its items in one statement (so a job is never seen half written), the
 * set-aside items already answered. Two submissions racing with one key: the unique index lets one
 * insert, and the other reads that job.
 */
export async function submitJob(
  integrationId: number,
  catalog: CatalogName,
  identifiers: readonly string[],
  idempotencyKey: string,
  origin: JobOrigin = {},
): Promise<SubmitOutcome> {
  const handle = await database();
  const keyHash = idempotencyKeyHash(idempotencyKey);
  const hash = requestHash(catalog, identifiers, origin.constancias ?? false);
  const items = planItems(catalog, identifiers).map((item, position) => ({
    p: position,
    i: seal(item.identifier, 'bulk_identifier'),
    s: item.kind === 'lookup' ? 'pendiente' : 'invalido',
    r: item.kind === 'lookup' ? null : item.reason,
  }));
  const publicId = newPublicJobId();
  // The set-aside items are answered at creation: the job's counters start with them.
  const setAside = items.filter((item) => item.s === 'invalido');
  const duplicates = setAside.filter((item) => item.r === 'duplicado').length;
  const [created] = await handle.rows<{ public_id: string }>(sql`
    with job as (
      insert into bulk_jobs (public_id, integration_id, catalog, idempotency_key_hash, request_hash, total_items, invalid_items, duplicate_items,
                             file_name, created_by_portal_user_id, constancias)
      values (${publicId}::text, ${integrationId}::integer, ${catalog}::text, ${keyHash}::text, ${hash}::text, ${items.length}::integer,
              ${setAside.length}::integer, ${duplicates}::integer, ${origin.fileName ?? null}::text, ${origin.portalUserId ?? null}::integer,
              ${origin.constancias ?? false}::boolean)
      on conflict (integration_id, idempotency_key_hash) do nothing
      returning id, public_id
    ),
    items as (
      insert into bulk_job_items (job_id, position, identifier_sealed, status, reason, answered_at)
      select job.id, t.p, t.i, t.s::bulk_item_status, t.r, case when t.s = 'invalido' then now() end
        from job, jsonb_to_recordset(${JSON.stringify(items)}::jsonb) as t(p integer, i text, s text, r text)
    )
    select public_id from job`);
  if (created) return { kind: 'created', publicId: created.public_id };
  const [existing] = await handle.rows<{ public_id: string; request_hash: string }>(sql`
    select public_id, request_hash from bulk_jobs where integration_id = ${integrationId}::integer and idempotency_key_hash = ${keyHash}::text`);
  if (!existing) throw new Error('a bulk job was neither created nor found under its idempotency key');
  return existing.request_hash === hash ? { kind: 'existing', publicId: existing.public_id } : { kind: 'key_reused' };
}

export interface JobStatus {
  publicId: string;
  catalog: CatalogName;
  state: BulkJobState;
  createdAt: Date;
  finishedAt: Date | null;
  counts: {
    total: number;
    done: number;
    found: number;
    notFound: number;
    /** Set aside or refused: the API's invalidos. */
    invalid: number;
    duplicates: number;
    /** Of invalid, those the source refused when asked; the rest were set aside before running. */
    rejected: number;
    failed: number;
    pending: number;
  };
  chargedCentavos: number;
  /** Null when nothing is left to run, or while the job waits for balance. */
  estimatedEnd: Date | null;
  /** The job whose failed rows this one runs again (null for a submitted list, or once that job was purged). */
  retryOf: string | null;
  /** Why an administrator paused it, in the administrator's words (only while en_pausa). */
  pauseReason: string | null;
  /** Each found item gets a constancia de consulta. */
  constancias: boolean;
}

/** The columns a job's figures are read from (its row's counters). */
export type JobFigureRow = {
  public_id: string;
  catalog: CatalogName;
  state: BulkJobState;
  created_at: string | Date;
  finished_at: string | Date | null;
  total: string | number;
  pending: string | number;
  found: string | number;
  not_found: string | number;
  invalid: string | number;
  duplicates: string | number;
  rejected: string | number;
  failed: string | number;
  charged: string | number | null;
  answered_last_minute: string | number;
  /** The public id of the job this one retries (JOB_RETRY_OF_COLUMN). */
  retry_of: string | null;
  pause_reason: string | null;
  constancias: boolean;
};

/**
 * A job's figures (`bulk_jobs j`), as the API, the portal and the console all read them: one
 * definition, so the three never disagree. They are the job's counters (db/schema/bulk-jobs.ts),
 * kept by the statements that answer its items: a page of jobs reads their rows, not their items.
 * Only a running job's pace reads items, its last minute's answers (bulk_job_items_answered_idx);
 * the others have no estimated end to compute (jobStatusOf).
 */
export const JOB_FIGURE_COLUMNS = sql`
           j.total_items as total,
           j.total_items - j.found_items - j.not_found_items - j.invalid_items - j.failed_items as pending,
           j.found_items as found,
           j.not_found_items as not_found,
           j.invalid_items as invalid,
           j.duplicate_items as duplicates,
           j.rejected_items as rejected,
           j.failed_items as failed,
           j.charged_centavos as charged,
           j.constancias as constancias,
           case when j.state = 'en_curso' then (
             select count(*) from bulk_job_items i
              where i.job_id = j.id and i.request_id is not null and i.answered_at > now() - interval '1 minute'
           ) else 0 end as answered_last_minute`;

/** The job a retry runs the failed rows of, by its public id (bulk_jobs `j`). */
export const JOB_RETRY_OF_COLUMN = sql`(select o.public_id from bulk_jobs o where o.id = j.retry_of) as retry_of`;

/** A job's status from its figures' row. */
export function jobStatusOf(row: JobFigureRow): JobStatus {
  const pending = Number(row.pending);
  const total = Number(row.total);
  return {
    publicId: row.public_id,
    catalog: row.catalog,
    state: row.state,
    createdAt: new Date(row.created_at),
    finishedAt: row.finished_at === null ? null : new Date(row.finished_at),
    counts: {
      total,
      done: total - pending,
      found: Number(row.found),
      notFound: Number(row.not_found),
      invalid: Number(row.invalid),
      duplicates: Number(row.duplicates),
      rejected: Number(row.rejected),
      failed: Number(row.failed),
      pending,
    },
    chargedCentavos: Number(row.charged ?? 0),
    // Only a running job has an end in sight.
    estimatedEnd: row.state === 'en_curso' && pending > 0 ? estimateEnd(pending, Number(row.answered_last_minute)) : null,
    retryOf: row.retry_of,
    pauseReason: row.state === 'en_pausa' ? row.pause_reason : null,
    constancias: row.constancias === true,
  };
}

/** The job as its integration sees it; null for an unknown id and for another integration's. */
export async function readJob(integrationId: number, publicId: string): Promise<JobStatus | null> {
  if (!isPublicJobId(publicId)) return null;
  const handle = await database();
  const [row] = await handle.rows<JobFigureRow>(sql`
    select j.public_id, j.catalog, j.state, j.created_at, j.finished_at, j.pause_reason, ${JOB_RETRY_OF_COLUMN}, ${JOB_FIGURE_COLUMNS}
      from bulk_jobs j
     where j.integration_id = ${integrationId}::integer and j.public_id = ${publicId}::text`);
  return row ? jobStatusOf(row) : null;
}

/**
 * When the pending items should be done: at the pace of the last minute, or before a first minute
 * has passed at the most a job may spend (its share of the catalog limit, lib/flows/bulk/pacing.ts).
 */
export function estimateEnd(pending: number, answeredLastMinute: number): Date {
  const allowed = bulkItemsPerMinute();
  const perMinute = answeredLastMinute > 0 ? Math.min(answeredLastMinute, allowed) : allowed;
  return new Date(Date.now() + Math.ceil((pending / perMinute) * 60_000));
}

export type CancelOutcome =
  /** `notice`: cancelled inside the caller's transaction, for the caller to tell once it commits. */
  | { kind: 'cancelled'; notice?: DueNotice }
  | { kind: 'already_finished'; state: BulkJobState }
  | { kind: 'unknown' };

/**
 * Stops a job: nothing pending runs after this (the runner claims only items of running jobs), so
 * nothing more is charged. An item already running when the job is cancelled finishes and is charged
 * if found, as any lookup that reached its source.
 */
export async function cancelJob(integrationId: number, publicId: string, transaction?: SqlExecutor): Promise<CancelOutcome> {
  if (!isPublicJobId(publicId)) return { kind: 'unknown' };
  // Inside the caller's transaction when given: the console's cancel commits with its audit row.
  const [row] = await rowsIn<{ id: number; state: BulkJobState; notice_due_at: string | null }>(transaction, sql`
    with cancelled as (
      update bulk_jobs set state = 'cancelado', finished_at = now(), notice_due_at = now()
       where integration_id = ${integrationId}::integer and public_id = ${publicId}::text and state in ('en_curso', 'en_pausa_sin_saldo', 'en_pausa')
      returning id, notice_due_at
    )
    select j.id, j.state, (select c.notice_due_at::text from cancelled c) as notice_due_at
      from bulk_jobs j where j.integration_id = ${integrationId}::integer and j.public_id = ${publicId}::text`);
  if (!row) return { kind: 'unknown' };
  if (row.notice_due_at === null) return { kind: 'already_finished', state: row.state };
  // Only the request that cancelled it tells of it: a repeated cancellation is answered, not told
  // again. The notice is due from the same statement (lib/flows/bulk/notices.ts).
  const notice = { event: { kind: 'finished', state: 'cancelado', jobId: Number(row.id), publicId, integrationId } as const, dueAt: row.notice_due_at };
  // Inside a caller's transaction nothing is committed yet (and on PGlite a listener's own statement
  // would wait for that transaction): the caller tells it once its transaction has committed.
  if (transaction) return { kind: 'cancelled', notice };
  await tellJobChange(notice);
  return { kind: 'cancelled' };
}

/** readJob for a job this request just created or changed: it exists. */
export async function readJobOrThrow(integrationId: number, publicId: string): Promise<JobStatus> {
  const job = await readJob(integrationId, publicId);
  if (!job) throw new Error('a bulk job vanished between its change and its reading');
  return job;
}
