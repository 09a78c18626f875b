import { sql } from 'drizzle-orm';
import { integrations, queryRecords } from '@/db/schema';
import { csvField, csvFieldsSql, csvHeader, csvTextStream, type CsvColumn } from '@/lib/platform/csv/csv';
import { GUATEMALA_OFFSET_HOURS } from '@/lib/platform/time/guatemala-time';
import { LOOKUP_LABELS } from '@/lib/vocabulary/labels';
import { CURRENCY } from '@/lib/platform/money';
import type { KeysetCursor } from '@/lib/platform/paging/keyset';
import { openNullable } from '@/lib/core/sealing/envelope';
import type { RecordFilters } from './filters';
import { maskCuiColumn, maskIdentifiersInText, maskNitColumn } from '@/lib/core/sealing/masking';
import { iterateRecordLines, iterateRecordRows, type RecordLineFormat } from './list';

const lookupLabel = sql.join(
  [sql`case ${queryRecords.lookup}`, ...Object.entries(LOOKUP_LABELS).map(([lookup, label]) => sql`when ${lookup}::lookup_kind then ${label}::text`), sql`end`],
  sql` `,
);

// The columns before and after the identifiers, formatted by PostgreSQL; the NIT and the CUI are
// stored encrypted, so they are decrypted and formatted here, between the two.
const BEFORE_IDENTIFIERS: readonly CsvColumn[] = [
  { header: 'id', number: sql`${queryRecords.id}` },
  { header: 'fecha_utc', text: sql`to_char(${queryRecords.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')` },
  {
    header: 'fecha_guatemala',
    text: sql`to_char(${queryRecords.createdAt} at time zone 'UTC' + make_interval(hours => ${GUATEMALA_OFFSET_HOURS}::integer), 'YYYY-MM-DD HH24:MI:SS')`,
  },
  { header: 'integracion', text: sql`${integrations.nombre}` },
  { header: 'consulta', text: lookupLabel },
  { header: 'estado_http', number: sql`${queryRecords.httpStatus}` },
  { header: 'tiempo_respuesta_ms', number: sql`${queryRecords.responseTimeMs}` },
];
const AFTER_IDENTIFIERS: readonly CsvColumn[] = [
  { header: 'cobrado', number: sql`centavos_decimal(${queryRecords.chargedCentavos})` },
  { header: 'tarifa', number: sql`centavos_decimal(${queryRecords.tariffCentavos})` },
  { header: 'moneda', text: sql`${CURRENCY}::text` },
  { header: 'error', text: sql`${queryRecords.errorMessage}` },
  { header: 'request_id', text: sql`${queryRecords.requestId}` },
];

export const RECORD_CSV_COLUMNS: readonly CsvColumn[] = [
  ...BEFORE_IDENTIFIERS,
  { header: 'nit', text: sql`${queryRecords.nit}` },
  { header: 'cui', text: sql`${queryRecords.cui}` },
  ...AFTER_IDENTIFIERS,
];

/** How a line shows the record's identifiers (given decrypted): in full, or masked (the retention archive). */
type IdentifierText = (identifier: string | null, column: 'nit' | 'cui') => string | null;

function recordCsvLine(identifierText: IdentifierText): RecordLineFormat {
  return {
    select: {
      before: csvFieldsSql(BEFORE_IDENTIFIERS),
      nit: sql`${queryRecords.nit}`,
      cui: sql`${queryRecords.cui}`,
      after: csvFieldsSql(AFTER_IDENTIFIERS),
    },
    format: (row) => {
      const nit = identifierText(openNullable(row.nit as string | null, 'nit'), 'nit');
      const cui = identifierText(openNullable(row.cui as string | null, 'cui'), 'cui');
      return `${row.before as string},${csvField(nit)},${csvField(cui)},${row.after as string}\r\n`;
    },
  };
}

/** A CSV line of a record with its identifiers in full (the console's export, a statement's charges). */
export const RECORD_CSV_LINE = recordCsvLine((identifier) => identifier);

/** A CSV line of a record with its identifiers masked as support sees them (the retention archive: lib/flows/retention; the portal's statement CSV). */
export const MASKED_RECORD_CSV_LINE = recordCsvLine((identifier, column) => (column === 'nit' ? maskNitColumn(identifier) : maskCuiColumn(identifier)));

// The fields the app formats itself: the identifiers, and the source's error detail, which may echo them.
const APP_FORMATTED = new Set(['nit', 'cui', 'error']);

