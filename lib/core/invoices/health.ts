// The FEL certifier as a component beside the sources (Fuentes, the Panel, Facturas): whether it
// answers, since when it does not, and what waits for it. Read from what every instance's worker
// records of its calls (invoice_attempts), so every instance tells the same.
import { desc, inArray, sql } from 'drizzle-orm';
import { db } from '@/db/client';
import { invoiceAttempts, invoices } from '@/db/schema';
import { callHealth, type CallHealth, type CallHealthState } from '@/lib/platform/operations/call-health';

/** The certifier's states: those of any outside party's calls (lib/platform/operations/call-health.ts). */
export type CertifierState = CallHealthState;

export interface CertifierHealth extends CallHealth {
  /** Invoices waiting for it (pending or to be confirmed), and the oldest one's creation. */
  waiting: number;
  oldestWaitingAt: Date | null;
}

/** Outcomes that are no answer: sent again later, or settled by a lookup. */
const NOT_ANSWERED = new Set(['retry_later', 'indeterminate', 'unavailable']);
const RECENT_CALLS = 20;

export async function certifierHealth(): Promise<CertifierHealth> {
  const handle = await db();
  const calls = await handle.select({ outcome: invoiceAttempts.outcome, at: invoiceAttempts.createdAt }).from(invoiceAttempts).orderBy(desc(invoiceAttempts.id)).limit(RECENT_CALLS);
  const [queue] = await handle
    .select({ waiting: sql<number>`count(*)::integer`, oldest: sql<Date | string | null>`min(${invoices.createdAt})` })
    .from(invoices)
    .where(inArray(invoices.state, ['pending', 'indeterminate']));
  const waiting = Number(queue?.waiting ?? 0);
  const oldestWaitingAt = queue?.oldest ? new Date(queue.oldest) : null;
  return { ...callHealth(calls, NOT_ANSWERED), waiting, oldestWaitingAt };
}
