import { AsyncLocalStorage } from 'node:async_hooks';
import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import { db } from '@/db/client';
import { formSubmissions } from '@/db/schema';
import type { Executor } from '@/db/client';

// A form's sending (or a CLI command given --envio) changes something at most once, whichever
// instance receives it. The sending's key is claimed in PostgreSQL inside the transaction that
// makes the change: lib/core/audit's writeAudit, which every change calls in its own transaction, claims
// it first. The key's row and the change commit together or not at all; a second sending of the
// same key (a resend, a double click that a balancer sent to another instance) blocks on the first
// one's row until it commits, then finds it and rolls its own transaction back. See docs/decisions.md.

interface Sending {
  actor: string;
  key: string;
  claimed: boolean;
}

const current = new AsyncLocalStorage<Sending>();

/** Another sending of the same key already made this change; nothing was done again. */
export class SubmissionAlreadyMade extends Error {
  constructor(readonly key: string) {
    super(`submission ${key} was already made`);
    this.name = 'SubmissionAlreadyMade';
  }
}

/** Keys are kept this long: a resend comes within minutes; a day covers a retried CLI command. */
export const SUBMISSION_KEEP_HOURS = 24;

/** Runs `act` as the sending `key` of `actor` (an audit actor's text); with no key, as it is. */
export function asSubmission<T>(actor: string, key: string | undefined, act: () => Promise<T>): Promise<T> {
  if (key === undefined) return act();
  return current.run({ actor, key, claimed: false }, act);
}

/**
 * Claims the running sending's key in `executor`'s transaction (called by writeAudit). The first
 * change of a sending claims it; later changes of the same sending go on. Throws
 * SubmissionAlreadyMade, rolling the caller's transaction back, when another sending has it.
 */
export async function claimSubmission(executor: Executor): Promise<void> {
  const sending = current.getStore();
  if (!sending || sending.claimed) return;
  const claimed = await executor
    .insert(formSubmissions)
    .values({ actor: sending.actor, key: sending.key })
    .onConflictDoNothing()
    .returning({ key: formSubmissions.key });
  if (claimed.length === 0) throw new SubmissionAlreadyMade(sending.key);
  sending.claimed = true;
}

/**
 * Lets the key go after a refusal: a refused sending can still have written an audit entry (a
 * wrong current password, a wrong code), and its corrected resend carries the same key.
 */
export async function releaseSubmission(actor: string, key: string): Promise<void> {
  await (await db()).delete(formSubmissions).where(and(eq(formSubmissions.actor, actor), eq(formSubmissions.key, key), isNull(formSubmissions.message)));
}

/** Keeps the answer the first sending got, for a later sending of the same key (never a secret). */
export async function rememberSubmissionAnswer(actor: string, key: string, message: string): Promise<void> {
  await (await db()).update(formSubmissions).set({ message }).where(and(eq(formSubmissions.actor, actor), eq(formSubmissions.key, key)));
}

/**
 * The first sending's answer, waiting briefly for it: the first sending's change has committed when
 * a second one learns of it, but its answer is written just after. Undefined if it never came (the
 * first sending's process stopped in between).
 */
export async function firstSubmissionAnswer(actor: string, key: string, waitMs = 3_000): Promise<string | undefined> {
  const handle = await db();
  const deadline = Date.now() + waitMs;
  for (;;) {
    const [row] = await handle
      .select({ message: formSubmissions.message })
      .from(formSubmissions)
      .where(and(eq(formSubmissions.actor, actor), eq(formSubmissions.key, key)));
    if (row?.message) return row.message;
    if (Date.now() >= deadline) return undefined;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Forgets keys older than SUBMISSION_KEEP_HOURS (the retention job). Returns how many. */
export async function purgeOldSubmissions(now = new Date()): Promise<number> {
  const handle = await db();
  const cutoff = new Date(now.getTime() - SUBMISSION_KEEP_HOURS * 3_600_000);
  const purged = await handle.delete(formSubmissions).where(lt(formSubmissions.createdAt, sql`${cutoff.toISOString()}::timestamptz`)).returning({ key: formSubmissions.key });
  return purged.length;
}
