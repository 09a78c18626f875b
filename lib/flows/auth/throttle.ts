import { randomUUID } from 'node:crypto';
import { and, eq, lt, sql } from 'drizzle-orm';
import { database, db } from '@/db/client';
import { signInThrottles, type SignInThrottleScope } from '@/db/schema';
import type { AuthRealm } from './realm';
import { SIGN_IN_LOCK_MINUTES, SIGN_IN_PACE_MAX_SECONDS } from './sign-in-errors';

/**
 * Throttling of password guesses in the console, kept in the database so every instance counts the
 * same attempts: console sign-ins, and the current password asked for by "Cambiar contraseña".
 * Within a 15-minute window, attempts past `slowAfter` wait a growing delay before the password is
 * even checked, and the attempt that reaches `lockAfter` failures locks the subject for 15 minutes.
 *
 * Sign-in locks are per client IP (any account) and per account *and* IP, never per account alone:
 * an attacker who knows an administrator's e-mail locks only their own address out of that
 * account, not the administrator signing in from elsewhere. An IP gets a larger budget than an
 * account because several people may sign in from behind one office address.
 *
 * Guesses spread over many addresses meet the account's pace instead (ACCOUNT_PACE): past five
 * failures, one guess at a time per account, from any address, each waiting twice as long as the
 * last up to a minute, so about 60 an hour however many addresses guess. A guess that arrives
 * before its turn is refused at once, checks no password and counts nowhere. The pace would let a
 * stranger keep the real user out, so a known device (a browser that signed in to the account
 * before, lib/flows/auth/known-device.ts) is exempt: it counts on its own and loses the exemption after
 * ten failures, so a copied device cookie is no way around the pace either.
 *
 * Password changes have scopes of their own with the same numbers, and their account lock is per
 * account alone: only someone holding that account's session can guess there, so a stolen session
 * cookie cannot search for the password by changing addresses (docs/decisions.md).
 *
 * The portal (lib/flows/auth/realm.ts) counts in the same table under the same scopes, its subjects
 * marked `portal/` (subjectIn): an address's and an account's budgets in one realm are not spent
 * in the other, and a portal user's id never meets a console user's with the same number.
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
  // Never locked and never delayed: paced (ACCOUNT_PACE).
  account: { slowAfter: Infinity, lockAfter: Infinity },
  // Counted only; past `trustedFailures` the device signs in at the account's pace like any other.
  known_device: { slowAfter: 5, lockAfter: Infinity },
} as const;

/**
 * The account's pace across all addresses: the first `freeFailures` failures in the window go at
 * the per-address limits' speed; failure n past them makes the next guess wait
 * min(2^(n - freeFailures - 1), maxSeconds) seconds. The window ends once no guess has been made
 * for `windowMinutes` after the last turn. From `noticeAfterFailures` on, the user is told by
 * e-mail (lib/reactions/alerts/attack-notice.ts).
 */
export const ACCOUNT_PACE = {
  freeFailures: 5,
  maxSeconds: SIGN_IN_PACE_MAX_SECONDS,
  knownDeviceTrustedFailures: 10,
  noticeAfterFailures: 20,
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
  known_device: SIGN_IN_THROTTLE.known_device,
};

/** A subject as counted in `realm`: the console's as they always were, the portal's marked. */
export function subjectIn(realm: AuthRealm, subject: string): string {
  return realm === 'console' ? subject : `${realm}/${subject}`;
}

/** Scopes shared by several accounts: a success gives back its own attempt instead of clearing them. */
const SHARED_SCOPES: ReadonlySet<ThrottleScope> = new Set(['ip', 'password_change_ip', 'second_factor_ip']);

/** What a refused or failed attempt is told (lib/flows/auth/sign-in-errors.ts, lib/flows/auth/password-change-errors.ts). */
export type ThrottleRefusal =
  | { kind: 'invalid_credentials' }
  | { kind: 'attempts_left'; left: number }
  | { kind: 'locked_now' }
  | { kind: 'locked'; minutes: number };

/** A sign-in that came before the account's next turn (ACCOUNT_PACE): nothing was checked or counted. */
export interface PacedRefusal {
  allowed: false;
  refusal: { kind: 'paced'; seconds: number };
  lockedNow?: undefined;
}

interface Subject {
  scope: ThrottleScope;
  subject: string;
}

interface CountedAttempt extends Subject {
  /** This attempt's number in the window, counting itself. */
  attempt: number;
}

export type AttemptStart =
  /** accountFailures: the account's failures in its window counting this attempt (sign-ins not from a known device). */
  | { allowed: true; delayMs: number; counted: CountedAttempt[]; accountFailures?: number }
  /** lockedNow: the scopes this refusal locked (a parallel attempt past the limit), for the audit log. */
  | { allowed: false; refusal: ThrottleRefusal; lockedNow?: ThrottleScope[] };

/** What a wrong password led to, and which subjects it locked (each lock is reported once). */
export interface FailureOutcome {
  refusal: ThrottleRefusal;
  lockedNow: ThrottleScope[];
}

/**
 * A sign-in attempt, counted per IP and per account and IP, then either per known device (when
 * `knownDevice` names a device that signed in to this account before and has not failed too
 * often) or at the account's pace (ACCOUNT_PACE).
 */
