import { sql } from 'drizzle-orm';
import { database } from '@/db/client';
import { storableRecord } from '@/lib/records/storable';
import type { QueryRecordInput } from '@/lib/records/types';

const LOOKUP_ACTOR = 'system:lookup';
const SWEEPER_ACTOR = 'system:sweeper';

export type Hold = { holdId: number; tariffCentavos: number };

/**
 * Reserves the integration's current tariff in one statement: the balance drops by the tariff
 * and a hold entry is appended, or nothing happens when the balance cannot cover it. The
 * conditional UPDATE takes the row lock, so concurrent holds can never overdraw the balance.
 * A zero balance refuses even a zero tariff: the contract says that at zero balance the
 * catalogs answer 402.
 */
export async function placeHold(integrationId: number, requestId: string): Promise<Hold | null> {
  const handle = await database();
  const [row] = await handle.rows<{ hold_id: string | number; tariff: string | number }>(sql`
    with held as (
      update integrations
         set balance_centavos = balance_centavos - tariff_centavos
       where id = ${integrationId} and balance_centavos >= tariff_centavos and balance_centavos > 0
      returning id, tariff_centavos
    )
    insert into ledger_entries (integration_id, kind, amount_centavos, actor, request_id)
    select id, 'hold'::ledger_entry_kind, -tariff_centavos, ${LOOKUP_ACTOR}, ${requestId} from held
    returning id as hold_id, -amount_centavos as tariff`);
  return row ? { holdId: Number(row.hold_id), tariffCentavos: Number(row.tariff) } : null;
}

/**
 * Settles a hold and writes the query record in one statement, so the record and the ledger
 * can never disagree: capture keeps the money (the record shows it charged), void returns it.
 * If the crash sweeper voided this hold first (only possible after HOLD_SWEEP_AFTER_SECONDS,
 * well past the source's ceiling), nothing moves and the record is marked as not charged.
 */
export async function settleHold(hold: Hold, capture: boolean, input: QueryRecordInput): Promise<void> {
  const handle = await database();
  const record = storableRecord(input);
  const charged = capture ? hold.tariffCentavos : 0;
  const [result] = await handle.rows<{ settled: boolean; record_id: string | number }>(sql`
    with record as (
      insert into query_records
        (integration_id, lookup, http_status, response_time_ms, nit, cui, charged_centavos, tariff_centavos, error_message, request_id)
      values
        (${record.integrationId}, ${record.lookup}::lookup_kind, ${record.httpStatus}, ${record.responseTimeMs}, ${record.nit},
         ${record.cui}, ${charged}, ${hold.tariffCentavos}, ${record.errorMessage}, ${record.requestId})
      returning id
    ),
    settlement as (
      insert into ledger_entries (integration_id, kind, amount_centavos, actor, hold_id, request_id, query_record_id)
      select ${record.integrationId}, ${capture ? 'capture' : 'void'}::ledger_entry_kind, ${capture ? 0 : hold.tariffCentavos},
             ${LOOKUP_ACTOR}, ${hold.holdId}, ${record.requestId}, record.id
        from record
      on conflict (hold_id) where hold_id is not null do nothing
      returning amount_centavos
    ),
    refund as (
      update integrations set balance_centavos = balance_centavos + (select amount_centavos from settlement)
       where id = ${record.integrationId} and exists (select 1 from settlement where amount_centavos <> 0)
    )
    select exists (select 1 from settlement) as settled, (select id from record) as record_id`);
  if (result && !result.settled && charged > 0) {
    await handle.rows(sql`
      update query_records set charged_centavos = 0,
             error_message = coalesce(error_message || ' ', '') || '(hold voided by the sweeper before settlement)'
       where id = ${result.record_id}`);
  }
}

/**
 * Voids holds that no lookup settled (the process died between hold and settlement). Runs after
 * the source's 30-second ceiling plus a margin, so it never races a live lookup. Each void is one
 * statement, guarded by the settled-once index.
 */
export async function sweepStaleHolds(olderThanSeconds: number): Promise<number> {
  const handle = await database();
  const rows = await handle.rows<{ id: string | number }>(sql`
    with stale as (
      select h.id, h.integration_id, -h.amount_centavos as amount, h.request_id
        from ledger_entries h
       where h.kind = 'hold'
         and h.created_at < now() - make_interval(secs => ${olderThanSeconds})
         and not exists (select 1 from ledger_entries s where s.hold_id = h.id)
       order by h.created_at
       limit 500
    ),
    voided as (
      insert into ledger_entries (integration_id, kind, amount_centavos, actor, hold_id, request_id, note)
      select integration_id, 'void'::ledger_entry_kind, amount, ${SWEEPER_ACTOR}, id, request_id,
             'Retención sin liquidar: el proceso terminó antes de registrar la consulta.'
        from stale
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
