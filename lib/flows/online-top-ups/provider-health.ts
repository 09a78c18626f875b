// The payment provider as a component beside the sources and the certifier: whether it answers the
// calls this service makes (checkouts, reads, refunds, charges), since when it does not. Every call's
// outcome is written by whichever instance made it (lib/providers/payments/configured.ts tells it),
// so every instance, the Panel and /estado tell the same.
import { desc } from 'drizzle-orm';
import { db } from '@/db/client';
import { paymentProviderCalls } from '@/db/schema';
import { logger } from '@/lib/platform/logging/logger';
import { callHealth, type CallHealth } from '@/lib/platform/operations/call-health';
import type { PaymentProviderCallOutcome } from '@/lib/providers/payments/configured';

/** Outcomes that are no answer: retried later, or settled by reading. */
const NOT_ANSWERED = new Set(['retry_later', 'indeterminate', 'unavailable']);
const RECENT_CALLS = 20;

const log = logger('online-top-ups');

/**
 * Writes one call's outcome; a failure to write it is logged, never the payment's. One instance's
 * writes go one after another, so its rows keep the order its calls ended in and the health reads
 * the newest call last, even when two calls end a moment apart.
 */
let writes: Promise<void> = Promise.resolve();
export function recordProviderCall(call: PaymentProviderCallOutcome): void {
  writes = writes.then(async () => {
    try {
      await (await db()).insert(paymentProviderCalls).values({ provider: call.provider, call: call.call, outcome: call.outcome, durationMs: call.durationMs });
    } catch (error: unknown) {
      log.warn({ err: error, call: call.call, outcome: call.outcome }, 'a payment provider call could not be recorded');
    }
  });
}

export async function providerHealth(): Promise<CallHealth> {
  const calls = await (await db())
    .select({ outcome: paymentProviderCalls.outcome, at: paymentProviderCalls.createdAt })
    .from(paymentProviderCalls)
    .orderBy(desc(paymentProviderCalls.id))
    .limit(RECENT_CALLS);
  return callHealth(calls, NOT_ANSWERED);
}
