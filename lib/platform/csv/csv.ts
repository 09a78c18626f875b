import { sql, type SQL } from 'drizzle-orm';

// CSV exports are formatted by PostgreSQL, row by row, with the SQL functions csv_field and
// centavos_decimal (migrations 0002, 0047): one definition of the quoting and formula rules for
// every export, and the app only passes lines along, so a multi-million-row export allocates a
// string per row instead of a tree of objects, and its memory stays flat.

/**
 * A column of an export: its header and its SQL value. Text goes through csv_field (quoted, and
 * neutralized when a spreadsheet would run it as a formula); numbers are written as they are
 * (`1.50`, `-5.00`) so spreadsheets can add them up.
 */
export type CsvColumn = { header: string; text: SQL } | { header: string; number: SQL };

/** The SQL of some consecutive fields of a CSV line, joined by commas (no line break). */
export function csvFieldsSql(columns: readonly CsvColumn[]): SQL<string> {
  const fields = columns.map((column) => ('text' in column ? sql`csv_field(${column.text})` : sql`coalesce((${column.number})::text, '')`));
  return sql<string>`${sql.join(fields, sql` || ',' || `)}`;
}

/** The SQL of one CSV line (with its CRLF) for a row, from the export's columns. */
export function csvLineSql(columns: readonly CsvColumn[]): SQL<string> {
  return sql<string>`${csvFieldsSql(columns)} || E'\\r\\n'`;
}

// csv_field's rules (migrations 0002 and 0047), for the fields formatted in the app (decrypted
// identifiers, a job's results, "¿Quién consultó?"). A formula starts with = + - @, a tab or a
// carriage return, or a character a spreadsheet may fold to one of the four (NFKC: full-width ＝,
// small forms, super- and subscripts), also after leading whitespace.
const FORMULA_START =
  /^[\s\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]*[-=+@\t\r\uff1d\uff0b\uff0d\uff20\ufe66\ufe62\ufe63\ufe6b\u207c\u207a\u208c\u208a\ufb29]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One CSV field formatted in the app, exactly as csv_field formats it in SQL (csv.test.ts compares them). */
export function csvField(value: string | null): string {
  if (value === null) return '';
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The header line (with a byte-order mark, so spreadsheet programs read accents as UTF-8). */
export function csvHeader(columns: readonly CsvColumn[]): string {
  return `\uFEFF${columns.map((column) => column.header).join(',')}\r\n`;
}

/**
 * A CSV produced batch by batch as the client reads: `batches` yields lines already formatted.
 * A client that stops reading stops the queries; `onError` is told when a batch fails mid-way.
 */
export function csvTextStream(header: string, batches: AsyncGenerator<string[]>, onError: (error: unknown) => void): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(header));
    },
    async pull(controller) {
      try {
        const next = await batches.next();
        if (next.done) {
          controller.close();
          return;
        }
        controller.enqueue(encoder.encode(next.value.join('')));
      } catch (error) {
        onError(error);
        controller.error(error);
      }
    },
    async cancel() {
      await batches.return(undefined);
    },
  });
}
