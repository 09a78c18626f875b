import { sql, type SQL } from 'drizzle-orm';
import { database } from '@/db/client';
import { sealRecord, type LookupSeals, type SealedQueryRecord } from '@/lib/core/records/sealed';
import { personalDataKeys } from '@/lib/core/sealing/keys';
import { notRecordedYet, recordCompanions, recordFacts, recordShape, recordValues, type RecordShape } from '@/lib/core/records/write';
import { compiledWithCompanion, compileStatement, type StatementCompanion } from '@/db/compiled-statement';
import type { QueryRecordInput } from '@/lib/core/records/types';

const LOOKUP_ACTOR = 'system:lookup';
const SWEEPER_ACTOR = 'system:sweeper';
/** Appended to a record whose hold the crash sweeper voided first (charged nothing though the source answered). */
export const VOIDED_BY_SWEEPER_NOTE = '(hold voided by the sweeper before settlement)';
/** The detail of a record the sweeper wrote for a lookup that never settled (lib/core/records/failure.ts, outcome_unknown). */
export const OUTCOME_UNKNOWN_DETAIL = 'outcome unknown: the instance ended before the lookup settled; not charged';

export type Hold = { holdId: number; tariffCentavos: number };

/** What a lookup knows before it asks its source: who, which lookup, the identifiers, the request's options. */
export type KnownBeforeTheSource = Pick<QueryRecordInput, 'integrationId' | 'lookup' | 'nit' | 'cui' | 'identifiers' | 'actualizado' | 'dateOfBirthSent' | 'requestId'>;

/**
 * The record of a lookup that never ended ("resultado desconocido", not charged): written by the
 * sweeper from a hold, or at a restart from a registry's intent.
 */
export function outcomeUnknownRecord(known: KnownBeforeTheSource): QueryRecordInput {
  return {
    ...known,
    // What the integrator's connection got is unknown too: the status of this service's own failure.
    httpStatus: 500,
    responseTimeMs: 0,
    errorMessage: OUTCOME_UNKNOWN_DETAIL,
    failure: { kind: 'outcome_unknown' },
    answerEmpty: null,
  };
}

/** The integration's money right after a charge, for the low-balance alerts (no extra round trip). */
export type BalanceAfterCharge = { balanceCentavos: number; tariffCentavos: number; lowBalanceAlertCentavos: number | null };

const placeHoldStatement = compileStatement(sql`
    with held as (
      update integrations
         set balance_centavos = balance_centavos - tariff_centavos
       where id = ${sql.placeholder('integrationId')}::integer and balance_centavos >= tariff_centavos and balance_centavos > 0
      returning id, tariff_centavos
    ),
    hold as (
      insert into ledger_entries (integration_id, kind, amount_centavos, posted_centavos, actor, request_id)
      select held.id, 'hold'::ledger_entry_kind, -held.tariff_centavos, 0, ${LOOKUP_ACTOR}::text, ${sql.placeholder('requestId')}::text from held
      returning id, amount_centavos
    ),
    opened as (
      insert into ledger_open_holds (hold_id, record_intent) select hold.id, ${sql.placeholder('pending')}::jsonb from hold
    )
    select hold.id as hold_id, -hold.amount_centavos as tariff from hold`);

/**
 * Reserves the integration's current tariff in one statement: the balance drops by the tariff
 * and a hold entry is appended (and listed as open for the crash sweeper), or nothing happens
 * when the balance cannot cover it. The conditional UPDATE takes the row lock, so concurrent
 * holds can never overdraw the balance. A zero balance refuses even a zero tariff: the contract
 * says that at zero balance the catalogs answer 402. With `intent` the hold also keeps, in the same
 * statement, the record to write should the lookup never settle (its instance killed while the
 * source was asked): the sweeper writes it, so every query that may have reached a source is
 * recorded.
 */
export async function placeHold(integrationId: number, requestId: string, intent?: QueryRecordInput, seals?: LookupSeals): Promise<Hold | null> {
  const handle = await database();
  // What the sweeper records if this lookup never settles: sealed here, in the app, as any record.
  const pending = intent ? JSON.stringify(sealRecord(intent, personalDataKeys(), seals)) : null;
  const [row] = await handle.compiled<{ hold_id: string | number; tariff: string | number }>(placeHoldStatement, { integrationId, requestId, pending });
  return row ? { holdId: Number(row.hold_id), tariffCentavos: Number(row.tariff) } : null;
}

