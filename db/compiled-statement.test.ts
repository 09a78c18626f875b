// Hot statements compiled once (db/compiled-statement.ts): the same text and parameters drizzle
// builds for the same SQL, one compilation per shape, and a value left out fails loudly instead
// of reaching the database as null.
import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { compiledPerShape, compileStatement, statementParameters } from './compiled-statement';

describe('compiled statements', () => {
  it('fill their placeholders in place, fixed values kept, as drizzle would have built the statement', () => {
    const statement = compileStatement(sql`select ${sql.placeholder('a')}::integer, ${'fixed'}::text, ${sql.placeholder('b')}::text, ${sql.placeholder('a')}::integer`);
    const direct = new PgDialect().sqlToQuery(sql`select ${7}::integer, ${'fixed'}::text, ${null}::text, ${7}::integer`);
    expect(statement.text).toBe(direct.sql);
    expect(statementParameters(statement, { a: 7, b: null })).toEqual(direct.params);
  });

  it('refuse a call that leaves a placeholder without its value', () => {
    const statement = compileStatement(sql`select ${sql.placeholder('a')}::integer`);
    expect(() => statementParameters(statement, {})).toThrow(/placeholder "a"/);
  });

  it('are compiled once per shape', () => {
    let builds = 0;
    const perShape = compiledPerShape((shape: '1' | '2') => {
      builds++;
      return sql`select ${sql.join(Array.from({ length: Number(shape) }, (_, index) => sql`${sql.placeholder(`k${index}`)}::text`), sql`, `)}`;
    });
    expect(perShape('2')).toBe(perShape('2'));
    expect(perShape('1').text).toBe('select $1::text');
    expect(perShape('2').text).toBe('select $1::text, $2::text');
    expect(builds).toBe(2);
  });
});
