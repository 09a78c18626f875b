// The lookups' hot statements (a hold, a settlement with its record, a registry's record), run as
// compiled statements (db/compiled-statement.ts), cost one round trip on PostgreSQL: postgres.js
// keeps them prepared on the connection, where drizzle's unnamed statements are described by the
// server before every execution (issue 31). The server's own list of the session's prepared
// statements shows which path a statement took.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDatabase, database } from '@/db/client';
import { compileStatement } from '@/db/compiled-statement';
import { resetEnvCache, useTestDatabase, type TestDatabase } from '@/tests/support/test-database';

let testDatabase: TestDatabase;

beforeAll(async () => {
  // One connection, so the session asked below is the one that ran the statements.
  process.env.DATABASE_POOL_MAX = '1';
  testDatabase = await useTestDatabase();
});

afterAll(async () => {
  delete process.env.DATABASE_POOL_MAX;
  delete process.env.DATABASE_PREPARED_STATEMENTS;
  await testDatabase.cleanup();
  resetEnvCache();
});

async function reopenWith(preparedStatements: 'true' | 'false') {
  await closeDatabase();
  process.env.DATABASE_PREPARED_STATEMENTS = preparedStatements;
  resetEnvCache();
  return database();
}

async function preparedProbes(): Promise<string[]> {
  const rows = await (await database()).rows<{ statement: string }>(sql`select statement from pg_prepared_statements where statement like '%prepared-probe%' and statement not like '%pg_prepared_statements%'`);
  return rows.map((row) => row.statement.replace(/\s+/g, ' ').trim());
}

describe('statements of the lookups’ hot path', () => {
  it('answer the same rows prepared or not, and only they stay prepared on PostgreSQL', async () => {
    const handle = await reopenWith('true');
    const probe = compileStatement(sql`select ${sql.placeholder('value')}::integer * 2 as doubled, ${sql.placeholder('label')}::text as label -- prepared-probe`);
    const unprepared = sql`select ${21}::integer * 2 as doubled -- unprepared-probe`;

    for (const value of [1, 2, 3]) expect(await handle.compiled(probe, { value, label: 'hot' })).toEqual([{ doubled: value * 2, label: 'hot' }]);
    expect(await handle.rows(unprepared)).toEqual([{ doubled: 42 }]);

    if (testDatabase.kind === 'postgres') {
      // Described once, then executed with its values alone: one prepared statement for three runs.
      expect(await preparedProbes()).toEqual(['select $1::integer * 2 as doubled, $2::text as label -- prepared-probe']);
    } else {
      // The embedded database runs in the process: no round trip to save, nothing kept prepared.
      expect(await preparedProbes()).toEqual([]);
    }
  });

  it('are sent unnamed when DATABASE_PREPARED_STATEMENTS=false (PgBouncer in transaction mode without max_prepared_statements)', async () => {
    const handle = await reopenWith('false');
    expect(await handle.compiled(compileStatement(sql`select ${sql.placeholder('value')}::integer * 2 as doubled -- prepared-probe off`), { value: 5 })).toEqual([{ doubled: 10 }]);
    expect(await preparedProbes()).toEqual([]);
  });
});
