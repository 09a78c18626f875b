import { csvStream, type CsvColumn } from '@/lib/format/csv';
import { formatGuatemalanTimestamp } from '@/lib/format/guatemala-time';
import { LOOKUP_LABELS } from '@/lib/format/labels';
import { centavosAsDecimal, CURRENCY } from '@/lib/money';
import type { KeysetCursor } from '@/lib/paging/keyset';
import type { RecordFilters } from './filters';
import { iterateRecords, type ConsoleRecord } from './list';

const COLUMNS: ReadonlyArray<CsvColumn<ConsoleRecord>> = [
  ['id', (record) => record.id],
  ['fecha_utc', (record) => record.createdAt.toISOString()],
  ['fecha_guatemala', (record) => formatGuatemalanTimestamp(record.createdAt)],
  ['integracion', (record) => record.integrationNombre],
  ['consulta', (record) => LOOKUP_LABELS[record.lookup]],
  ['estado_http', (record) => record.httpStatus],
  ['tiempo_respuesta_ms', (record) => record.responseTimeMs],
  ['nit', (record) => record.nit],
  ['cui', (record) => record.cui],
  ['cobrado', (record) => ({ decimal: centavosAsDecimal(record.chargedCentavos) })],
  ['tarifa', (record) => (record.tariffCentavos === null ? null : { decimal: centavosAsDecimal(record.tariffCentavos) })],
  ['moneda', () => CURRENCY],
  ['error', (record) => record.errorMessage],
  ['request_id', (record) => record.requestId],
];

/** The filtered records as CSV, newest first, at most `maxRows` of them. */
export function recordsCsvStream(filters: RecordFilters, maxRows: number, onError: (error: unknown) => void): ReadableStream<Uint8Array> {
  return csvStream(COLUMNS, iterateRecords(filters, { limit: maxRows }), onError);
}

/** Every record older than `cursor` as CSV, newest first (the retention job's archive). */
export function recordsCsvStreamFrom(cursor: KeysetCursor, onError: (error: unknown) => void): ReadableStream<Uint8Array> {
  return csvStream(COLUMNS, iterateRecords({}, { startAfter: cursor }), onError);
}
