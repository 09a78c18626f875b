import { logger } from '@/lib/logging/logger';
import { formatQuetzales } from '@/lib/money';
import { LOOKUP_LABELS } from '@/lib/console/labels';
import { formatDateTime } from '@/lib/console/time';
import { iterateRecords, type ConsoleRecord } from './console-queries';
import type { RecordFilters } from './filters';

const COLUMNS: Array<[header: string, value: (record: ConsoleRecord) => string | number | null]> = [
  ['id', (record) => record.id],
  ['fecha_utc', (record) => record.createdAt.toISOString()],
  ['fecha_guatemala', (record) => formatDateTime(record.createdAt)],
  ['integracion', (record) => record.integrationNombre],
  ['consulta', (record) => LOOKUP_LABELS[record.lookup]],
  ['estado_http', (record) => record.httpStatus],
  ['tiempo_respuesta_ms', (record) => record.responseTimeMs],
  ['nit', (record) => record.nit],
  ['cui', (record) => record.cui],
  ['cobrado', (record) => formatQuetzales(record.chargedCentavos)],
  ['tarifa', (record) => (record.tariffCentavos === null ? null : formatQuetzales(record.tariffCentavos))],
  ['error', (record) => record.errorMessage],
  ['request_id', (record) => record.requestId],
];

/**
 * One CSV field. Identifiers and messages come from integrators, so a value a spreadsheet would
 * run as a formula (=, +, -, @, tab, carriage return first) is prefixed with an apostrophe.
 */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function csvLine(values: Array<string | number | null>): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

/**
 * The filtered records as CSV, produced batch by batch as the client reads: memory stays flat
 * at any size, and a client that stops reading stops the queries.
 */
export function recordsCsvStream(filters: RecordFilters): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const batches = iterateRecords(filters);
  return new ReadableStream<Uint8Array>({
    start(controller) {
      // The byte-order mark makes spreadsheet programs read the accents as UTF-8.
      controller.enqueue(encoder.encode(`\uFEFF${csvLine(COLUMNS.map(([header]) => header))}`));
    },
    async pull(controller) {
      try {
        const next = await batches.next();
        if (next.done) {
          controller.close();
          return;
        }
        controller.enqueue(encoder.encode(next.value.map((record) => csvLine(COLUMNS.map(([, value]) => value(record)))).join('')));
      } catch (error) {
        logger('console').error({ err: error }, 'CSV export failed');
        controller.error(error);
      }
    },
    async cancel() {
      await batches.return(undefined);
    },
  });
}