export async function beginSignInAttempt(email: string, ip: string, knownDevice?: string, realm: AuthRealm = 'console'): Promise<AttemptStart | PacedRefusal> {
  const account = subjectIn(realm, email.trim().toLowerCase());
  // The IP first: a locked IP must not spend the account's budget. IP keys never contain "|".
  const subjects: Subject[] = [
    { scope: 'ip', subject: subjectIn(realm, ip) },
    { scope: 'account_ip', subject: subjectIn(realm, `${ip}|${email.trim().toLowerCase()}`) },
  ];
  if (knownDevice) subjects.push({ scope: 'known_device', subject: subjectIn(realm, knownDevice) });
  const start = await beginAttempt(subjects);
  if (!start.allowed) return start;
  const device = start.counted.find((counted) => counted.scope === 'known_device');
  if (device && device.attempt <= ACCOUNT_PACE.knownDeviceTrustedFailures) return start;

  const turn = await takeAccountTurn(account);
  if (!turn.allowed) {
    // Not a guess: the address gets its attempts back (a device past its trust keeps its count).
    await giveBack(start.counted.filter((counted) => counted.scope !== 'known_device'));
    return { allowed: false, refusal: { kind: 'paced', seconds: turn.seconds } };
  }
  return { ...start, counted: [...start.counted, { scope: 'account', subject: account, attempt: turn.failures }], accountFailures: turn.failures };
}

function passwordChangeSubjects(userId: number, ip: string, realm: AuthRealm): Subject[] {
  return [
    { scope: 'password_change_ip', subject: subjectIn(realm, ip) },
    { scope: 'password_change_account', subject: subjectIn(realm, String(userId)) },
  ];
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
export function beginPasswordChangeAttempt(userId: number, ip: string, realm: AuthRealm = 'console'): Promise<AttemptStart> {
  return beginAttempt(passwordChangeSubjects(userId, ip, realm));
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
export function beginSecondFactorAttempt(userId: number, ip: string, realm: AuthRealm = 'console'): Promise<AttemptStart> {
  return beginAttempt([
    { scope: 'second_factor_ip', subject: subjectIn(realm, ip) },
    { scope: 'second_factor_account', subject: subjectIn(realm, String(userId)) },
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
    if (SHARED_SCOPES.has(counted.scope)) continue;
    await handle.delete(signInThrottles).where(and(eq(signInThrottles.scope, counted.scope), eq(signInThrottles.subject, counted.subject)));
  }
  await giveBack(start.counted.filter((counted) => SHARED_SCOPES.has(counted.scope)));
  // Expired rows only ever reset; dropping them keeps the table as small as the current attacks.
  await handle
    .delete(signInThrottles)
    .where(
      and(
        lt(signInThrottles.windowStartedAt, sql`now() - interval '1 day'`),
        sql`(${signInThrottles.lockedUntil} is null or ${signInThrottles.lockedUntil} < now())`,
        // An account still being guessed at keeps its pace, however long ago the guessing began.
        sql`(${signInThrottles.nextAttemptAt} is null or ${signInThrottles.nextAttemptAt} < now() - make_interval(mins => ${TIMING.windowMinutes}))`,
      ),
    );
}

/** Takes back attempts: counted but never checked (a paced guess), or shared scopes after a success. */
async function giveBack(counted: Subject[]): Promise<void> {
  const handle = await db();
  for (const subject of counted) {
    await handle
      .update(signInThrottles)
      .set({ failures: sql`greatest(${signInThrottles.failures} - 1, 0)` })
      .where(and(eq(signInThrottles.scope, subject.scope), eq(signInThrottles.subject, subject.subject)));
  }
}

/**
 * The account's turn, in one statement: allowed when its next turn has come (or it has not failed
 * often enough to be paced), which counts the attempt and, past the free failures, moves the next
 * turn on. The attempt that took the turn finds its own id in last_attempt_id; one that came too
 * early changes nothing and learns how long to wait.
 */
async function takeAccountTurn(account: string): Promise<{ allowed: true; failures: number } | { allowed: false; seconds: number }> {
  const attemptId = randomUUID();
  const { freeFailures, maxSeconds } = ACCOUNT_PACE;
  const quiet = sql`greatest(t.window_started_at, coalesce(t.next_attempt_at, t.window_started_at)) + make_interval(mins => ${TIMING.windowMinutes}) <= now()`;
  const early = sql`t.next_attempt_at is not null and t.next_attempt_at > now()`;
  const nextTurn = sql`case when t.failures + 1 > ${freeFailures}
    then now() + make_interval(secs => least(power(2, t.failures - ${freeFailures}), ${maxSeconds})) end`;
  const [row] = await (await database()).rows<{ failures: number; next_attempt_at: string | Date | null; last_attempt_id: string | null; now: string | Date }>(sql`
    insert into sign_in_throttles as t (scope, subject, failures, window_started_at, last_attempt_id)
    values ('account', ${account}, 1, now(), ${attemptId})
    on conflict (scope, subject) do update set
      failures = case when ${quiet} then 1 when ${early} then t.failures else t.failures + 1 end,
      window_started_at = case when ${quiet} then now() else t.window_started_at end,
      next_attempt_at = case when ${quiet} then null when ${early} then t.next_attempt_at else ${nextTurn} end,
      last_attempt_id = case when ${early} and not ${quiet} then t.last_attempt_id else ${attemptId} end
    returning failures, next_attempt_at, last_attempt_id, now() as now`);
  if (!row) throw new Error('account pace upsert returned no row');
  if (row.last_attempt_id === attemptId) return { allowed: true, failures: Number(row.failures) };
  const wait = new Date(row.next_attempt_at!).getTime() - new Date(row.now).getTime();
  return { allowed: false, seconds: Math.min(maxSeconds, Math.max(1, Math.ceil(wait / 1000))) };
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
