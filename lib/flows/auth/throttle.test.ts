import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { database } from '@/db/client';
import { useTestDatabase, type TestDatabase } from '@/tests/support/test-database';
import type { SignInRefusal } from './sign-in-errors';
import {
  ACCOUNT_PACE,
  beginPasswordChangeAttempt,
  beginSignInAttempt,
  PASSWORD_CHANGE_THROTTLE,
  recordPasswordChangeFailure,
  recordPasswordChangeSuccess,
  recordSignInFailure,
  recordSignInSuccess,
  SIGN_IN_THROTTLE,
  type AttemptStart,
} from './throttle';

let testDatabase: TestDatabase;
beforeAll(async () => {
  testDatabase = await useTestDatabase();
});
afterAll(async () => {
  await testDatabase.cleanup();
});

type Allowed = Extract<AttemptStart, { allowed: true }>;
type SignInStart = Awaited<ReturnType<typeof beginSignInAttempt>>;

async function fail(email: string, ip: string, device?: string): Promise<{ start: SignInStart; refusal?: SignInRefusal }> {
  const start = await beginSignInAttempt(email, ip, device);
  return start.allowed ? { start, refusal: (await recordSignInFailure(start)).refusal } : { start };
}

/** Lets the account's next turn come now, as if its wait had passed (the database's clock cannot be moved). */
async function letTurnCome(email: string): Promise<void> {
  await (await database()).rows(sql`update sign_in_throttles set next_attempt_at = now() - interval '1 millisecond' where scope = 'account' and subject = ${email}`);
}

async function accountRow(email: string): Promise<{ failures: number; wait_ms: number | null }> {
  const [row] = await (await database()).rows<{ failures: number; wait_ms: number | null }>(
    sql`select failures, (extract(epoch from next_attempt_at - now()) * 1000)::integer as wait_ms from sign_in_throttles where scope = 'account' and subject = ${email}`,
  );
  return row!;
}

describe('sign-in throttling of one account from one address', () => {
  it('slows attempts after 5 failures and locks that address out of the account at the 10th', async () => {
    const delays: number[] = [];
    const refusals: SignInRefusal[] = [];
    for (let attempt = 1; attempt <= SIGN_IN_THROTTLE.account_ip.lockAfter; attempt++) {
      // Time enough between guesses for the account's pace (tested below).
      await letTurnCome('ana@example.com');
      const { start, refusal } = await fail('Ana@Example.com', '10.0.0.1');
      expect(start.allowed).toBe(true);
      delays.push((start as Allowed).delayMs);
      refusals.push(refusal!);
    }
    expect(delays).toEqual([0, 0, 0, 0, 0, 1_000, 2_000, 3_000, 4_000, 5_000]);
    expect(refusals.slice(0, 6)).toEqual(Array(6).fill({ kind: 'invalid_credentials' }));
    expect(refusals.slice(6)).toEqual([{ kind: 'attempts_left', left: 3 }, { kind: 'attempts_left', left: 2 }, { kind: 'attempts_left', left: 1 }, { kind: 'locked_now' }]);
    // The e-mail is compared lowercased.
    expect(await beginSignInAttempt('ana@example.com', '10.0.0.1')).toEqual({ allowed: false, refusal: { kind: 'locked', minutes: 15 } });
  });

  it('a success clears the account and gives the IP its attempt back', async () => {
    for (let attempt = 0; attempt < 4; attempt++) await fail('luis@example.com', '10.1.1.1');
    const success = await beginSignInAttempt('luis@example.com', '10.1.1.1');
    expect(success.allowed).toBe(true);
    await recordSignInSuccess(success as Allowed);
    const next = (await beginSignInAttempt('luis@example.com', '10.1.1.1')) as Allowed;
    expect(next.counted).toEqual([
      { scope: 'ip', subject: '10.1.1.1', attempt: 5 },
      { scope: 'account_ip', subject: '10.1.1.1|luis@example.com', attempt: 1 },
      { scope: 'account', subject: 'luis@example.com', attempt: 1 },
    ]);
  });
});