/** The settlement statement of settleHold, its values named as settleHold names them (recordValues', its own and its companions'). */
function settlementSql(shape: RecordShape, companions: SQL[], receipt?: StatementCompanion): SQL {
  const [integrationId, holdId, requestId, errorMessage, charged] = ['integrationId', 'holdId', 'requestId', 'errorMessage', 'charged'].map((name) => sql.placeholder(name));
  // What the settlement gives back to the balance (a voided hold's tariff), which a receipt's tariff may then take.
  const credit = sql`coalesce((select amount_centavos from settlement), 0)`;
  // The receipt's rows first: a bulk item's row names the receipt the statement wrote (lib/flows/bulk/items.ts).
  const parts = receipt ? [receipt.cte, ...companions] : companions;
  return sql`
    with new_record as (
      select nextval(pg_get_serial_sequence('query_records', 'id')) as id, now() as created_at
    ),
    settlement as (
      insert into ledger_entries (integration_id, kind, amount_centavos, posted_centavos, actor, hold_id, request_id, query_record_id)
      select ${integrationId}::integer, ${sql.placeholder('settlementKind')}::ledger_entry_kind, ${sql.placeholder('settlementAmount')}::bigint,
             ${sql.placeholder('settlementPosted')}::bigint, ${LOOKUP_ACTOR}::text, ${holdId}::bigint, ${requestId}::text, new_record.id
        from new_record
      on conflict (hold_id) where hold_id is not null do nothing
      returning amount_centavos
    ),
    closed as (
      delete from ledger_open_holds where hold_id = ${holdId}::bigint
    ),${receipt ? sql`
    ${receipt.fee(credit)},` : sql``}
    refund as (
      update integrations set balance_centavos = balance_centavos + ${credit}${receipt ? sql` - ${receipt.debit}` : sql``}
       where id = ${integrationId}::integer and (exists (select 1 from settlement where amount_centavos <> 0)${receipt ? sql` or ${receipt.debit} <> 0` : sql``})
    ),
    record as (
      insert into query_records
        (id, integration_id, lookup, http_status, response_time_ms, nit, cui, charged_centavos, tariff_centavos, error_message,
         failure, answer_empty, actualizado, date_of_birth_sent, request_id, created_at)
      overriding system value
      select new_record.id, ${integrationId}::integer, ${sql.placeholder('lookup')}::lookup_kind, ${sql.placeholder('httpStatus')}::smallint,
             ${sql.placeholder('responseTimeMs')}::integer, ${sql.placeholder('nit')}::text, ${sql.placeholder('cui')}::text,
             case when exists (select 1 from settlement) then ${charged}::bigint else 0 end,
             ${sql.placeholder('tariff')}::bigint,
             case when exists (select 1 from settlement) or ${charged}::bigint = 0 then ${errorMessage}::text
                  else coalesce(${errorMessage}::text || ' ', '') || ${VOIDED_BY_SWEEPER_NOTE}::text end,
             ${recordFacts()}, ${requestId}::text, new_record.created_at
        from new_record
      -- Written only if no settlement or sweep of this hold recorded it: each writes its record with
      -- its ledger entry and points at it, so a settlement written again from the journal, or one
      -- that came after the sweeper, finds it by the hold's own index, even a month later.
       where not exists (select 1 from ledger_entries done where done.hold_id = ${holdId}::bigint and done.query_record_id is not null)
      on conflict do nothing
      returning id, created_at, charged_centavos
    ),
    ${recordCompanions(shape)}${parts.length > 0 ? sql`,
    ${sql.join(parts, sql`,
    `)}` : sql``}
    select exists (select 1 from settlement) as settled, i.balance_centavos as balance, i.tariff_centavos as tariff,
           i.low_balance_alert_centavos as low_balance_alert, ${receipt ? receipt.written : sql`false`} as companion_written
      from integrations i where i.id = ${integrationId}::integer`;
}

/** Compiled once per record shape, and per shape with a receipt. */
const settlementStatement = compiledWithCompanion((shape: RecordShape, receipt?: StatementCompanion) => settlementSql(shape, [], receipt));

