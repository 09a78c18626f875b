// Bulk jobs as the console sees them: every integration's jobs, newest first,
// one job's rows with its identifiers sealed until someone reveals one with a reason, and an
// administrator's pause, resume and cancel. The integrator's own reads stay in jobs.ts and
// results.ts; this file only adds what crosses integrations.
import { and, eq, inArray, sql } from 'drizzle-orm';
import { database, db } from '@/db/client';
import { bulkJobs, type BulkItemStatus, type BulkJobState } from '@/db/schema';
import { writeAudit, type Actor } from '@/lib/core/audit/audit';
import type { CatalogName } from '@/lib/flows/lookups/catalog-request';
import { open } from '@/lib/core/sealing/envelope';
import { maskCui, maskNit } from '@/lib/core/sealing/masking';
import { decodeCursor, encodeCursor } from '@/lib/platform/paging/keyset';
import { ok, type Result } from '@/lib/platform/result';
import { cancelJob, isPublicJobId, JOB_FIGURE_COLUMNS, JOB_RETRY_OF_COLUMN, jobStatusOf, readJob, type JobFigureRow, type JobStatus } from './jobs';
import { tellJobChange, type DueNotice } from './notices';
import { fieldFor } from './identifiers';

/** Fewer rows than other lists: each job is a card-like row of figures. */
export const CONSOLE_JOBS_PAGE_SIZE = 20;
export const CONSOLE_ITEMS_PAGE_SIZE = 100;

export interface ConsoleJobFilters {
  integrationId?: number;
  state?: BulkJobState;
  /** A watch list's runs (the portal's Vigilancia page): its public id, scoped with integrationId. */
  watchListPublicId?: string;
}

export type ConsoleJob = JobStatus & { integrationId: number; integrationName: string };

type JobRow = JobFigureRow & { integration_id: number; nombre: string; cursor: string; id: number };

function toConsoleJob(row: JobRow): ConsoleJob {
  return { ...jobStatusOf(row), integrationId: Number(row.integration_id), integrationName: row.nombre };
}

/**
 * Newest jobs first, keyset-paged on (created_at, id): the page's jobs come from a backward scan of
 * bulk_jobs_created_idx (or its integration or state twin), with their figures from their own rows
 * (the counters the item answers keep), so a page costs the same however many jobs and items exist.
 */
export async function listConsoleJobs(filters: ConsoleJobFilters, after?: string): Promise<{ rows: ConsoleJob[]; older?: string }> {
  const cursor = decodeCursor(after);
  const handle = await database();
  const rows = await handle.rows<JobRow>(sql`
    with page as (
      select j.* from bulk_jobs j
       where true
         ${filters.integrationId === undefined ? sql`` : sql`and j.integration_id = ${filters.integrationId}::integer`}
         ${filters.state === undefined ? sql`` : sql`and j.state = ${filters.state}::bulk_job_state`}
         ${filters.watchListPublicId === undefined ? sql`` : sql`and j.watch_list_id = (select w.id from watch_lists w where w.public_id = ${filters.watchListPublicId}::text)`}
         ${cursor ? sql`and (j.created_at, j.id) < (${cursor.createdAt}::timestamptz, ${cursor.id}::bigint)` : sql``}
       order by j.created_at desc, j.id desc
       limit ${CONSOLE_JOBS_PAGE_SIZE + 1}::integer
    )
    select j.id, j.public_id, j.integration_id, g.nombre, j.catalog, j.state, j.created_at, j.finished_at, j.pause_reason,
           to_char(j.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as cursor,
           ${JOB_RETRY_OF_COLUMN}, ${JOB_FIGURE_COLUMNS}
      from page j
      join integrations g on g.id = j.integration_id
     order by j.created_at desc, j.id desc`);
  const page = rows.slice(0, CONSOLE_JOBS_PAGE_SIZE);
  const last = page.at(-1);
  return {
    rows: page.map(toConsoleJob),
    older: rows.length > CONSOLE_JOBS_PAGE_SIZE && last ? encodeCursor({ createdAt: last.cursor, id: Number(last.id) }) : undefined,
  };
}

/** Which integration a job belongs to, by its public id; undefined for an unknown one. */
async function jobOwner(publicId: string): Promise<{ id: number; integrationId: number; integrationName: string } | undefined> {
  if (!isPublicJobId(publicId)) return undefined;
  const handle = await database();
  const [row] = await handle.rows<{ id: number; integration_id: number; nombre: string }>(sql`
    select j.id, j.integration_id, g.nombre from bulk_jobs j join integrations g on g.id = j.integration_id where j.public_id = ${publicId}::text`);
  return row ? { id: Number(row.id), integrationId: Number(row.integration_id), integrationName: row.nombre } : undefined;
}