describe('an attacker who knows an administrator e-mail', () => {
  it('cannot lock the administrator out from another address', async () => {
    for (let attempt = 1; attempt <= SIGN_IN_THROTTLE.account_ip.lockAfter; attempt++) await fail('admin@example.com', '203.0.113.66');
    expect(await beginSignInAttempt('admin@example.com', '203.0.113.66')).toMatchObject({ allowed: false });

    // From her own browser (a known device) she is in at once, paced account or not.
    const administrator = await beginSignInAttempt('admin@example.com', '198.51.100.10', 'navegador-de-la-administradora');
    expect(administrator.allowed).toBe(true);
    expect((administrator as Allowed).delayMs).toBe(0);
  });

  it('takes one guess at a time across all addresses past five failures, each wait twice the last, up to a minute', async () => {
    const account = 'carla@example.com';
    for (let address = 1; address <= ACCOUNT_PACE.freeFailures; address++) {
      expect((await fail(account, `192.0.2.${address}`)).start.allowed).toBe(true);
    }
    expect((await accountRow(account)).wait_ms).toBeNull();
    // The sixth guess takes the turn and sets the next one a second away; a guess before it is refused.
    expect((await fail(account, '192.0.2.6')).start.allowed).toBe(true);
    expect((await accountRow(account)).wait_ms).toBeGreaterThan(900);
    const early = await beginSignInAttempt(account, '192.0.2.7');
    expect(early).toEqual({ allowed: false, refusal: { kind: 'paced', seconds: 1 } });

    const waits: number[] = [];
    for (let turn = 7; turn <= 14; turn++) {
      await letTurnCome(account);
      expect((await fail(account, `192.0.2.${turn}`)).start.allowed).toBe(true);
      waits.push(Math.round((await accountRow(account)).wait_ms! / 1000));
    }
    expect(waits).toEqual([2, 4, 8, 16, 32, 60, 60, 60]);
    expect(await beginSignInAttempt(account, '192.0.2.200')).toEqual({ allowed: false, refusal: { kind: 'paced', seconds: 60 } });
  });

  it('gives one of many parallel guesses the turn, and gives the others\' addresses their attempts back', async () => {
    const account = 'paralelo@example.com';
    for (let address = 1; address <= ACCOUNT_PACE.freeFailures; address++) await fail(account, `198.51.100.${address}`);
    const starts = await Promise.all(Array.from({ length: 40 }, (_, index) => beginSignInAttempt(account, `100.64.7.${index + 1}`)));
    expect(starts.filter((start) => start.allowed)).toHaveLength(1);
    expect(starts.filter((start) => !start.allowed).map((start) => start.refusal.kind)).toEqual(Array(39).fill('paced'));
    const [row] = await (await database()).rows<{ counted: number }>(
      sql`select coalesce(sum(failures), 0)::integer as counted from sign_in_throttles where scope in ('ip', 'account_ip') and subject like '100.64.7.%'`,
    );
    // Only the guess that took the turn counts against its address, once per scope.
    expect(row!.counted).toBe(2);
  });

  it('lets a known device of the account in while the account is paced, until that device fails ten times', async () => {
    const account = 'dueña@example.com';
    for (let address = 1; address <= ACCOUNT_PACE.freeFailures + 1; address++) await fail(account, `192.0.2.${address}`);
    expect((await beginSignInAttempt(account, '10.9.9.9')).allowed).toBe(false);

    const owner = await beginSignInAttempt(account, '10.9.9.9', 'dispositivo-de-la-duena');
    expect(owner.allowed).toBe(true);
    await recordSignInSuccess(owner as Allowed);
    // Her success does not reset the pace the stranger is under.
    expect((await beginSignInAttempt(account, '192.0.2.99')).allowed).toBe(false);

    // A copy of her device cookie guesses from many addresses: ten failures, then the pace.
    for (let attempt = 1; attempt <= ACCOUNT_PACE.knownDeviceTrustedFailures; attempt++) {
      expect((await fail(account, `198.18.5.${attempt}`, 'dispositivo-de-la-duena')).start.allowed).toBe(true);
    }
    expect(await beginSignInAttempt(account, '198.18.5.50', 'dispositivo-de-la-duena')).toMatchObject({ allowed: false, refusal: { kind: 'paced' } });
  });

  it('counts the account\'s failures for the e-mail to its user', async () => {
    const account = 'avisada@example.com';
    const counts: Array<number | undefined> = [];
    for (let guess = 1; guess <= 8; guess++) {
      await letTurnCome(account);
      const { start } = await fail(account, `192.0.2.${guess}`);
      counts.push((start as Allowed).accountFailures);
    }
    expect(counts).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    // A known device's failures are its own.
    expect(((await beginSignInAttempt(account, '10.1.2.3', 'otro-dispositivo')) as Allowed).accountFailures).toBeUndefined();
  });
});

