// The database side of Idempotency-Key (lib/core/idempotency/key.ts has the rules): one row per
// integration and key, shared by every instance, on PGlite and PostgreSQL alike.
import { sql, type SQL } from 'drizzle-orm';
import { database } from '@/db/client';
import { open, seal } from '@/lib/core/sealing/envelope';
import { IDEMPOTENCY_WINDOW_HOURS } from './key';

/** The row a lookup works on: its integration, its key's hash, and the lookup (request id) that owns it. */
export interface IdempotencyTarget {
  integrationId: number;
  keyHash: string;
  requestId: string;
}

/** An answer as it is stored and replayed: its status and the exact text of its JSON body. */
export interface StoredAnswer {
  status: number;
  body: string;
}

export type ClaimResult =
  /** This lookup owns the key now: it runs, and its settlement stores or releases the row. */
  | { kind: 'claimed' }
  /** An earlier request with the same key and body finished: its answer again. */
  | { kind: 'replay'; answer: StoredAnswer; originalRequestId: string }
  /** The key was used with another request in the last 24 hours. */
  | { kind: 'mismatch' }
  /** An earlier request with the same key and body is still running: wait and ask again. */
  | { kind: 'running' };

// Each attempt after the first follows a row that was committed between two statements: more
// than a few in a row would mean something else is wrong.
const MAX_CLAIM_ATTEMPTS = 5;

const WINDOW = sql.raw(`interval '${IDEMPOTENCY_WINDOW_HOURS} hours'`);

/**
 * Takes the key for this lookup, or reports who has it, in one statement: a new key (or one whose
 * 24 hours passed, not purged yet) is inserted as running and owned by this lookup; an existing
 * one is read as it stood. A `running` row is taken over only when its owner can no longer settle
 * (docs/decisions.md): claimed longer than `staleAfterSeconds` ago (HOLD_SWEEP_AFTER_SECONDS, past
 * the source's ceiling) and with no open hold left, so it was never charged; a second statement
 * takes it from exactly that owner, so two instances cannot both take it.
 */
export async function claimIdempotencyKey(target: IdempotencyTarget, request: string, staleAfterSeconds: number): Promise<ClaimResult> {
  const handle = await database();
  for (let attempt = 1; ; attempt++) {
    const requestSealed = seal(request, 'idempotent_request');
    const [row] = await handle.rows<{
      claimed_by: string | null;
      owner_request_id: string | null;
      state: 'running' | 'done' | null;
      request_sealed: string | null;
      answer_status: number | null;
      answer_sealed: string | null;
      abandoned: boolean | null;
    }>(sql`
      with claimed as (
        insert into idempotency_keys as k (integration_id, key_hash, request_sealed, owner_request_id, state)
        values (${target.integrationId}::integer, ${target.keyHash}::text, ${requestSealed}::text, ${target.requestId}::text, 'running')
        on conflict (integration_id, key_hash) do update
           set request_sealed = excluded.request_sealed, owner_request_id = excluded.owner_request_id, state = 'running',
               answer_status = null, answer_sealed = null, created_at = now(), claimed_at = now()
         where k.created_at < now() - ${WINDOW}
        returning k.owner_request_id
      )
      select (select owner_request_id from claimed) as claimed_by, k.owner_request_id, k.state, k.request_sealed, k.answer_status, k.answer_sealed,
             (k.state = 'running'
              and k.claimed_at < now() - make_interval(secs => ${staleAfterSeconds}::integer)
              and not exists (select 1 from ledger_open_holds o join ledger_entries h on h.id = o.hold_id
                               where h.request_id = k.owner_request_id)) as abandoned
        from (select 1) as one
        left join idempotency_keys k on k.integration_id = ${target.integrationId}::integer and k.key_hash = ${target.keyHash}::text`);
    if (row?.claimed_by === target.requestId) return { kind: 'claimed' };
    // Neither inserted nor seen: another request inserted it after this statement's snapshot was
    // taken (the insert waited for it, the read cannot see it). Asking again sees it.
    if (!row?.state || row.request_sealed === null || row.owner_request_id === null) {
      if (attempt < MAX_CLAIM_ATTEMPTS) continue;
      throw new Error('an idempotency key was neither claimed nor found');
    }
    if (open(row.request_sealed, 'idempotent_request') !== request) return { kind: 'mismatch' };
    if (row.state === 'done') {
      return { kind: 'replay', answer: { status: Number(row.answer_status), body: open(row.answer_sealed!, 'idempotent_answer') }, originalRequestId: row.owner_request_id };
    }
    if (row.abandoned && (await takeOver(target, row.owner_request_id, requestSealed))) return { kind: 'claimed' };
    return { kind: 'running' };
  }
}

async function takeOver(target: IdempotencyTarget, abandonedBy: string, requestSealed: string): Promise<boolean> {
  const rows = await (await database()).rows(sql`
    update idempotency_keys
       set owner_request_id = ${target.requestId}::text, request_sealed = ${requestSealed}::text, claimed_at = now()
     where integration_id = ${target.integrationId}::integer and key_hash = ${target.keyHash}::text
       and owner_request_id = ${abandonedBy}::text and state = 'running'
    returning 1 as taken`);
  return rows.length === 1;
}

/**
 * A CTE for the lookup's settlement statement (lib/core/billing/holds.ts), so the answer is stored, or
 * the key released, in the same commit as the charge: a key is never left running for a lookup that
 * was charged, and a charged lookup's answer is never lost. Only while this lookup still owns it.
 */
export function settleIdempotencyKey(target: IdempotencyTarget, answer: StoredAnswer | null): SQL {
  const owned = sql`integration_id = ${target.integrationId}::integer and key_hash = ${target.keyHash}::text and owner_request_id = ${target.requestId}::text`;
  if (answer === null) return sql`idempotent_answer as (delete from idempotency_keys where ${owned})`;
  return sql`idempotent_answer as (
    update idempotency_keys set state = 'done', answer_status = ${answer.status}::smallint, answer_sealed = ${seal(answer.body, 'idempotent_answer')}::text
     where ${owned} and state = 'running')`;
}

/** Gives the key up when the lookup ended without a settlement (refused, shed, never sent): a repeat runs again. */
export async function releaseIdempotencyKey(target: IdempotencyTarget): Promise<void> {
  await (await database()).rows(sql`
    delete from idempotency_keys
     where integration_id = ${target.integrationId}::integer and key_hash = ${target.keyHash}::text and owner_request_id = ${target.requestId}::text`);
}

/** Deletes the keys whose 24 hours passed, oldest first, a batch per statement; returns how many. */
export async function purgeExpiredIdempotencyKeys(batchRows = 5_000): Promise<number> {
  const handle = await database();
  let deleted = 0;
  for (;;) {
    const rows = await handle.rows<{ one: number }>(sql`
      delete from idempotency_keys
       where (integration_id, key_hash) in (select integration_id, key_hash from idempotency_keys
                                             where created_at < now() - ${WINDOW}
                                             order by created_at
                                             limit ${batchRows}::integer)
      returning 1 as one`);
    deleted += rows.length;
    if (rows.length < batchRows) return deleted;
  }
}