/** The columns in order as runs PostgreSQL formats (joined by commas) and single fields the app formats. */
const EXPORT_SEGMENTS: Array<{ sql: CsvColumn[] } | { app: CsvColumn }> = [];
for (const column of RECORD_CSV_COLUMNS) {
  const last = EXPORT_SEGMENTS.at(-1);
  if (APP_FORMATTED.has(column.header)) EXPORT_SEGMENTS.push({ app: column });
  else if (last && 'sql' in last) last.sql.push(column);
  else EXPORT_SEGMENTS.push({ sql: [column] });
}
const EXPORT_SELECTION = Object.fromEntries(
  EXPORT_SEGMENTS.map((segment, index) => [`s${index}`, 'sql' in segment ? csvFieldsSql(segment.sql) : 'text' in segment.app ? segment.app.text : segment.app.number]),
);
const NIT_SEGMENT = EXPORT_SEGMENTS.findIndex((segment) => 'app' in segment && segment.app.header === 'nit');
const CUI_SEGMENT = EXPORT_SEGMENTS.findIndex((segment) => 'app' in segment && segment.app.header === 'cui');

export interface ConsoleExportOptions {
  /** 'masked' unless an administrator asked for them in full (and that was logged). */
  identifiers: 'masked' | 'full';
  /** Told how many rows were sent once the file ends (or the client stops reading). */
  onFinished?: (rows: number) => void | Promise<void>;
}

/**
 * The filtered records as CSV (the console's export), newest first, at most `maxRows` of them.
 * PostgreSQL formats every field but the NIT, the CUI and the error detail, which the app adds,
 * masked (identifiers echoed in the error detail too) or in full.
 */
export function recordsCsvStream(
  filters: RecordFilters,
  maxRows: number,
  onError: (error: unknown) => void,
  options: ConsoleExportOptions = { identifiers: 'masked' },
): ReadableStream<Uint8Array> {
  return csvTextStream(csvHeader(RECORD_CSV_COLUMNS), consoleExportLines(filters, maxRows, options), onError);
}

/** The export's first batch of records (then 400, 1,600, 2,000 a batch): its first rows leave at once. */
const EXPORT_FIRST_BATCH = 100;

async function* consoleExportLines(filters: RecordFilters, maxRows: number, options: ConsoleExportOptions): AsyncGenerator<string[]> {
  const line = (row: Record<string, string | null>) => {
    // Stored encrypted: opened here, then written in full or masked.
    const identifiers = { nit: openNullable(row[`s${NIT_SEGMENT}`] ?? null, 'nit'), cui: openNullable(row[`s${CUI_SEGMENT}`] ?? null, 'cui') };
    const fields = EXPORT_SEGMENTS.map((segment, index) => {
      const value = row[`s${index}`] ?? null;
      if ('sql' in segment) return value ?? '';
      if (segment.app.header === 'nit') return csvField(options.identifiers === 'full' ? identifiers.nit : maskNitColumn(identifiers.nit));
      if (segment.app.header === 'cui') return csvField(options.identifiers === 'full' ? identifiers.cui : maskCuiColumn(identifiers.cui));
      if (options.identifiers === 'full') return csvField(value);
      return csvField(value === null ? null : maskIdentifiersInText(value, [identifiers.nit, identifiers.cui]));
    });
    return `${fields.join(',')}\r\n`;
  };
  let sent = 0;
  try {
    for await (const rows of iterateRecordRows<Record<string, string | null>>(filters, EXPORT_SELECTION, { limit: maxRows, firstBatchSize: EXPORT_FIRST_BATCH })) {
      // Counted as handed to the stream: what the client may have received.
      sent += rows.length;
      yield rows.map(line);
    }
  } finally {
    await options.onFinished?.(sent);
  }
}


/**
 * Every record older than `cursor` as CSV, newest first (the retention job's archive), with the
 * identifiers masked: past the retention period the records are kept for accounting and
 * statistics, not to say who was looked up (docs/decisions.md, "Personal data at rest").
 */
export function recordsCsvStreamFrom(cursor: KeysetCursor, onError: (error: unknown) => void): ReadableStream<Uint8Array> {
  return csvTextStream(csvHeader(RECORD_CSV_COLUMNS), iterateRecordLines({}, MASKED_RECORD_CSV_LINE, { startAfter: cursor }), onError);
}
