import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, pgEnum, pgTable, primaryKey, text, timestamp, uniqueIndex, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';
import { integrations } from './integrations';
import { CATALOG_LOOKUPS } from './query-records';
import { portalUsers } from './portal-users';
import { watchLists } from './watch-lists';

// en_pausa: an administrator paused it from the console; only an administrator's resume ends it
// (unlike en_pausa_sin_saldo, which a top-up ends by itself). The runner claims only en_curso.
export const bulkJobState = pgEnum('bulk_job_state', ['en_curso', 'en_pausa_sin_saldo', 'en_pausa', 'completado', 'cancelado']);
export type BulkJobState = (typeof bulkJobState.enumValues)[number];

export const bulkItemStatus = pgEnum('bulk_item_status', ['pendiente', 'encontrado', 'no_encontrado', 'invalido', 'error_fuente']);
export type BulkItemStatus = (typeof bulkItemStatus.enumValues)[number];

// A bulk job (lote): one integration's list of identifiers for one catalog, each item a
// real catalog lookup run by whichever instance claims it (lib/flows/bulk). The integrator knows it by
// `public_id` only (random, so ids say nothing of volume or of other integrations' jobs); `id`
// stays inside the database.
export const bulkJobs = pgTable(
  'bulk_jobs',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    publicId: text('public_id').notNull(),
    integrationId: integer('integration_id')
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    catalog: text('catalog', { enum: CATALOG_LOOKUPS }).notNull(),
    state: bulkJobState('state').notNull().default('en_curso'),
    // The Idempotency-Key's SHA-256 (as lib/core/idempotency stores it), and a keyed hash of the
    // submitted list, so a repeat with another list is told apart without keeping the list twice.
    idempotencyKeyHash: text('idempotency_key_hash').notNull(),
    requestHash: text('request_hash').notNull(),
    totalItems: integer('total_items').notNull(),
    createdAt: createdAt(),
    // When it ended (completed or cancelled); results are deleted RESULT_RETENTION_DAYS later.
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
    // The finished job whose error_fuente rows this job runs again ("reintentar los fallidos",
    // lib/flows/bulk/retry.ts). Cleared when the retention purge deletes that job; the retry keeps its own
    // rows until its own retention ends.
    retryOf: integer('retry_of').references((): AnyPgColumn => bulkJobs.id, { onDelete: 'set null' }),
    // When it last paused for balance: the pause's name in its notice's outbox key, so a notice told
    // again after a crash is the same notice (lib/flows/bulk/notices.ts).
    pausedAt: timestamp('paused_at', { withTimezone: true, mode: 'date' }),
    // Set by the statement that ended or paused the job, cleared once every listener of that change
    // was told (lib/flows/bulk/notices.ts): an instance killed in between leaves it set, and any instance's
    // runner tells the change again. The change and the duty to tell it commit together.
    noticeDueAt: timestamp('notice_due_at', { withTimezone: true, mode: 'date' }),
    // Why an administrator paused it (en_pausa), in the administrator's words for the integrator:
    // the API's motivo_estado and the portal's job page show it; cleared by the resume.
    pauseReason: text('pause_reason'),
    // A run of a watch list (Vigilancia, lib/flows/watch-lists): an ordinary job in every other way. Its
    // run number within the list names its changes; cleared when the list is deleted (the job keeps
    // its rows until its own retention ends).
    watchListId: integer('watch_list_id').references((): AnyPgColumn => watchLists.id, { onDelete: 'set null' }),
    watchListRun: integer('watch_list_run'),
    // Each found item gets a constancia de consulta (lib/core/constancias), asked for at submission
    // or by the watch list whose run this is; only where the integration has them enabled.
    constancias: boolean('constancias').notNull().default(false),
    // When its changes were compared and written: taken with UPDATE … RETURNING in the transaction
    // that writes them, so a run's changes are written once across instances.
    changesComputedAt: timestamp('changes_computed_at', { withTimezone: true, mode: 'date' }),
    // The job's figures, kept here so that a list of jobs never counts their items (up to 10,000
    // each) on every view: set-aside items counted when the job is created, and each answer counted
    // by the statement that writes it (its lookup's settlement, lib/flows/bulk/items.ts itemSettlement, or
    // setAside), only when that statement answered the item, so they cannot drift from the items.
    // Pending items are total_items minus the four answers.
    foundItems: integer('found_items').notNull().default(0),
    notFoundItems: integer('not_found_items').notNull().default(0),
    // Set aside (invalid or duplicated) at submission or by the runner, or rejected by the source.
    invalidItems: integer('invalid_items').notNull().default(0),
    // Of invalidItems, those set aside as repeats of an earlier identifier of the list.
    duplicateItems: integer('duplicate_items').notNull().default(0),
    // Of invalidItems, those the source refused when asked (rechazado_por_la_fuente): they ran, so
    // the pages count them apart from what was set aside before running, and none was charged.
    rejectedItems: integer('rejected_items').notNull().default(0),
    failedItems: integer('failed_items').notNull().default(0),
    chargedCentavos: bigint('charged_centavos', { mode: 'number' }).notNull().default(0),
    // The uploaded file's name, for the job's page (lib/flows/bulk/file-name.ts: its last path part,
    // without control characters, at most BULK_FILE_NAME_MAX characters); null when a list came
    // through the API, a watch list or a retry.
    fileName: text('file_name'),
    // The portal user who created it from "Lotes"; null for the API (the integration's token), a
    // watch list's run or a retry. Portal users are removed by marking them, never deleted, so no
    // index serves a delete's lookup here.
    createdByPortalUserId: integer('created_by_portal_user_id').references((): AnyPgColumn => portalUsers.id, { onDelete: 'set null' }),
  },
  (table) => [
    // What the API looks jobs up by.
    uniqueIndex('bulk_jobs_public_id_unique').on(table.publicId),
    // Same key, same job: the second submission finds the first under any concurrency.
    uniqueIndex('bulk_jobs_idempotency_unique').on(table.integrationId, table.idempotencyKeyHash),
    // The runner's question on every pass: which jobs are running or waiting for balance, oldest first.
    index('bulk_jobs_active_idx').on(table.createdAt, table.id).where(sql`${table.state} in ('en_curso', 'en_pausa_sin_saldo')`),
    // The console's list of every job, newest first (lib/flows/bulk/console.ts), unfiltered, by
    // integration and by state, and the portal's list of an integration's jobs (lib/surfaces/portal/bulk.ts):
    // each a backward scan in the list's exact order.
    index('bulk_jobs_created_idx').on(table.createdAt, table.id),
    index('bulk_jobs_integration_created_idx').on(table.integrationId, table.createdAt, table.id),
    index('bulk_jobs_state_created_idx').on(table.state, table.createdAt, table.id),
    // The runner's look for changes whose notice an instance died before giving (only those rows).
    index('bulk_jobs_notice_due_idx').on(table.noticeDueAt).where(sql`${table.noticeDueAt} is not null`),
    // The purge's delete of a retried job: its foreign key's ON DELETE SET NULL looks up the retries
    // pointing at it (`where retry_of = $1`), once per deleted job; without this, a scan of every job.
    index('bulk_jobs_retry_of_idx').on(table.retryOf).where(sql`${table.retryOf} is not null`),
    // The retention purge: finished jobs, oldest first.
    index('bulk_jobs_finished_idx').on(table.finishedAt).where(sql`${table.finishedAt} is not null`),
    // Completed watch-list runs whose changes are still to be compared (the scheduler's sweep).
    index('bulk_jobs_watch_changes_due_idx').on(table.id).where(sql`${table.watchListId} is not null and ${table.changesComputedAt} is null`),
    // A list's runs, newest first: whether one is still running, and the last run number.
    index('bulk_jobs_watch_list_idx').on(table.watchListId, table.watchListRun),
    check('bulk_jobs_finished', sql`(${table.state} in ('completado', 'cancelado')) = (${table.finishedAt} is not null)`),
  ],
);

