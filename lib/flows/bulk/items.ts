// A bulk job's items in the database: claimed with leases (FOR UPDATE SKIP LOCKED, so instances
// never wait on each other's rows), answered in their lookup's settlement statement, put back when
// they must wait. docs/decisions.md, "Bulk jobs", says why this and not a queue library.
import { sql, type SQL } from 'drizzle-orm';
import { database } from '@/db/client';
import { LOOKUP_FLAG_COLUMNS, type BulkItemStatus, type LookupKind } from '@/db/schema';
import type { CatalogOutcome } from '@/lib/flows/lookups/catalog';
import type { CatalogName } from '@/lib/flows/lookups/catalog-request';
import type { AuthenticatedIntegration } from '@/lib/core/integrations/directory';
import { LOOKUP_FLAGS, type IntegrationFlags } from '@/lib/core/integrations/flags';
import { LOOKUPS } from '@/lib/vocabulary/lookups';
import { seal } from '@/lib/core/sealing/envelope';
import type { SourceName } from '@/lib/sources/guard';
import { SOURCE_REJECTED } from './labels';
import { tellJobChange } from './notices';

/**
 * Every catalog is answered by the catalog source (lib/sources); an item keeps its id as evidence,
 * shown to the integrator with its name (lib/flows/bulk/results.ts, sourceForIntegrator).
 */
const CATALOG_SOURCE: SourceName = 'catalog';

export interface ClaimedItem {
  jobId: number;
  position: number;
  identifierSealed: string;
  /** Whose claim this is: the item's answer is written only while it still carries this token. */
  leaseToken: string;
  catalog: CatalogName;
  /** The job's integration, also when it is inactive (the runner skips its items for a while). */
  integrationId: number;
  /** Null when the integration is inactive: its items wait. */
  integration: AuthenticatedIntegration | null;
  /** Its job asked for a constancia de consulta per found item. */
  constancias: boolean;
}

/**
 * Claims up to `limit` pending items of running jobs, oldest job first, for `leaseSeconds`: an item
 * whose instance died is claimable again once its lease expires. Each claim draws a fresh token.
 * `skipIntegrations`: those this instance knows must wait (their share of the minute is spent), so
 * their items are not claimed only to be put back.
 */
type FlagColumn = (typeof LOOKUP_FLAG_COLUMNS)[LookupKind];

/** Every lookup's flag column of the job's integration (db/schema/lookups.ts): constants, never input. */
const FLAG_COLUMNS_RETURNED = sql.raw(LOOKUPS.map((lookup) => `g.${LOOKUP_FLAG_COLUMNS[lookup]}`).join(', '));

function flagsOfRow(row: Record<FlagColumn, boolean>): IntegrationFlags {
  return Object.fromEntries(LOOKUPS.map((lookup) => [LOOKUP_FLAGS[lookup], row[LOOKUP_FLAG_COLUMNS[lookup]]])) as IntegrationFlags;
}

export async function claimItems(holder: string, limit: number, leaseSeconds: number, skipIntegrations: readonly number[] = []): Promise<ClaimedItem[]> {
  const handle = await database();
  const rows = await handle.rows<{
    job_id: number;
    position: number;
    identifier_sealed: string;
    lease_token: string;
    catalog: CatalogName;
    integration_id: number;
    nombre: string;
    active: boolean;
    constancias_enabled: boolean;
    constancias: boolean;
  } & Record<FlagColumn, boolean>>(sql`
    with candidates as (
      select i.job_id, i.position
        from bulk_jobs j join bulk_job_items i on i.job_id = j.id and i.status = 'pendiente'
       where j.state = 'en_curso' and (i.lease_until is null or i.lease_until < now())
         and j.integration_id not in (select value::integer from jsonb_array_elements_text(${JSON.stringify(skipIntegrations)}::jsonb))
       order by j.created_at, j.id, i.position
       limit ${limit}::integer
       for update of i skip locked
    )
    update bulk_job_items i
       set lease_holder = ${holder}::text, lease_token = gen_random_uuid()::text,
           lease_until = now() + make_interval(secs => ${leaseSeconds}::integer)
      from candidates c, bulk_jobs j, integrations g
     where i.job_id = c.job_id and i.position = c.position and j.id = i.job_id and g.id = j.integration_id
    returning i.job_id, i.position, i.identifier_sealed, i.lease_token, j.catalog, j.integration_id, g.nombre, g.active, g.constancias_enabled, j.constancias,
              ${FLAG_COLUMNS_RETURNED}`);
  return rows.map((row) => ({
    jobId: Number(row.job_id),
    position: Number(row.position),
    identifierSealed: row.identifier_sealed,
    leaseToken: row.lease_token,
    catalog: row.catalog,
    integrationId: Number(row.integration_id),
    integration: row.active
      ? {
          id: Number(row.integration_id),
          nombre: row.nombre,
          constanciasEnabled: row.constancias_enabled,
          ...flagsOfRow(row),
        }
      : null,
    constancias: row.constancias === true,
  }));
}

