import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase, type TestDatabase } from '@/tests/support/test-database';
import type { SignInRefusal } from './sign-in-errors';
import {
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

async function fail(email: string, ip: string): Promise<{ start: AttemptStart; refusal?: SignInRefusal }> {
  const start = await beginSignInAttempt(email, ip);
  return start.allowed ? { start, refusal: (await recordSignInFailure(start)).refusal } : { start };
}

describe('sign-in throttling of one account from one address', () => {
  it('slows attempts after 5 failures and locks that address out of the account at the 10th', async () => {
    const delays: number[] = [];
    const refusals: SignInRefusal[] = [];
    for (let attempt = 1; attempt <= SIGN_IN_THROTTLE.account_ip.lockAfter; attempt++) {
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

    const administrator = await beginSignInAttempt('admin@example.com', '198.51.100.10');
    expect(administrator.allowed).toBe(true);
    // The account as a whole is slowed down, never locked.
    expect((administrator as Allowed).delayMs).toBeLessThanOrEqual(SIGN_IN_THROTTLE.maxDelayMs);
  });

  it('slows guesses spread over many addresses, but never locks the account', async () => {
    const delays: number[] = [];
    for (let address = 1; address <= 15; address++) {
      const { start } = await fail('carla@example.com', `192.0.2.${address}`);
      expect(start.allowed).toBe(true);
      delays.push((start as Allowed).delayMs);
    }
    expect(delays.slice(0, 5)).toEqual([0, 0, 0, 0, 0]);
    expect(delays.slice(-3)).toEqual([5_000, 5_000, 5_000]);
    expect((await beginSignInAttempt('carla@example.com', '192.0.2.200')).allowed).toBe(true);
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