// One row per submitted identifier, in the order sent. The identifier and the catalog's answer are
// sealed with the personal-data key (lib/core/personal-data), as query records are. An item is claimed
// with a lease (holder, expiry, and a fresh token per claim); its answer is written in the same
// statement as its lookup's charge and query record (lib/core/billing/holds.ts), and only by the claim
// whose token it still carries, so an item is settled once however many instances try it.
export const bulkJobItems = pgTable(
  'bulk_job_items',
  {
    jobId: integer('job_id')
      .notNull()
      .references(() => bulkJobs.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    identifierSealed: text('identifier_sealed').notNull(),
    status: bulkItemStatus('status').notNull().default('pendiente'),
    // Why an item was set aside (`nit_invalido`, `cui_invalido`, `duplicado`) or what the source
    // answered when it failed (lib/sources' failure names).
    reason: text('reason'),
    // The catalog's `data`, sealed; null until found.
    resultSealed: text('result_sealed'),
    answeredAt: timestamp('answered_at', { withTimezone: true, mode: 'date' }),
    // The upstream that answered (evidence for an audit) and the request id of the lookup whose
    // query record holds the answer: the console's request-id search finds it.
    source: text('source'),
    requestId: text('request_id'),
    // The receipt of its answer, written in the same statement, when its job asked for them.
    constanciaId: text('constancia_id'),
    chargedCentavos: bigint('charged_centavos', { mode: 'number' }).notNull().default(0),
    leaseHolder: text('lease_holder'),
    leaseToken: text('lease_token'),
    // A pending item is claimable once this has passed (or while null); also "not before" for an
    // item put back to wait for the per-minute limit or the source.
    leaseUntil: timestamp('lease_until', { withTimezone: true, mode: 'date' }),
  },
  (table) => [
    primaryKey({ columns: [table.jobId, table.position] }),
    // The claim: a job's pending items in order, without reading the answered ones.
    index('bulk_job_items_pending_idx').on(table.jobId, table.position).where(sql`${table.status} = 'pendiente'`),
    // A running job's pace (items answered in the last minute, for its estimated end): the job's
    // latest answers, without reading its other items.
    index('bulk_job_items_answered_idx').on(table.jobId, table.answeredAt).where(sql`${table.requestId} is not null`),
  ],
);

export type BulkJob = typeof bulkJobs.$inferSelect;
export type BulkJobItem = typeof bulkJobItems.$inferSelect;