/** What an item's row says once its lookup settled. */
function itemAnswer(outcome: CatalogOutcome): { status: BulkItemStatus; reason: string | null; data: unknown } {
  if (outcome.kind === 'success') return { status: 'encontrado', reason: null, data: outcome.data };
  if (outcome.kind === 'source_failure') {
    if (outcome.failure === 'not_found') return { status: 'no_encontrado', reason: null, data: null };
    if (outcome.failure === 'data_rejected') return { status: 'invalido', reason: SOURCE_REJECTED, data: null };
    return { status: 'error_fuente', reason: outcome.failure, data: null };
  }
  return { status: 'error_fuente', reason: 'error_interno', data: null };
}

/**
 * The CTEs the lookup's settlement statement carries (lib/core/billing/holds.ts): the item's answer, its
 * request id and what it was charged (read from the record written beside it), and the job's
 * counters moved by that answer, committed with the charge, or not at all. Only for the claim that
 * still holds the item, and only once: the counters move only when the item's row was answered
 * here (a late claim, whose token is gone, changes neither). With `withReceipt`, the receipt the
 * same statement writes (lib/flows/bulk/item-receipt.ts), when it is written (its tariff covered).
 *
 * The integration's row is locked before the job's: PostgreSQL runs a statement's CTEs in an order
 * of its own, and a receipt's tariff locks the integration early (constancia_fee) where a void's
 * refund locks it last, after the job's counters. Two items of one job settling at once, one of
 * each, then deadlocked; one order for every item's statement cannot.
 */
export function itemSettlement(item: ClaimedItem, requestId: string, outcome: CatalogOutcome, withReceipt = false): SQL {
  const answer = itemAnswer(outcome);
  const sealed = answer.data === null ? null : seal(JSON.stringify(answer.data), 'bulk_result');
  return sql`bulk_item as (
    update bulk_job_items
       set status = ${answer.status}::bulk_item_status, reason = ${answer.reason}::text, result_sealed = ${sealed}::text,
           answered_at = now(), source = ${CATALOG_SOURCE}::text, request_id = ${requestId}::text, constancia_id = ${withReceipt ? sql`(select id from constancia_row)` : sql`null`},
           charged_centavos = coalesce((select charged_centavos from record), 0),
           lease_holder = null, lease_token = null, lease_until = null
     where job_id = ${item.jobId}::integer and position = ${item.position}::integer
       and lease_token = ${item.leaseToken}::text and status = 'pendiente'
    returning job_id, status, reason, charged_centavos),
  bulk_integration_locked as (
    select 1 from integrations where id = ${item.integrationId}::integer for no key update),
  bulk_job_counted as (
    ${countAnswer(sql`bulk_item`)} and exists (select 1 from bulk_integration_locked))`;
}

/** Moves the job's counters by the items `answered` returned (job_id, status, reason, charged_centavos). */
function countAnswer(answered: SQL): SQL {
  return sql`update bulk_jobs j
       set found_items = j.found_items + (a.status = 'encontrado')::integer,
           not_found_items = j.not_found_items + (a.status = 'no_encontrado')::integer,
           invalid_items = j.invalid_items + (a.status = 'invalido')::integer,
           rejected_items = j.rejected_items + (a.status = 'invalido' and a.reason = 'rechazado_por_la_fuente')::integer,
           failed_items = j.failed_items + (a.status = 'error_fuente')::integer,
           charged_centavos = j.charged_centavos + a.charged_centavos
      from ${answered} a
     where j.id = a.job_id`;
}

/**
 * Renews the item's claim for `leaseSeconds` from now, just before its lookup holds any money: only
 * while this claim still holds the item (its token), the item is pending and its job is running.
 * A lookup can wait for its turn (lib/core/admission) longer than the lease it was claimed with; by
 * then another instance may have claimed the item again, or the job been cancelled or paused. A
 * false answer means: hold nothing, charge nothing, record nothing. The renewed lease covers the
 * rest (the hold, the source's ceiling, the settlement), as a fresh claim's does.
 */
export async function renewClaim(item: ClaimedItem, leaseSeconds: number): Promise<boolean> {
  const rows = await (await database()).rows(sql`
    update bulk_job_items i set lease_until = now() + make_interval(secs => ${leaseSeconds}::integer)
      from bulk_jobs j
     where i.job_id = ${item.jobId}::integer and i.position = ${item.position}::integer
       and i.lease_token = ${item.leaseToken}::text and i.status = 'pendiente'
       and j.id = i.job_id and j.state = 'en_curso'
    returning i.position`);
  return rows.length > 0;
}

