import { sql } from 'drizzle-orm';
import { integrations, queryRecords } from '@/db/schema';
import { csvHeader, csvLineSql, csvTextStream, type CsvColumn } from '@/lib/format/csv';
import { GUATEMALA_OFFSET_HOURS } from '@/lib/format/guatemala-time';
import { LOOKUP_LABELS } from '@/lib/format/labels';
import { CURRENCY } from '@/lib/money';
import type { KeysetCursor } from '@/lib/paging/keyset';
import type { RecordFilters } from './filters';
import { iterateRecordLines } from './list';

const lookupLabel = sql.join(
  [sql`case ${queryRecords.lookup}`, ...Object.entries(LOOKUP_LABELS).map(([lookup, label]) => sql`when ${lookup}::lookup_kind then ${label}::text`), sql`end`],
  sql` `,
);

export const RECORD_CSV_COLUMNS: readonly CsvColumn[] = [
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
  { header: 'nit', text: sql`${queryRecords.nit}` },
  { header: 'cui', text: sql`${queryRecords.cui}` },
  { header: 'cobrado', number: sql`centavos_decimal(${queryRecords.chargedCentavos})` },
  { header: 'tarifa', number: sql`centavos_decimal(${queryRecords.tariffCentavos})` },
  { header: 'moneda', text: sql`${CURRENCY}::text` },
  { header: 'error', text: sql`${queryRecords.errorMessage}` },
  { header: 'request_id', text: sql`${queryRecords.requestId}` },
];

export const RECORD_CSV_LINE = csvLineSql(RECORD_CSV_COLUMNS);

/** The filtered records as CSV, newest first, at most `maxRows` of them. */
export function recordsCsvStream(filters: RecordFilters, maxRows: number, onError: (error: unknown) => void): ReadableStream<Uint8Array> {
  return csvTextStream(csvHeader(RECORD_CSV_COLUMNS), iterateRecordLines(filters, RECORD_CSV_LINE, { limit: maxRows }), onError);
}

/** Every record older than `cursor` as CSV, newest first (the retention job's archive). */
export function recordsCsvStreamFrom(cursor: KeysetCursor, onError: (error: unknown) => void): ReadableStream<Uint8Array> {
  return csvTextStream(csvHeader(RECORD_CSV_COLUMNS), iterateRecordLines({}, RECORD_CSV_LINE, { startAfter: cursor }), onError);
}
