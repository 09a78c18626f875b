import { and, eq, lt, sql } from 'drizzle-orm';
import { database, db } from '@/db/client';
import { signInThrottles, type SignInThrottleScope } from '@/db/schema';
import { SIGN_IN_LOCK_MINUTES } from './sign-in-errors';

/**
 * Throttling of password guesses in the console, kept in the database so every instance counts the
 * same attempts: console sign-ins, and the current password asked for by "Cambiar contraseña".
 * Within a 15-minute window, attempts past `slowAfter` wait a growing delay before the password is
 * even checked, and the attempt that reaches `lockAfter` failures locks the subject for 15 minutes.
 *
 * Sign-in locks are per client IP (any account) and per account *and* IP, never per account alone:
 * an attacker who knows an administrator's e-mail locks only their own address out of that
 * account, not the administrator signing in from elsewhere. Guesses spread over many addresses
 * still slow the account down (a delay, not a lock), each address has its own budget, and password
 * hashing is capped per process (lib/security/passwords.ts). An IP gets a larger budget than an
 * account because several people may sign in from behind one office address.
 *
 * Password changes have scopes of their own with the same numbers, and their account lock is per
 * account alone: only someone holding that account's session can guess there, so a stolen session
 * cookie cannot search for the password by changing addresses (docs/decisions.md).
 */
const TIMING = {
  windowMinutes: 15,
  lockMinutes: SIGN_IN_LOCK_MINUTES,
  delayStepMs: 1_000,
  maxDelayMs: 5_000,
} as const;

export const SIGN_IN_THROTTLE = {
  ...TIMING,
  ip: { slowAfter: 10, lockAfter: 20 },
  account_ip: { slowAfter: 5, lockAfter: 10 },
  account: { slowAfter: 5, lockAfter: Infinity },
} as const;

export const PASSWORD_CHANGE_THROTTLE = {
  ...TIMING,
  password_change_ip: SIGN_IN_THROTTLE.ip,
  password_change_account: SIGN_IN_THROTTLE.account_ip,
} as const;

/**
 * Second-factor codes (TOTP or recovery) have their own scopes with the password's numbers; the
 * account lock is per account alone, since only someone who already has the password can guess.
 */
export const SECOND_FACTOR_THROTTLE = {
  ...TIMING,
  second_factor_ip: SIGN_IN_THROTTLE.ip,
  second_factor_account: SIGN_IN_THROTTLE.account_ip,
} as const;

export type ThrottleScope = SignInThrottleScope;

const LIMITS: Record<ThrottleScope, { slowAfter: number; lockAfter: number }> = {
  ip: SIGN_IN_THROTTLE.ip,
  account_ip: SIGN_IN_THROTTLE.account_ip,
  account: SIGN_IN_THROTTLE.account,
  password_change_ip: PASSWORD_CHANGE_THROTTLE.password_change_ip,
  password_change_account: PASSWORD_CHANGE_THROTTLE.password_change_account,
  second_factor_ip: SECOND_FACTOR_THROTTLE.second_factor_ip,
  second_factor_account: SECOND_FACTOR_THROTTLE.second_factor_account,
};

/** Scopes shared by several accounts: a success gives back its own attempt instead of clearing them. */
const SHARED_SCOPES: ReadonlySet<ThrottleScope> = new Set(['ip', 'password_change_ip', 'second_factor_ip']);

/** What a refused or failed attempt is told (lib/auth/sign-in-errors.ts, lib/auth/password-change-errors.ts). */
export type ThrottleRefusal =
  | { kind: 'invalid_credentials' }
  | { kind: 'attempts_left'; left: number }
  | { kind: 'locked_now' }
  | { kind: 'locked'; minutes: number };

interface Subject {
  scope: ThrottleScope;
  subject: string;
}

interface CountedAttempt extends Subject {
  /** This attempt's number in the window, counting itself. */
  attempt: number;
}

export type AttemptStart =
  | { allowed: true; delayMs: number; counted: CountedAttempt[] }
  /** lockedNow: the scopes this refusal locked (a parallel attempt past the limit), for the audit log. */
  | { allowed: false; refusal: ThrottleRefusal; lockedNow?: ThrottleScope[] };

/** What a wrong password led to, and which subjects it locked (each lock is reported once). */
export interface FailureOutcome {
  refusal: ThrottleRefusal;
  lockedNow: ThrottleScope[];
}

function signInSubjects(email: string, ip: string): Subject[] {
  const account = email.trim().toLowerCase();
  // The IP first: a locked IP must not spend the account's budget. IP keys never contain "|".
  return [
    { scope: 'ip', subject: ip },
    { scope: 'account_ip', subject: `${ip}|${account}` },
    { scope: 'account', subject: account },
  ];
}

function passwordChangeSubjects(userId: number, ip: string): Subject[] {
  return [
    { scope: 'password_change_ip', subject: ip },
    { scope: 'password_change_account', subject: String(userId) },
  ];
}

/** A sign-in attempt, counted per IP, per account and IP, and per account (lowercased e-mail). */
export function beginSignInAttempt(email: string, ip: string): Promise<AttemptStart> {
  return beginAttempt(signInSubjects(email, ip));
}

/** A wrong password at sign-in: "attempts left" counts down the account-and-IP lock. */
export function recordSignInFailure(start: Extract<AttemptStart, { allowed: true }>): Promise<FailureOutcome> {
  return recordFailure(start, 'account_ip');
}

