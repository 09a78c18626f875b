// The console's credential check on a real database: what an attacker's input costs and what a
// failure shows. Runs on PGlite and on PostgreSQL.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { useTestDatabase, type TestDatabase } from '@/tests/support/test-database';
import { authenticateConsoleUser } from './credentials';
import { parseSignInErrorCode } from './sign-in-errors';

let testDatabase: TestDatabase;
beforeAll(async () => {
  testDatabase = await useTestDatabase();
});
afterAll(async () => {
  await testDatabase.cleanup();
});

const FROM = { 'x-forwarded-for': '203.0.113.9' };

async function refusalCode(email: string, password: string): Promise<string> {
  try {
    await authenticateConsoleUser(email, password, FROM);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected the sign-in to be refused');
}

describe('authenticateConsoleUser', () => {
  it('refuses an e-mail longer than any account can have before it reaches the throttle table', async () => {
    const huge = `${'a'.repeat(100_000)}@example.com`;
    expect(await refusalCode(huge, 'some password')).toBe('invalid_credentials');
    const [row] = await (await database()).rows<{ longest: number | null }>(sql`select max(length(t.subject))::integer as longest from sign_in_throttles t`);
    expect(row?.longest ?? 0).toBeLessThanOrEqual(300);
  });

  it('refuses with a code that says nothing when the database fails, never with the error', async () => {
    await (await database()).rows(sql`alter table sign_in_throttles rename to sign_in_throttles_away`);
    try {
      const code = await refusalCode('ana.secreta@example.com', 'a guessed password');
      expect(code).toBe('unavailable');
      expect(parseSignInErrorCode(code)).toEqual({ kind: 'unavailable' });
    } finally {
      await (await database()).rows(sql`alter table sign_in_throttles_away rename to sign_in_throttles`);
    }
  });
});
