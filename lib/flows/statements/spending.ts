import { sql } from 'drizzle-orm';
import { database } from '@/db/client';
import { guatemalanMonthOf } from '@/lib/platform/time/guatemala-time';
import { monthPeriod } from '@/lib/flows/statements/figures';
import { previousMonth } from '@/lib/flows/statements/monthly';
import { postedBalanceBefore } from '@/lib/core/billing/checkpoints';

/** What an integration's charged lookups took from its balance in one Guatemalan month. */
export interface MonthSpending {
  /** YYYY-MM. */
  month: string;
  /** Money captured by charged lookups (a positive amount), up to `until`. */
  spentCentavos: number;
  /** The month's end, or now for the running month. */
  until: Date;
}

/**
 * What the running Guatemalan month and the one before it cost an integration, from the ledger:
 * posted money only moves by top-ups, adjustments and captures, so a span's captures are its
 * opening posted balance plus its top-ups and adjustments minus its closing posted balance. The
 * balances come from the hourly checkpoints (at most an hour of entries added to each) and the
 * top-ups and adjustments are a few rows: the cost does not grow with the month's lookups, where
 * summing the captures themselves would read every charged lookup of the month. Holds still in
 * flight are not spent yet (their lookups have not answered), as in the statements.
 */
export async function recentMonthsSpending(integrationId: number, now = new Date()): Promise<{ current: MonthSpending; previous: MonthSpending }> {
  const currentMonth = guatemalanMonthOf(now);
  const lastMonth = previousMonth(now);
  const previousStart = monthPeriod(lastMonth).from;
  const currentStart = monthPeriod(currentMonth).from;
  const handle = await database();
  const [atPreviousStart, atCurrentStart, atNow, movements] = await Promise.all([
    postedBalanceBefore(integrationId, previousStart, handle),
    postedBalanceBefore(integrationId, currentStart, handle),
    postedBalanceBefore(integrationId, now, handle),
    handle.rows<{ current: string | number | null; previous: string | number | null }>(sql`
      select sum(e.posted_centavos) filter (where e.created_at >= ${currentStart.toISOString()}::timestamptz) as current,
             sum(e.posted_centavos) filter (where e.created_at < ${currentStart.toISOString()}::timestamptz) as previous
        from ledger_entries e
       where e.integration_id = ${integrationId}::integer and e.kind in ('top_up', 'adjustment')
         and e.created_at >= ${previousStart.toISOString()}::timestamptz and e.created_at < ${now.toISOString()}::timestamptz`),
  ]);
  const moved = { current: Number(movements[0]?.current ?? 0), previous: Number(movements[0]?.previous ?? 0) };
  return {
    current: { month: currentMonth, spentCentavos: atCurrentStart + moved.current - atNow, until: now },
    previous: { month: lastMonth, spentCentavos: atPreviousStart + moved.previous - atCurrentStart, until: currentStart },
  };
}