/** A correct password: the account (from any address) starts over; the IP gets this attempt back. */
export function recordSignInSuccess(start: Extract<AttemptStart, { allowed: true }>): Promise<void> {
  return recordSuccess(start);
}

/** A check of the current password on "Cambiar contraseña", counted per IP and per account. */
export function beginPasswordChangeAttempt(userId: number, ip: string): Promise<AttemptStart> {
  return beginAttempt(passwordChangeSubjects(userId, ip));
}

/** A wrong current password: "attempts left" counts down the account's lock. */
export function recordPasswordChangeFailure(start: Extract<AttemptStart, { allowed: true }>): Promise<FailureOutcome> {
  return recordFailure(start, 'password_change_account');
}

/** The right current password: the account starts over; the IP gets this attempt back. */
export function recordPasswordChangeSuccess(start: Extract<AttemptStart, { allowed: true }>): Promise<void> {
  return recordSuccess(start);
}

/** A second-factor code (at sign-in or in "Mi cuenta"), counted per IP and per account. */
export function beginSecondFactorAttempt(userId: number, ip: string): Promise<AttemptStart> {
  return beginAttempt([
    { scope: 'second_factor_ip', subject: ip },
    { scope: 'second_factor_account', subject: String(userId) },
  ]);
}

/** A wrong code: "attempts left" counts down the account's lock. */
export function recordSecondFactorFailure(start: Extract<AttemptStart, { allowed: true }>): Promise<FailureOutcome> {
  return recordFailure(start, 'second_factor_account');
}

/** A right code: the account starts over; the IP gets this attempt back. */
export function recordSecondFactorSuccess(start: Extract<AttemptStart, { allowed: true }>): Promise<void> {
  return recordSuccess(start);
}

/**
 * Counts an attempt before the password is checked, in one statement per subject, so parallel
 * guesses each get their own number and none slips under the limit. A window (or a lock) that
 * has passed starts over.
 */
async function beginAttempt(subjects: Subject[]): Promise<AttemptStart> {
  const counted: CountedAttempt[] = [];
  let delayMs = 0;
  for (const subject of subjects) {
    const row = await countAttempt(subject);
    if (row.lockedUntil && row.lockedUntil.getTime() > row.now.getTime()) {
      return { allowed: false, refusal: { kind: 'locked', minutes: minutesUntil(row.lockedUntil, row.now) } };
    }
    const limits = LIMITS[subject.scope];
    if (row.failures > limits.lockAfter) {
      // Only parallel attempts get here: the one that reached the limit is locking the subject.
      const locked = await lock(subject);
      return { allowed: false, refusal: { kind: 'locked_now' }, ...(locked ? { lockedNow: [subject.scope] } : {}) };
    }
    counted.push({ ...subject, attempt: row.failures });
    if (row.failures > limits.slowAfter) {
      delayMs = Math.max(delayMs, Math.min((row.failures - limits.slowAfter) * TIMING.delayStepMs, TIMING.maxDelayMs));
    }
  }
  return { allowed: true, delayMs, counted };
}

/** A wrong password: locks each subject that just used its last attempt; says what happened. */
async function recordFailure(start: Extract<AttemptStart, { allowed: true }>, attemptsLeftScope: ThrottleScope): Promise<FailureOutcome> {
  const lockedNow: ThrottleScope[] = [];
  let reachedLimit = false;
  let attemptsLeft = Infinity;
  for (const counted of start.counted) {
    const limits = LIMITS[counted.scope];
    if (counted.attempt >= limits.lockAfter) {
      reachedLimit = true;
      // A parallel attempt past the limit may have locked it first (and reported it).
      if (await lock(counted)) lockedNow.push(counted.scope);
    }
    if (counted.scope === attemptsLeftScope) attemptsLeft = limits.lockAfter - counted.attempt;
  }
  if (reachedLimit) return { refusal: { kind: 'locked_now' }, lockedNow };
  if (attemptsLeft <= 3) return { refusal: { kind: 'attempts_left', left: attemptsLeft }, lockedNow };
  return { refusal: { kind: 'invalid_credentials' }, lockedNow };
}

/** A correct password: the account's subjects start over; shared subjects get this attempt back. */
async function recordSuccess(start: Extract<AttemptStart, { allowed: true }>): Promise<void> {
  const handle = await db();
  for (const counted of start.counted) {
    const where = and(eq(signInThrottles.scope, counted.scope), eq(signInThrottles.subject, counted.subject));
    if (!SHARED_SCOPES.has(counted.scope)) await handle.delete(signInThrottles).where(where);
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
  const windowOver = sql`coalesce(t.locked_until, t.window_started_at + make_interval(mins => ${TIMING.windowMinutes})) <= now()`;
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

/** Locks a subject unless it is locked already; says whether this call locked it. */
async function lock(subject: Subject): Promise<boolean> {
  const locked = await (await db())
    .update(signInThrottles)
    .set({ lockedUntil: sql`now() + make_interval(mins => ${TIMING.lockMinutes})` })
    .where(
      and(
        eq(signInThrottles.scope, subject.scope),
        eq(signInThrottles.subject, subject.subject),
        sql`(${signInThrottles.lockedUntil} is null or ${signInThrottles.lockedUntil} <= now())`,
      ),
    )
    .returning({ scope: signInThrottles.scope });
  return locked.length > 0;
}

function minutesUntil(until: Date, now: Date): number {
  return Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 60_000));
}
