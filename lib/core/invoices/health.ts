// The FEL certifier as a component beside the sources (Fuentes, the Panel, Facturas): whether it
// answers, since when it does not, and what waits for it. Read from what every instance's worker
// records of its calls (invoice_attempts), so every instance tells the same.
import { desc, inArray, sql } from 'drizzle-orm';
import { db } from '@/db/client';
import { invoiceAttempts, invoices } from '@/db/schema';

/**
 * up: its last call was answered; degraded: its last one or two calls were not; down: three or
 * more in a row were not; credentials_refused: it refuses the service's credentials (every invoice
 * waits); idle: no call yet.
 */
export type CertifierState = 'up' | 'degraded' | 'down' | 'credentials_refused' | 'idle';

export interface CertifierHealth {
  state: CertifierState;
  /** Since when it is in that state (the first call of the run that put it there); null when up or idle. */
  since: Date | null;
  lastCallAt: Date | null;
  /** Invoices waiting for it (pending or to be confirmed), and the oldest one's creation. */
  waiting: number;
  oldestWaitingAt: Date | null;
}

/** Outcomes that are no answer: sent again later, or settled by a lookup. */
const NOT_ANSWERED = new Set(['retry_later', 'indeterminate', 'unavailable']);
const RECENT_CALLS = 20;
const DOWN_AFTER = 3;

export async function certifierHealth(): Promise<CertifierHealth> {
  const handle = await db();
  const calls = await handle.select({ outcome: invoiceAttempts.outcome, at: invoiceAttempts.createdAt }).from(invoiceAttempts).orderBy(desc(invoiceAttempts.id)).limit(RECENT_CALLS);
  const [queue] = await handle
    .select({ waiting: sql<number>`count(*)::integer`, oldest: sql<Date | string | null>`min(${invoices.createdAt})` })
    .from(invoices)
    .where(inArray(invoices.state, ['pending', 'indeterminate']));
  const waiting = Number(queue?.waiting ?? 0);
  const oldestWaitingAt = queue?.oldest ? new Date(queue.oldest) : null;
  const latest = calls[0];
  if (!latest) return { state: 'idle', since: null, lastCallAt: null, waiting, oldestWaitingAt };
  const runOf = (belongs: (outcome: string) => boolean) => {
    let length = 0;
    while (length < calls.length && belongs(calls[length]!.outcome)) length++;
    return { length, since: calls[length - 1]?.at ?? null };
  };
  if (latest.outcome === 'credentials_refused') {
    const run = runOf((outcome) => outcome === 'credentials_refused');
    return { state: 'credentials_refused', since: run.since, lastCallAt: latest.at, waiting, oldestWaitingAt };
  }
  if (NOT_ANSWERED.has(latest.outcome)) {
    const run = runOf((outcome) => NOT_ANSWERED.has(outcome));
    return { state: run.length >= DOWN_AFTER ? 'down' : 'degraded', since: run.since, lastCallAt: latest.at, waiting, oldestWaitingAt };
  }
  return { state: 'up', since: null, lastCallAt: latest.at, waiting, oldestWaitingAt };
}
