import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase, type TestDatabase } from '@/tests/support/test-database';
import { beginSignInAttempt, recordSignInFailure, recordSignInSuccess, SIGN_IN_MESSAGES, SIGN_IN_THROTTLE, type AttemptStart } from './throttle';

let testDatabase: TestDatabase;
beforeAll(async () => {
  testDatabase = await useTestDatabase();
});
afterAll(async () => {
  await testDatabase.cleanup();
});

type Allowed = Extract<AttemptStart, { allowed: true }>;

async function fail(email: string, ip: string): Promise<{ start: AttemptStart; message?: string }> {
  const start = await beginSignInAttempt(email, ip);
  return start.allowed ? { start, message: await recordSignInFailure(start) } : { start };
}

describe('sign-in throttling per account', () => {
  it('slows attempts after 5 failures and locks the account at the 10th, from any IP', async () => {
    const delays: number[] = [];
    const messages: string[] = [];
    for (let attempt = 1; attempt <= SIGN_IN_THROTTLE.account.lockAfter; attempt++) {
      const { start, message } = await fail('Ana@Example.com', `10.0.0.${attempt}`);
      expect(start.allowed).toBe(true);
      delays.push((start as Allowed).delayMs);
      messages.push(message!);
    }
    expect(delays).toEqual([0, 0, 0, 0, 0, 1_000, 2_000, 3_000, 4_000, 5_000]);
    expect(messages[0]).toBe(SIGN_IN_MESSAGES.invalidCredentials);
    expect(messages[9]).toBe(SIGN_IN_MESSAGES.lockedNow);

    // The e-mail is compared lowercased, and the lock holds whatever the address.
    const locked = await beginSignInAttempt('ana@example.com', '10.9.9.9');
    expect(locked).toEqual({ allowed: false, message: SIGN_IN_MESSAGES.locked(15) });
  });

  it('a success clears the account and gives the IP its attempt back', async () => {
    for (let attempt = 0; attempt < 4; attempt++) await fail('luis@example.com', '10.1.1.1');
    const success = await beginSignInAttempt('luis@example.com', '10.1.1.1');
    expect(success.allowed).toBe(true);
    await recordSignInSuccess(success as Allowed);
    const next = (await beginSignInAttempt('luis@example.com', '10.1.1.1')) as Allowed;
    expect(next.counted).toEqual([
      { scope: 'ip', subject: '10.1.1.1', attempt: 5 },
      { scope: 'account', subject: 'luis@example.com', attempt: 1 },
    ]);
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