/** Puts an item back to be claimed again at `notBefore` (nothing was charged or recorded for it). */
export async function putBack(item: ClaimedItem, notBefore: Date): Promise<void> {
  await (await database()).rows(sql`
    update bulk_job_items set lease_holder = null, lease_token = null, lease_until = ${notBefore.toISOString()}::timestamptz
     where job_id = ${item.jobId}::integer and position = ${item.position}::integer and lease_token = ${item.leaseToken}::text`);
}

/** Answers an item without a lookup (the catalog refused what it was sent): free, and recorded nowhere else. */
export async function setAside(item: ClaimedItem, reason: string): Promise<void> {
  await (await database()).rows(sql`
    with set_aside as (
      update bulk_job_items set status = 'invalido', reason = ${reason}::text, answered_at = now(),
             lease_holder = null, lease_token = null, lease_until = null
       where job_id = ${item.jobId}::integer and position = ${item.position}::integer and lease_token = ${item.leaseToken}::text
      returning job_id, status, reason, charged_centavos
    )
    ${countAnswer(sql`set_aside`)}`);
}

/**
 * The job waits for balance: no item of it is claimed until a top-up (resumePausedJobs). Only the
 * statement that moved it out of en_curso tells of the pause, so it is told once however many
 * instances ran out at the same time; that statement also marks the notice due (lib/flows/bulk/notices.ts).
 */
export async function pauseForBalance(jobId: number): Promise<void> {
  const [paused] = await (await database()).rows<{ public_id: string; integration_id: number; paused_at: string | Date; notice_due_at: string }>(sql`
    update bulk_jobs set state = 'en_pausa_sin_saldo', paused_at = now(), notice_due_at = now() where id = ${jobId}::integer and state = 'en_curso'
    returning public_id, integration_id, paused_at, notice_due_at::text as notice_due_at`);
  if (paused) {
    const event = { kind: 'paused', jobId, publicId: paused.public_id, integrationId: Number(paused.integration_id), pausedAt: new Date(paused.paused_at) } as const;
    await tellJobChange({ event, dueAt: paused.notice_due_at });
  }
}

/** Jobs paused for balance whose integration can pay a lookup again run on; returns how many. */
export async function resumePausedJobs(): Promise<number> {
  const rows = await (await database()).rows(sql`
    update bulk_jobs j set state = 'en_curso'
      from integrations g
     where g.id = j.integration_id and j.state = 'en_pausa_sin_saldo'
       and g.balance_centavos > 0 and g.balance_centavos >= g.tariff_centavos
    returning j.id`);
  return rows.length;
}

/** Running jobs with nothing pending are complete (those of `jobId` only, when given); each is told once. */
export async function completeFinishedJobs(jobId?: number): Promise<void> {
  const completed = await (await database()).rows<{ id: number; public_id: string; integration_id: number; notice_due_at: string }>(sql`
    update bulk_jobs j set state = 'completado', finished_at = now(), notice_due_at = now(),
           -- Counted again from the items once, at the end, when none is left to answer (so no
           -- settlement can race this): the figures a finished job keeps for good, and notices read,
           -- are the items' own, even for a job an older instance answered items of without moving
           -- the counters (a rolling deploy across migration 0044).
           (found_items, not_found_items, invalid_items, duplicate_items, rejected_items, failed_items, charged_centavos) = (
             select count(*) filter (where i.status = 'encontrado'), count(*) filter (where i.status = 'no_encontrado'),
                    count(*) filter (where i.status = 'invalido'), count(*) filter (where i.status = 'invalido' and i.reason = 'duplicado'),
                    count(*) filter (where i.status = 'invalido' and i.reason = 'rechazado_por_la_fuente'),
                    count(*) filter (where i.status = 'error_fuente'), coalesce(sum(i.charged_centavos), 0)
               from bulk_job_items i where i.job_id = j.id)
     where j.state = 'en_curso' ${jobId === undefined ? sql`` : sql`and j.id = ${jobId}::integer`}
       and not exists (select 1 from bulk_job_items i where i.job_id = j.id and i.status = 'pendiente')
    returning j.id, j.public_id, j.integration_id, j.notice_due_at::text as notice_due_at`);
  for (const job of completed) {
    const event = { kind: 'finished', state: 'completado', jobId: Number(job.id), publicId: job.public_id, integrationId: Number(job.integration_id) } as const;
    await tellJobChange({ event, dueAt: job.notice_due_at });
  }
}
