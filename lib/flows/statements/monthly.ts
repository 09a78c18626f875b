import { eq, lt } from 'drizzle-orm';
import { db } from '@/db/client';
import { integrations, monthlyStatements } from '@/db/schema';
import { guatemalanToday } from '@/lib/platform/time/guatemala-time';
import { logger } from '@/lib/platform/logging/logger';
import { monthPeriod } from './figures';
import { issueStatement } from './statements';

const log = logger('statements');

/** The Guatemalan month before the one `now` falls in, YYYY-MM. */
export function previousMonth(now = new Date()): string {
  const [year, month] = guatemalanToday(now).split('-').map(Number) as [number, number];
  return month === 1 ? `${year - 1}-12` : `${year}-${String(month - 1).padStart(2, '0')}`;
}

/**
 * Issues last month's statement for every integration that has none yet (the daily job): once a
 * month ends its statements are stored while its records are still kept. An integration whose
 * figures do not reconcile is left out and logged; the reconciliation says why.
 */
export async function issueLastMonthStatements(now = new Date()): Promise<{ month: string; issued: number; failed: number }> {
  const month = previousMonth(now);
  const database = await db();
  const [all, issuedAlready] = await Promise.all([
    database.select({ id: integrations.id }).from(integrations).where(lt(integrations.createdAt, monthPeriod(month).until)),
    database.select({ id: monthlyStatements.integrationId }).from(monthlyStatements).where(eq(monthlyStatements.month, month)),
  ]);
  const done = new Set(issuedAlready.map((row) => row.id));
  const pending = all.filter((row) => !done.has(row.id));
  let issued = 0;
  let failed = 0;
  for (const { id } of pending) {
    const result = await issueStatement({ kind: 'system', name: 'statements' }, id, month, now);
    if (result.ok) issued += 1;
    else if (result.error.code !== 'month_not_closed') {
      failed += 1;
      log.warn({ integrationId: id, month, problem: result.error.code }, `statement not issued: ${result.error.message}`);
    }
  }
  return { month, issued, failed };
}
