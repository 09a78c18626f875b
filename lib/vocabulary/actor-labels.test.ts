// Issue 24, defect 15: the balance history's CSV said "system:lookup" and "user:1 …" in its
// "quien" column; the page and the file now say the same thing, in words.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { useTestDatabase, type TestDatabase } from '@/tests/support/test-database';
import { describeLedgerActor, ledgerActorSql } from './actor-labels';

const EXPECTED: Array<[string, string]> = [
  ['user:3 ana@example.com', 'ana@example.com'],
  ['cli', 'CLI'],
  ['cli:ops', 'CLI (ops)'],
  ['system:lookup', 'Consulta a la API'],
  ['system:sweeper', 'Liberación automática de reservas'],
  ['system:seed', 'Datos de desarrollo'],
  ['system:otra-cosa', 'Sistema (otra-cosa)'],
  ['system', 'Sistema'],
  ['algo raro', 'algo raro'],
];

let testDatabase: TestDatabase;
beforeAll(async () => {
  testDatabase = await useTestDatabase();
});
afterAll(async () => {
  await testDatabase?.cleanup();
});

describe('who moved money, in words', () => {
  it('on the page', () => {
    expect(EXPECTED.map(([actor]) => [actor, describeLedgerActor(actor)])).toEqual(EXPECTED);
  });

  it('in the exports the database writes, identically', async () => {
    const handle = await database();
    for (const [actor, label] of EXPECTED) {
      const [row] = await handle.rows<{ label: string }>(sql`select ${ledgerActorSql(sql`${actor}::text`)} as label`);
      expect(row?.label, actor).toBe(label);
    }
  });
});