/** One job with the same figures as the list (the integrator's readJob, for whichever integration owns it). */
export async function findConsoleJob(publicId: string): Promise<ConsoleJob | undefined> {
  const owner = await jobOwner(publicId);
  if (!owner) return undefined;
  const job = await readJob(owner.integrationId, publicId);
  return job ? { ...job, integrationId: owner.integrationId, integrationName: owner.integrationName } : undefined;
}

/** A job's row as the console lists it: its identifier never leaves the database sealed here. */
export interface ConsoleJobItem {
  /** From 1, as the integrator's results number them. */
  position: number;
  /** Masked for every console role (lib/core/sealing/masking.ts); "Mostrar" reveals one, logged. */
  maskedIdentifier: string;
  status: BulkItemStatus | 'cancelado';
  reason: string | null;
  answeredAt: Date | null;
  source: string | null;
  requestId: string | null;
  chargedCentavos: number;
}

/** A page of a job's rows in the order sent, after `afterPosition` (1-based). */
export async function listConsoleJobItems(publicId: string, afterPosition = 0): Promise<{ rows: ConsoleJobItem[]; next?: number } | undefined> {
  const owner = await jobOwner(publicId);
  if (!owner) return undefined;
  const handle = await database();
  const rows = await handle.rows<{
    position: number;
    identifier_sealed: string;
    catalog: CatalogName;
    status: BulkItemStatus;
    reason: string | null;
    answered_at: string | Date | null;
    source: string | null;
    request_id: string | null;
    charged_centavos: string | number;
    cancelled: boolean;
  }>(sql`
    select i.position, i.identifier_sealed, j.catalog, i.status, i.reason, i.answered_at, i.source, i.request_id, i.charged_centavos,
           j.state = 'cancelado' as cancelled
      from bulk_job_items i join bulk_jobs j on j.id = i.job_id
     where i.job_id = ${owner.id}::integer and i.position > ${afterPosition - 1}::integer
     order by i.position limit ${CONSOLE_ITEMS_PAGE_SIZE + 1}::integer`);
  const page = rows.slice(0, CONSOLE_ITEMS_PAGE_SIZE).map((row) => ({
    position: Number(row.position) + 1,
    maskedIdentifier: maskedItemIdentifier(identifierOf(row.catalog, open(row.identifier_sealed, 'bulk_identifier'))),
    // As the results say it: a pending item of a cancelled job never ran.
    status: row.cancelled && row.status === 'pendiente' ? ('cancelado' as const) : row.status,
    reason: row.reason,
    answeredAt: row.answered_at === null ? null : new Date(row.answered_at),
    source: row.source,
    requestId: row.request_id,
    chargedCentavos: Number(row.charged_centavos),
  }));
  return { rows: page, next: rows.length > CONSOLE_ITEMS_PAGE_SIZE ? page.at(-1)!.position : undefined };
}

/**
 * One row's identifier, opened, as a NIT or a CUI by the field the catalog was sent it in (an
 * identifier set aside as invalid is shown where it would have gone). Only for a reveal that has
 * already been logged (the console's action writes the access entry first).
 */
export async function openJobItemIdentifier(publicId: string, position: number): Promise<{ nit: string | null; cui: string | null; requestId: string | null } | undefined> {
  const owner = await jobOwner(publicId);
  if (!owner) return undefined;
  const handle = await database();
  const [row] = await handle.rows<{ identifier_sealed: string; catalog: CatalogName; request_id: string | null }>(sql`
    select i.identifier_sealed, j.catalog, i.request_id from bulk_job_items i join bulk_jobs j on j.id = i.job_id
     where i.job_id = ${owner.id}::integer and i.position = ${position - 1}::integer`);
  if (!row) return undefined;
  return { ...identifierOf(row.catalog, open(row.identifier_sealed, 'bulk_identifier')), requestId: row.request_id };
}

/**
 * An item's identifier as a NIT or a CUI, by the field its catalog was (or would have been) sent it
 * in: an identifier set aside as an invalid CUI is still a CUI to mask.
 */
function identifierOf(catalog: CatalogName, identifier: string): { nit: string | null; cui: string | null } {
  const target = fieldFor(catalog, identifier);
  const isCui = 'field' in target ? target.field === 'cui' : target.reason === 'cui_invalido';
  return { nit: isCui ? null : identifier, cui: isCui ? identifier : null };
}

function maskedItemIdentifier({ nit, cui }: { nit: string | null; cui: string | null }): string {
  return cui !== null ? maskCui(cui) : maskNit(nit ?? '');
}