/**
 * Settles a hold and writes the query record in one statement, so the record and the ledger can
 * never disagree: capture keeps the money (the record shows it charged), void returns it. The
 * record's id is drawn first so the settlement can point at it. If the crash sweeper voided this
 * hold first (only possible after HOLD_SWEEP_AFTER_SECONDS, well past the source's ceiling), the
 * settlement inserts nothing, no money moves and the record says it was not charged.
 * A capture returns the balance it left (the statement reads the row it already touches), so the
 * alerts need no round trip of their own; a void or a settlement that found the hold gone, null.
 */
export async function settleHold(
  hold: Hold,
  capture: boolean,
  input: QueryRecordInput | SealedQueryRecord,
  /** One more CTE committed with the settlement (lib/core/idempotency's stored answer); none for most lookups. */
  companion?: SQL,
  /** The lookup's own (the hold sealed the same NIT and CUI): each is sealed and hashed once. */
  seals?: LookupSeals,
  /** A receipt of the answer (lib/core/constancias), committed with the charge and the record, and told whether it was written. */
  receipt?: StatementCompanion,
): Promise<BalanceAfterCharge | null> {
  const handle = await database();
  // Its NIT and CUI encrypted, its search keys hashed, here in the app: the keys never reach SQL.
  const record = sealRecord(input, personalDataKeys(), seals);
  // A free query (tariff Q 0.00) is voided, not captured: it charged nothing, so it is not a
  // charge in the ledger, the balance history, the statements or the reconciliation (docs/decisions.md).
  const capturing = capture && hold.tariffCentavos > 0;
  const charged = capturing ? hold.tariffCentavos : 0;
  const values = {
    ...recordValues(record),
    settlementKind: capturing ? 'capture' : 'void',
    settlementAmount: capturing ? 0 : hold.tariffCentavos,
    settlementPosted: -charged,
    holdId: hold.holdId,
    charged,
    tariff: hold.tariffCentavos,
    ...receipt?.values,
  };
  const shape = recordShape(record);
  // With a companion (an idempotency key's answer, a bulk item's), compiled for this call alone.
  const statement = companion
    ? compileStatement(settlementSql(shape, [companion], receipt))
    : settlementStatement(shape, receipt);
  const rows = await handle.compiled<{ settled: boolean; balance: string | number; tariff: string | number; low_balance_alert: string | number | null; companion_written: boolean }>(
    statement,
    values,
  );
  const row = rows[0];
  receipt?.committed?.(row?.companion_written === true);
  if (!capturing || !row?.settled) return null;
  return {
    balanceCentavos: Number(row.balance),
    tariffCentavos: Number(row.tariff),
    lowBalanceAlertCentavos: row.low_balance_alert === null ? null : Number(row.low_balance_alert),
  };
}

/**
 * Gives a hold back without a query record: the source call failed fast (breaker open, bulkhead
 * full) and never reached the source, so the contract records nothing. Guarded by the settled-once
 * index like every settlement.
 */
export async function voidHoldUnrecorded(integrationId: number, hold: Hold, requestId: string): Promise<void> {
  const handle = await database();
  await handle.rows(sql`
    with settlement as (
      insert into ledger_entries (integration_id, kind, amount_centavos, posted_centavos, actor, hold_id, request_id, note_code)
      values (${integrationId}::integer, 'void'::ledger_entry_kind, ${hold.tariffCentavos}::bigint, 0, ${LOOKUP_ACTOR}::text,
              ${hold.holdId}::bigint, ${requestId}::text, 'source_not_sent'::ledger_note_code)
      on conflict (hold_id) where hold_id is not null do nothing
      returning amount_centavos
    ),
    closed as (
      delete from ledger_open_holds where hold_id = ${hold.holdId}::bigint
    )
    update integrations set balance_centavos = balance_centavos + (select amount_centavos from settlement)
     where id = ${integrationId}::integer and exists (select 1 from settlement where amount_centavos <> 0)`);
}

/**
 * Gives back, without a query record, the hold a lookup may have placed when the database dropped
 * the connection before confirming it: the statement may have committed, yet the lookup stopped
 * there and never asked the source, so the contract records nothing (the
 * journal writes this once the database is back). Found by the lookup's request id among the open
 * holds; nothing happens when there is none (the statement did not commit, or it was settled).
 */
