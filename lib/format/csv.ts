/** A number our code formatted ("1.50", "-5.00"): written as it is, never taken for a formula. */
export interface CsvDecimal {
  decimal: string;
}

export type CsvValue = string | number | null | CsvDecimal;

/**
 * One CSV field. Text can come from integrators (identifiers, upstream messages), so a value a
 * spreadsheet would run as a formula (=, +, -, @, tab or carriage return first, also after
 * leading spaces) is prefixed with an apostrophe. Numbers and our own decimals are left alone so
 * spreadsheets can add them up.
 */
export function csvField(value: CsvValue): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  let text = typeof value === 'string' ? value : value.decimal;
  if (typeof value === 'string' && /^[\s]*[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvLine(values: readonly CsvValue[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

/** A column: its header and how to read it from a row. */
export type CsvColumn<Row> = readonly [header: string, value: (row: Row) => CsvValue];

/**
 * Rows as CSV, produced batch by batch as the client reads: memory stays flat at any size, and a
 * client that stops reading stops the queries. Starts with a byte-order mark so spreadsheet
 * programs read accents as UTF-8. `onError` is told when a batch fails mid-stream.
 */
export function csvStream<Row>(
  columns: ReadonlyArray<CsvColumn<Row>>,
  batches: AsyncGenerator<Row[]>,
  onError: (error: unknown) => void,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(`\uFEFF${csvLine(columns.map(([header]) => header))}`));
    },
    async pull(controller) {
      try {
        const next = await batches.next();
        if (next.done) {
          controller.close();
          return;
        }
        let text = '';
        for (const row of next.value) text += csvLine(columns.map(([, value]) => value(row)));
        controller.enqueue(encoder.encode(text));
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
