import { and, eq, lt, sql } from 'drizzle-orm';
import { database, db } from '@/db/client';
import { signInThrottles, type SignInThrottleScope } from '@/db/schema';
import { SIGN_IN_LOCK_MINUTES, type SignInRefusal } from './sign-in-errors';

/**
 * Console sign-in throttling, kept in the database so every instance counts the same attempts.
 * Within a 15-minute window, attempts past `slowAfter` wait a growing delay before the password is
 * even checked, and the attempt that reaches `lockAfter` failures locks the subject for 15 minutes.
 *
 * Locks are per client IP (any account) and per account *and* IP, never per account alone: an
 * attacker who knows an administrator's e-mail locks only their own address out of that account,
 * not the administrator signing in from elsewhere. Guesses spread over many addresses still slow
 * the account down (a delay, not a lock), each address has its own budget, and password hashing is
 * capped per process (lib/security/passwords.ts). An IP gets a larger budget than an account
 * because several people may sign in from behind one office address.
 */
export const SIGN_IN_THROTTLE = {
  windowMinutes: 15,
  lockMinutes: SIGN_IN_LOCK_MINUTES,
  delayStepMs: 1_000,
  maxDelayMs: 5_000,
  ip: { slowAfter: 10, lockAfter: 20 },
  account_ip: { slowAfter: 5, lockAfter: 10 },
  account: { slowAfter: 5, lockAfter: Infinity },
} as const;

interface Subject {
  scope: SignInThrottleScope;
  subject: string;
}

interface CountedAttempt extends Subject {
  /** This attempt's number in the window, counting itself. */
  attempt: number;
}

export type AttemptStart =
  | { allowed: true; delayMs: number; counted: CountedAttempt[] }
  | { allowed: false; refusal: SignInRefusal };

function subjectsOf(email: string, ip: string): Subject[] {
  const account = email.trim().toLowerCase();
  // The IP first: a locked IP must not spend the account's budget. IP keys never contain "|".
  return [
    { scope: 'ip', subject: ip },
    { scope: 'account_ip', subject: `${ip}|${account}` },
    { scope: 'account', subject: account },
  ];
}

/**
 * Counts an attempt before the password is checked, in one statement per subject, so parallel
 * guesses each get their own number and none slips under the limit. A window (or a lock) that
 * has passed starts over.
 */
export async function beginSignInAttempt(email: string, ip: string): Promise<AttemptStart> {
  const counted: CountedAttempt[] = [];
  let delayMs = 0;
  for (const subject of subjectsOf(email, ip)) {
    const row = await countAttempt(subject);
    if (row.lockedUntil && row.lockedUntil.getTime() > row.now.getTime()) {
      return { allowed: false, refusal: { kind: 'locked', minutes: minutesUntil(row.lockedUntil, row.now) } };
    }
    const limits = SIGN_IN_THROTTLE[subject.scope];
    if (row.failures > limits.lockAfter) {
      // Only parallel attempts get here: the one that reached the limit is locking the subject.
      await lock(subject);
      return { allowed: false, refusal: { kind: 'locked_now' } };
    }
    counted.push({ ...subject, attempt: row.failures });
    if (row.failures > limits.slowAfter) {
      delayMs = Math.max(delayMs, Math.min((row.failures - limits.slowAfter) * SIGN_IN_THROTTLE.delayStepMs, SIGN_IN_THROTTLE.maxDelayMs));
    }
  }
  return { allowed: true, delayMs, counted };
}

/** A wrong password: locks each subject that just used its last attempt; says what happened. */
export async function recordSignInFailure(start: Extract<AttemptStart, { allowed: true }>): Promise<SignInRefusal> {
  let lockedNow = false;
  let attemptsLeft = Infinity;
  for (const counted of start.counted) {
    const limits = SIGN_IN_THROTTLE[counted.scope];
    if (counted.attempt >= limits.lockAfter) {
      await lock(counted);
      lockedNow = true;
    }
    if (counted.scope === 'account_ip') attemptsLeft = limits.lockAfter - counted.attempt;
  }
  if (lockedNow) return { kind: 'locked_now' };
  if (attemptsLeft <= 3) return { kind: 'attempts_left', left: attemptsLeft };
  return { kind: 'invalid_credentials' };
}

/** A correct password: the account (from any address) starts over; the IP gets this attempt back. */
export async function recordSignInSuccess(start: Extract<AttemptStart, { allowed: true }>): Promise<void> {
  const handle = await db();
  for (const counted of start.counted) {
    const where = and(eq(signInThrottles.scope, counted.scope), eq(signInThrottles.subject, counted.subject));
    if (counted.scope !== 'ip') await handle.delete(signInThrottles).where(where);
    else await handle.update(signInThrottles).set({ failures: sql`greatest(${signInThrottles.failures} - 1, 0)` }).where(where);
  }
  // Expired rows only ever reset; dropping them keeps the table as small as the current attacks.
  await handle
    .delete(signInThrottles)
    .where(
      and(
        lt(signInThrottles.windowStartedAt, sql`now() - interval '1 day'`),
        sql`(${signInThrottles.lockedUntil} is null or ${signInThrottles.lockedUntil} < now())`,
      ),
    );
}

async function countAttempt(subject: Subject): Promise<{ failures: number; lockedUntil: Date | null; now: Date }> {
  const windowOver = sql`coalesce(t.locked_until, t.window_started_at + make_interval(mins => ${SIGN_IN_THROTTLE.windowMinutes})) <= now()`;
  const stillLocked = sql`t.locked_until is not null and t.locked_until > now()`;
  const [row] = await (await database()).rows<{ failures: number; locked_until: string | Date | null; now: string | Date }>(sql`
    insert into sign_in_throttles as t (scope, subject, failures, window_started_at)
    values (${subject.scope}, ${subject.subject}, 1, now())
    on conflict (scope, subject) do update set
      failures = case when ${windowOver} then 1 when ${stillLocked} then t.failures else t.failures + 1 end,
      window_started_at = case when ${windowOver} then now() else t.window_started_at end,
      locked_until = case when ${windowOver} then null else t.locked_until end
    returning failures, locked_until, now() as now`);
  if (!row) throw new Error('sign-in throttle upsert returned no row');
  return { failures: Number(row.failures), lockedUntil: row.locked_until ? new Date(row.locked_until) : null, now: new Date(row.now) };
}

async function lock(subject: Subject): Promise<void> {
  await (await db())
    .update(signInThrottles)
    .set({ lockedUntil: sql`now() + make_interval(mins => ${SIGN_IN_THROTTLE.lockMinutes})` })
    .where(
      and(
        eq(signInThrottles.scope, subject.scope),
        eq(signInThrottles.subject, subject.subject),
        sql`(${signInThrottles.lockedUntil} is null or ${signInThrottles.lockedUntil} <= now())`,
      ),
    );
}

function minutesUntil(until: Date, now: Date): number {
  return Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 60_000));
}