export type JobControlError = 'not_found' | 'not_running' | 'not_paused' | 'finished';

export const JOB_CONTROL_MESSAGES: Record<JobControlError, string> = {
  not_found: 'Ese lote ya no existe (pudo haberse depurado al vencer sus resultados).',
  not_running: 'Ese lote ya no está en curso: solo se pausa un lote en curso o en pausa por falta de saldo.',
  not_paused: 'Ese lote no está pausado por la administración: no hay nada que reanudar.',
  finished: 'Ese lote ya terminó (completado o cancelado): no se puede cancelar.',
};

const fail = (code: JobControlError): Result<never, JobControlError> => ({ ok: false, error: { code, message: JOB_CONTROL_MESSAGES[code] } });

/**
 * Changes a job's state from one of `from` to `to`, audited in the same transaction with the
 * administrator as actor. The conditional update is the guard: two administrators pausing at once
 * change it once, and the second is told it no longer applies.
 */
async function changeState(
  actor: Actor,
  publicId: string,
  from: BulkJobState[],
  to: { state: BulkJobState; pauseReason: string | null },
  action: string,
  refused: JobControlError,
): Promise<Result<{ before: BulkJobState }, JobControlError>> {
  const owner = await jobOwner(publicId);
  if (!owner) return fail('not_found');
  return (await db()).transaction(async (tx) => {
    const [current] = await tx.select({ state: bulkJobs.state }).from(bulkJobs).where(eq(bulkJobs.id, owner.id)).for('update');
    if (!current) return fail('not_found');
    const [changed] = await tx
      .update(bulkJobs)
      .set({ state: to.state, pauseReason: to.pauseReason })
      .where(and(eq(bulkJobs.id, owner.id), inArray(bulkJobs.state, from)))
      .returning({ id: bulkJobs.id });
    if (!changed) return fail(refused);
    await writeAudit(tx, actor, {
      action,
      targetType: 'integration',
      targetId: owner.integrationId,
      before: { lote: publicId, estado: current.state },
      after: { lote: publicId, estado: to.state, ...(to.pauseReason === null ? {} : { motivo: to.pauseReason }) },
    });
    return ok({ before: current.state });
  });
}

/**
 * An administrator's pause: the runner claims nothing of it (it claims only en_curso), and neither
 * a top-up nor anything else resumes it but resumeJobAsAdmin. An item already running when it is
 * paused finishes, as when a job is cancelled. A job waiting for balance can be paused too: the
 * administrator's pause outlasts the top-up.
 */
export function pauseJobAsAdmin(actor: Actor, publicId: string, reason: string) {
  // The reason is the integrator's to read (GET /api/lotes/{id}'s motivo_estado, the portal's page):
  // a job that stops for nobody knows why looks broken.
  return changeState(actor, publicId, ['en_curso', 'en_pausa_sin_saldo'], { state: 'en_pausa', pauseReason: reason }, 'bulk_job.pause', 'not_running');
}

/** Ends an administrator's pause; a job that meanwhile ran out of balance pauses again for that at its next item. */
export function resumeJobAsAdmin(actor: Actor, publicId: string) {
  return changeState(actor, publicId, ['en_pausa'], { state: 'en_curso', pauseReason: null }, 'bulk_job.resume', 'not_paused');
}

/**
 * Cancels through the integrator's own cancel (jobs.ts: nothing pending runs or is charged after
 * it), in one transaction with its audit row. The job's row is locked first, so two administrators
 * cancelling at once cancel it once and the second is told it has finished.
 */
export async function cancelJobAsAdmin(actor: Actor, publicId: string): Promise<Result<{ before: BulkJobState }, JobControlError>> {
  const owner = await jobOwner(publicId);
  if (!owner) return fail('not_found');
  let told: DueNotice | undefined;
  const result = await (await db()).transaction(async (tx) => {
    const [current] = await tx.select({ state: bulkJobs.state }).from(bulkJobs).where(eq(bulkJobs.id, owner.id)).for('update');
    if (!current) return fail('not_found');
    const outcome = await cancelJob(owner.integrationId, publicId, tx);
    if (outcome.kind === 'unknown') return fail('not_found');
    if (outcome.kind === 'already_finished') return fail('finished');
    told = outcome.notice;
    await writeAudit(tx, actor, {
      action: 'bulk_job.cancel',
      targetType: 'integration',
      targetId: owner.integrationId,
      before: { lote: publicId, estado: current.state },
      after: { lote: publicId, estado: 'cancelado' },
    });
    return ok({ before: current.state });
  });
  // The integration is told of the cancellation once it is committed (lib/reactions/integrator-notifications).
  if (result.ok && told) await tellJobChange(told);
  return result;
}