describe('sign-in throttling per IP', () => {
  it('locks an address after 20 failures on any accounts, counting parallel attempts one by one', async () => {
    const starts = await Promise.all(
      Array.from({ length: SIGN_IN_THROTTLE.ip.lockAfter + 3 }, (_, index) => beginSignInAttempt(`persona-${index}@example.com`, '10.2.2.2')),
    );
    const allowed = starts.filter((start): start is Allowed => start.allowed);
    expect(allowed).toHaveLength(SIGN_IN_THROTTLE.ip.lockAfter);
    expect(new Set(allowed.map((start) => start.counted[0]!.attempt)).size).toBe(SIGN_IN_THROTTLE.ip.lockAfter);
    await Promise.all(allowed.map((start) => recordSignInFailure(start)));
    expect(await beginSignInAttempt('otra@example.com', '10.2.2.2')).toMatchObject({ allowed: false });
    expect(await beginSignInAttempt('otra@example.com', '10.2.2.3')).toMatchObject({ allowed: true });
  });
});

describe('password-change throttling (wrong current passwords of a signed-in user)', () => {
  it('locks the account\'s password changes at the 10th failure, whatever address the guesses come from', async () => {
    const refusals: unknown[] = [];
    const lockedNow: unknown[] = [];
    for (let attempt = 1; attempt <= PASSWORD_CHANGE_THROTTLE.password_change_account.lockAfter; attempt++) {
      // A stolen session cookie used from a new address for every guess.
      const start = await beginPasswordChangeAttempt(41, `198.18.0.${attempt}`);
      expect(start.allowed).toBe(true);
      const outcome = await recordPasswordChangeFailure(start as Allowed);
      refusals.push(outcome.refusal);
      lockedNow.push(...outcome.lockedNow);
    }
    expect(refusals.slice(6)).toEqual([{ kind: 'attempts_left', left: 3 }, { kind: 'attempts_left', left: 2 }, { kind: 'attempts_left', left: 1 }, { kind: 'locked_now' }]);
    expect(lockedNow).toEqual(['password_change_account']);
    expect(await beginPasswordChangeAttempt(41, '198.18.1.1')).toEqual({ allowed: false, refusal: { kind: 'locked', minutes: 15 } });
    // Another account's changes, and signing in, count on their own.
    expect((await beginPasswordChangeAttempt(42, '198.18.0.1')).allowed).toBe(true);
    expect((await beginSignInAttempt('cuarenta-y-uno@example.com', '198.18.0.1')).allowed).toBe(true);
  });

  it('reports each lock once when parallel guesses pass the limits', async () => {
    const starts = await Promise.all(Array.from({ length: 30 }, () => beginPasswordChangeAttempt(43, '198.18.2.1')));
    const allowed = starts.filter((start): start is Allowed => start.allowed);
    expect(allowed).toHaveLength(PASSWORD_CHANGE_THROTTLE.password_change_account.lockAfter);
    const outcomes = await Promise.all(allowed.map((start) => recordPasswordChangeFailure(start)));
    const reported = [...starts.flatMap((start) => (start.allowed ? [] : (start.lockedNow ?? []))), ...outcomes.flatMap((outcome) => outcome.lockedNow)];
    // 30 from one address pass the address's 20 as well as the account's 10: both lock, once each.
    expect(reported.sort()).toEqual(['password_change_account', 'password_change_ip']);
  });

  it('the right current password clears the account and gives the address its attempt back', async () => {
    for (let attempt = 0; attempt < 4; attempt++) await recordPasswordChangeFailure((await beginPasswordChangeAttempt(44, '198.18.3.1')) as Allowed);
    await recordPasswordChangeSuccess((await beginPasswordChangeAttempt(44, '198.18.3.1')) as Allowed);
    expect(((await beginPasswordChangeAttempt(44, '198.18.3.1')) as Allowed).counted).toEqual([
      { scope: 'password_change_ip', subject: '198.18.3.1', attempt: 5 },
      { scope: 'password_change_account', subject: '44', attempt: 1 },
    ]);
  });
});
