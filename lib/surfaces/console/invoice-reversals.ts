// An invoice's void or credit note as its console page shows them: SAT's deadline to void it,
// whether that is still in time, the live void or credit note, and the last one the certifier refused.
import { desc, eq } from 'drizzle-orm';
import { db } from '@/db/client';
import { invoiceReversals, type InvoiceReversal } from '@/db/schema';
import { isVoidable, voidDeadlineOf } from '@/lib/core/billing/invoice-reversals';
import { calendarDayText, REVERSAL_MESSAGES } from '@/lib/presentation/invoice-messages';

export interface InvoiceReversalView {
  /** YYYY-MM-DD: the last day to void it (the due date of its month's IVA return). */
  voidDeadline: string;
  voidableNow: boolean;
  /** The deadline as the page says it: "it can be voided until …", and the day alone (once past). */
  voidableUntilText: string;
  voidDeadlineDay: string;
  /** Pending, being confirmed or done: at most one. */
  live: InvoiceReversal | null;
  /** The latest one refused by the certifier (its amount was given back). */
  lastRefused: InvoiceReversal | null;
}

export async function invoiceReversalView(invoice: { id: number; emittedAt: Date }, now = new Date()): Promise<InvoiceReversalView> {
  const rows = await (await db()).select().from(invoiceReversals).where(eq(invoiceReversals.invoiceId, invoice.id)).orderBy(desc(invoiceReversals.id));
  const voidDeadline = voidDeadlineOf(invoice.emittedAt);
  return {
    voidDeadline,
    voidableUntilText: REVERSAL_MESSAGES.voidableUntil(voidDeadline),
    voidDeadlineDay: calendarDayText(voidDeadline),
    voidableNow: isVoidable(invoice.emittedAt, now),
    live: rows.find((row) => row.state !== 'refused') ?? null,
    lastRefused: rows.find((row) => row.state === 'refused') ?? null,
  };
}