export async function voidAbandonedHold(integrationId: number, requestId: string): Promise<void> {
  const handle = await database();
  await handle.rows(sql`
    with abandoned as (
      delete from ledger_open_holds pending
       using ledger_entries held
       where held.id = pending.hold_id and held.request_id = ${requestId}::text and held.integration_id = ${integrationId}::integer
      returning held.id as hold_id, -held.amount_centavos as amount_centavos
    ),
    settlement as (
      insert into ledger_entries (integration_id, kind, amount_centavos, posted_centavos, actor, hold_id, request_id, note_code)
      select ${integrationId}::integer, 'void'::ledger_entry_kind, abandoned.amount_centavos, 0, ${LOOKUP_ACTOR}::text,
             abandoned.hold_id, ${requestId}::text, 'hold_abandoned'::ledger_note_code
        from abandoned
      on conflict (hold_id) where hold_id is not null do nothing
      returning amount_centavos
    )
    update integrations set balance_centavos = balance_centavos + (select sum(amount_centavos) from settlement)
     where id = ${integrationId}::integer and exists (select 1 from settlement where amount_centavos <> 0)`);
}

/**
 * Voids holds that no lookup settled (the process died between hold and settlement). Runs after
 * the source's 30-second ceiling plus a margin, so it never races a live lookup; it reads only
 * the open holds. Each void is guarded by the settled-once index, so a settlement that arrives
 * at the same moment wins or loses cleanly. A hold that kept its record's intent gets that record
 * in the same statement ("resultado desconocido", status 500, not charged), with its search keys
 * and its place in the rollups, and its void points at it; once per request id.
 */
export async function sweepStaleHolds(olderThanSeconds: number): Promise<number> {
  const handle = await database();
  const rows = await handle.rows<{ id: string | number }>(sql`
    with stale as (
      delete from ledger_open_holds pending
       using ledger_entries h
       where h.id = pending.hold_id
         and pending.hold_id in (
           select o.hold_id from ledger_open_holds o join ledger_entries held on held.id = o.hold_id
            where held.created_at < now() - make_interval(secs => ${olderThanSeconds}::integer)
            order by held.created_at
            limit 500
            for update of o skip locked)
      returning h.id as hold_id, h.integration_id, -h.amount_centavos as amount_centavos, h.request_id, pending.record_intent
    ),
    recorded as (
      insert into query_records
        (integration_id, lookup, http_status, response_time_ms, nit, cui, charged_centavos, tariff_centavos, error_message,
         failure, answer_empty, actualizado, date_of_birth_sent, request_id)
      select stale.integration_id, (i->>'lookup')::lookup_kind, (i->>'httpStatus')::smallint, (i->>'responseTimeMs')::integer,
             i->>'nit', i->>'cui', 0, stale.amount_centavos, i->>'errorMessage', i->'failure', null,
             (i->>'actualizado')::boolean, (i->>'dateOfBirthSent')::boolean, stale.request_id
        from stale, lateral (select stale.record_intent as i) intent
       where stale.record_intent is not null and ${notRecordedYet(sql`stale.request_id`)}
      on conflict do nothing
      returning id, created_at, request_id, integration_id, lookup, http_status, response_time_ms
    ),
    recorded_identifiers as (
      insert into query_record_identifiers (record_id, identifier, created_at)
      select recorded.id, sent.identifier, recorded.created_at
        from recorded join stale on stale.request_id = recorded.request_id,
             jsonb_array_elements_text(stale.record_intent->'searchKeys') as sent(identifier)
    ),
    recorded_queued as (
      insert into query_rollup_queue (integration_id, lookup, http_status, response_time_ms, charged_centavos, created_at)
      select integration_id, lookup, http_status, response_time_ms, 0, created_at from recorded
    ),
    voided as (
      insert into ledger_entries (integration_id, kind, amount_centavos, posted_centavos, actor, hold_id, request_id, note_code, query_record_id)
      select stale.integration_id, 'void'::ledger_entry_kind, stale.amount_centavos, 0, ${SWEEPER_ACTOR}::text, stale.hold_id, stale.request_id,
             'hold_swept'::ledger_note_code, recorded.id
        from stale left join recorded on recorded.request_id = stale.request_id
      on conflict (hold_id) where hold_id is not null do nothing
      returning integration_id, amount_centavos
    ),
    refunds as (
      select integration_id, sum(amount_centavos) as amount from voided group by integration_id
    ),
    refunded as (
      update integrations i set balance_centavos = i.balance_centavos + r.amount
        from refunds r where i.id = r.integration_id
    )
    select integration_id as id from voided`);
  return rows.length;
}
