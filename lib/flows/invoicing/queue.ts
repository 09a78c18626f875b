// The invoices' queue in the database: due rows claimed with a lease (FOR UPDATE SKIP LOCKED, so
// instances never wait on each other's rows, as lib/flows/bulk/items.ts claims items), and every
// change written only while the row still carries the claim's holder. The certifier's identifier
// makes a second send harmless; the lease keeps two workers from wasting calls on one invoice.
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { db } from '@/db/client';
import { invoiceAttempts, invoices, type Invoice, type NewInvoice } from '@/db/schema';

const IN_QUEUE = ['pending', 'indeterminate'] as const;

/** Up to `limit` due invoices, leased to `holder` (unique to this claim) for `leaseSeconds`. */
export async function claimDueInvoices(holder: string, limit: number, leaseSeconds: number): Promise<Invoice[]> {
  const handle = await db();
  const due = sql`select ${invoices.id} from ${invoices}
     where ${invoices.state} in ('pending', 'indeterminate') and ${invoices.nextAttemptAt} <= now()
       and (${invoices.leaseUntil} is null or ${invoices.leaseUntil} < now())
     order by ${invoices.nextAttemptAt}, ${invoices.id}
     limit ${limit}::integer
     for update skip locked`;
  return handle
    .update(invoices)
    .set({ leaseHolder: holder, leaseUntil: sql`now() + make_interval(secs => ${leaseSeconds}::integer)`, updatedAt: sql`now()` })
    .where(sql`${invoices.id} in (${due})`)
    .returning();
}

/**
 * Changes a claimed invoice while it is still this claim's (a lease that ran out and was claimed
 * again belongs to the new holder). `release` ends the lease. False when the claim was lost.
 */
export async function updateClaimed(invoiceId: number, holder: string, change: Partial<NewInvoice>, release = true): Promise<boolean> {
  const handle = await db();
  const rows = await handle
    .update(invoices)
    .set({ ...change, ...(release ? { leaseHolder: null, leaseUntil: null } : {}), updatedAt: sql`now()` })
    .where(and(eq(invoices.id, invoiceId), eq(invoices.leaseHolder, holder), inArray(invoices.state, [...IN_QUEUE])))
    .returning({ id: invoices.id });
  return rows.length === 1;
}

/**
 * Certified invoices not yet told whose last write is older than `graceSeconds`, oldest first: the
 * partial index invoices_untold_idx holds only those, so a round that finds none reads nothing.
 */
export function untoldInvoicesQuery(graceSeconds: number, limit: number) {
  return sql`select ${invoices.id} from ${invoices}
     where ${invoices.state} = 'certified' and ${invoices.noticeEmittedAt} is null
       and ${invoices.updatedAt} <= now() - make_interval(secs => ${graceSeconds}::integer)
     order by ${invoices.updatedAt}, ${invoices.id}
     limit ${limit}::integer
     for update skip locked`;
}

/**
 * Takes up to `limit` of them for this instance to tell again: each row's updated_at moves to now,
 * so another instance (or this one's next round) looks at it again only a grace later.
 */
export async function claimUntoldInvoices(graceSeconds: number, limit: number): Promise<Array<{ id: number; integrationId: number }>> {
  return (await db())
    .update(invoices)
    .set({ updatedAt: sql`now()` })
    .where(sql`${invoices.id} in (${untoldInvoicesQuery(graceSeconds, limit)})`)
    .returning({ id: invoices.id, integrationId: invoices.integrationId });
}

/** Every listener of the invoice's "certified" took it: no round tells it again. */
export async function recordNoticeEmitted(invoiceId: number): Promise<void> {
  await (await db())
    .update(invoices)
    .set({ noticeEmittedAt: sql`now()` })
    .where(and(eq(invoices.id, invoiceId), eq(invoices.state, 'certified'), isNull(invoices.noticeEmittedAt)));
}

export interface AttemptLine {
  invoiceId: number;
  call: 'certify' | 'lookup' | 'void' | 'credit_note' | 'credit_note_lookup';
  certifier: string;
  outcome: string;
  /** The reason or SAT's codes: never a NIT, a name or a credential. */
  detail: string | null;
  holder: string;
  durationMs: number;
}

export async function logAttempt(line: AttemptLine): Promise<void> {
  await (await db()).insert(invoiceAttempts).values(line);
}

/** The invoices still in the queue (pending or indeterminate), for tests and the console. */
export async function invoicesInQueue(): Promise<number> {
  const [row] = await (await db()).select({ count: sql<number>`count(*)::integer` }).from(invoices).where(inArray(invoices.state, [...IN_QUEUE]));
  return Number(row?.count ?? 0);
}
