import { sql, type SQL } from 'drizzle-orm';

// CSV exports are formatted by PostgreSQL, row by row, with the SQL functions csv_field and
// centavos_decimal (migration 0002): one definition of the quoting and formula rules for every
// export, and the app only passes lines along, so a multi-million-row export allocates a string
// per row instead of a tree of objects, and its memory stays flat.

/**
 * A column of an export: its header and its SQL value. Text goes through csv_field (quoted, and
 * neutralized when a spreadsheet would run it as a formula); numbers are written as they are
 * (`1.50`, `-5.00`) so spreadsheets can add them up.
 */
export type CsvColumn = { header: string; text: SQL } | { header: string; number: SQL };

/** The SQL of one CSV line (with its CRLF) for a row, from the export's columns. */
export function csvLineSql(columns: readonly CsvColumn[]): SQL<string> {
  return sql<string>`${csvFieldsSql(columns)} || E'\\r\\n'`;
}

/** The SQL of a row's fields joined by commas, without the line end (part of a line the app completes). */
export function csvFieldsSql(columns: readonly CsvColumn[]): SQL<string> {
  const fields = columns.map((column) => ('text' in column ? sql`csv_field(${column.text})` : sql`coalesce((${column.number})::text, '')`));
  return sql<string>`${sql.join(fields, sql` || ',' || `)}`;
}

/**
 * One text field as csv_field (migration 0002) writes it, for the few fields the app formats
 * itself (identifiers, masked or not, which PostgreSQL does not see in clear).
 */
export function csvField(value: string | null): string {
  if (value === null) return '';
  const quoted = /[",\r\n]/.test(value);
  if (/^[\s\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]*[-=+@\t\r]/.test(value)) {
    return quoted ? `"'${value.replaceAll('"', '""')}"` : `'${value}`;
  }
  return quoted ? `"${value.replaceAll('"', '""')}"` : value;
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
