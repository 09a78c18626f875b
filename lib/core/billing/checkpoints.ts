import { sql, type SQL } from 'drizzle-orm';
import { database, type DatabaseHandle } from '@/db/client';
import { UNPOSTED_KINDS } from '@/db/schema';
import { hourStart } from '@/lib/platform/time/hours';

const WATERMARK = 'ledger_hourly_balances';
// An entry's created_at is its transaction's start; a top-up's transaction or a settlement
// statement commits well within this. An hour is checkpointed only once it ended this long ago,
// so no entry of it can still appear.
export const CHECKPOINT_SETTLE_MARGIN_MS = 10 * 60_000;

/**
 * `<entry>.kind not in ('hold', 'void')`: the posted kinds (POSTED_KINDS), said as
 * ledger_entries_posted_idx's predicate says them, so the planner matches it word for word.
 */
export function isPosted(entry: string): SQL {
  return sql.raw(`${entry}.kind not in (${UNPOSTED_KINDS.map((kind) => `'${kind}'`).join(', ')})`);
}

/**
 * Adds the ledger's hourly checkpoints for every hour since the last run that ended at least
 * CHECKPOINT_SETTLE_MARGIN_MS ago: per integration and hour that moved money, the posted money of
 * the hour and the posted balance when it ended (the previous checkpoint's balance plus the
 * hours in between). The watermark moves in the same transaction, so each hour is added once.
 * Returns how many checkpoints it added.
 */
export async function advanceBalanceCheckpoints(now = new Date()): Promise<number> {
  const target = hourStart(new Date(now.getTime() - CHECKPOINT_SETTLE_MARGIN_MS));
  const handle = await database();
  return handle.db.transaction(async (tx) => {
    const rows = async <T extends Record<string, unknown>>(query: ReturnType<typeof sql>) => {
      const result = (await tx.execute(query)) as unknown;
      return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
    };
    const [mark] = await rows<{ through: string | null }>(sql`
      select to_char(through at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as through
        from job_watermarks where name = ${WATERMARK}::text for update`);
    let from: Date;
    if (mark?.through) {
      from = new Date(mark.through);
    } else {
      const [first] = await rows<{ first: number | string | null }>(sql`
        select extract(epoch from min(e.created_at)) * 1000 as first from ledger_entries e where ${isPosted('e')}`);
      from = first?.first == null ? target : hourStart(new Date(Number(first.first)));
    }
    if (target <= from) return 0;
    const added = await rows<{ integration_id: number }>(sql`
      with hours as (
        select e.integration_id,
               date_bin('1 hour', e.created_at, timestamptz '2000-01-01 00:00:00+00') as hour,
               sum(e.posted_centavos) as posted
          from ledger_entries e
         where e.integration_id in (select i.id from integrations i)
           and ${isPosted('e')}
           and e.created_at >= ${from.toISOString()}::timestamptz
           and e.created_at < ${target.toISOString()}::timestamptz
         group by 1, 2
      ),
      previous as (
        select i.id as integration_id,
               (select c.closing_centavos from ledger_hourly_balances c
                 where c.integration_id = i.id and c.hour < ${from.toISOString()}::timestamptz
                 order by c.hour desc limit 1) as closing
          from integrations i
      )
      insert into ledger_hourly_balances (integration_id, hour, posted_centavos, closing_centavos)
      select h.integration_id, h.hour, h.posted,
             coalesce(p.closing, 0) + sum(h.posted) over (partition by h.integration_id order by h.hour)
        from hours h join previous p on p.integration_id = h.integration_id
      returning integration_id`);
    await tx.execute(sql`
      insert into job_watermarks (name, through) values (${WATERMARK}::text, ${target.toISOString()}::timestamptz)
      on conflict (name) do update set through = excluded.through`);
    return added.length;
  });
}

/**
 * The posted balance of an integration just before `instant`: the last checkpoint of an hour that
 * ended by then, plus the posted entries after it and before the instant (at most the unchecked
 * hours, an index-only range of ledger_entries_posted_idx).
 */
export async function postedBalanceBefore(integrationId: number, instant: Date, handle?: DatabaseHandle): Promise<number> {
  const [row] = await (handle ?? (await database())).rows<{ balance: string | number }>(sql`
    with base as (
      select c.hour, c.closing_centavos from ledger_hourly_balances c
       where c.integration_id = ${integrationId}::integer
         and c.hour <= ${instant.toISOString()}::timestamptz - interval '1 hour'
       order by c.hour desc limit 1
    )
    select coalesce((select closing_centavos from base), 0) + coalesce((
      select sum(e.posted_centavos) from ledger_entries e
       where e.integration_id = ${integrationId}::integer and ${isPosted('e')}
         and e.created_at >= coalesce((select hour from base) + interval '1 hour', '-infinity'::timestamptz)
         and e.created_at < ${instant.toISOString()}::timestamptz), 0) as balance`);
  return Number(row?.balance ?? 0);
}
