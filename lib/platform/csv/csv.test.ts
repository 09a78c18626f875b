// CSV fields are formatted by PostgreSQL (csv_field, centavos_decimal), on both databases, and a
// few by the app (csvField), by the same rule.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { csvField as appCsvField } from './csv';
import { useTestDatabase, type TestDatabase } from '@/tests/support/test-database';

let testDatabase: TestDatabase;

beforeAll(async () => {
  testDatabase = await useTestDatabase();
});

afterAll(async () => {
  await testDatabase?.cleanup();
});

async function csvField(value: string | null): Promise<string> {
  const [row] = await (await database()).rows<{ field: string }>(sql`select csv_field(${value}::text) as field`);
  return row!.field;
}

async function centavosDecimal(centavos: number | null): Promise<string | null> {
  const [row] = await (await database()).rows<{ decimal: string | null }>(sql`select centavos_decimal(${centavos}::bigint) as decimal`);
  return row!.decimal;
}

describe('csv_field', () => {
  it('quotes separators, quotes and line breaks; NULL is an empty field', async () => {
    expect(await csvField('1234567,890')).toBe('"1234567,890"');
    expect(await csvField('dijo "hola"')).toBe('"dijo ""hola"""');
    expect(await csvField('dos\nlíneas')).toBe('"dos\nlíneas"');
    expect(await csvField('línea\r')).toBe('"línea\r"');
    expect(await csvField(null)).toBe('');
    expect(await csvField('576937-K')).toBe('576937-K');
  });

  it('neutralizes text a spreadsheet would run as a formula', async () => {
    expect(await csvField('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(await csvField('+502')).toBe("'+502");
    expect(await csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(await csvField('-Q 5.00')).toBe("'-Q 5.00");
    expect(await csvField('\t=1')).toBe("'\t=1");
  });

  it('neutralizes a formula hidden behind leading whitespace', async () => {
    expect(await csvField(' =1+1')).toBe("' =1+1");
    expect(await csvField('\u00a0\u00a0@SUM(A1)')).toBe("'\u00a0\u00a0@SUM(A1)");
    expect(await csvField('\n-2+3')).toBe(`"'\n-2+3"`);
    expect(await csvField('  576937-K')).toBe('  576937-K');
  });
});

// What a spreadsheet could run as a formula: each starter (ASCII, full-width, small form, super-
// and subscript), alone and behind leading whitespace; and text it would not run, left as it is.
const FORMULA_STARTS = ['=', '+', '-', '@', '\t', '\r', '＝', '＋', '－', '＠', '﹦', '﹢', '﹣', '﹫', '⁼', '⁺', '₌', '₊', '﬩'];
const LEADING_WHITESPACE = ['', ' ', '  ', '\u00a0', '\u3000', '\ufeff', '\n', ' \t'];
/** The text a spreadsheet reads from one CSV field. */
function unquoted(field: string): string {
  return field.startsWith('"') ? field.slice(1, -1).replaceAll('""', '"') : field;
}

const HARMLESS = ['576937-K', 'Q 5.00', '  hola', "'=1", '1+1', 'a=b', 'ｘ＝1', '', '"=1"'];

describe('the one formula rule, in the app and in PostgreSQL', () => {
  it('prefixes an apostrophe to every value that starts a formula, in both, the same way', async () => {
    for (const start of FORMULA_STARTS) {
      for (const whitespace of LEADING_WHITESPACE) {
        const value = `${whitespace}${start}1+1`;
        const field = await csvField(value);
        expect(unquoted(field), JSON.stringify(value)).toBe(`'${value}`);
        expect(appCsvField(value), JSON.stringify(value)).toBe(field);
      }
    }
  });

  it('leaves other text as it is, in both', async () => {
    for (const value of HARMLESS) {
      const field = await csvField(value);
      expect(unquoted(field), JSON.stringify(value)).toBe(value);
      expect(appCsvField(value), JSON.stringify(value)).toBe(field);
    }
    expect(appCsvField(null)).toBe(await csvField(null));
  });
});

describe('centavos_decimal', () => {
  it('writes quetzales as numbers a spreadsheet can add up, negative ones included', async () => {
    expect(await centavosDecimal(150)).toBe('1.50');
    expect(await centavosDecimal(0)).toBe('0.00');
    expect(await centavosDecimal(-500)).toBe('-5.00');
    expect(await centavosDecimal(123_456_789)).toBe('1234567.89');
    expect(await centavosDecimal(null)).toBeNull();
  });
});
