// A watch list's changes as a person downloads them from the portal: one line per change, in words
// (the API's JSON keeps the codes for machines), the time in Guatemala beside UTC, with a byte-order
// mark and every field by the exports' one rule (lib/platform/csv/csv.ts), so Excel reads the accents and
// a name that starts like a formula is written as text.
import { csvField } from '@/lib/platform/csv/csv';
import { formatGuatemalanTimestamp } from '@/lib/platform/time/guatemala-time';
import type { NamedWatchListChange } from './changes';
import { WATCH_CHANGE_KIND_LABELS, watchedValueLabel } from './labels';

export const WATCH_CHANGES_CSV_COLUMNS = ['detectado_guatemala', 'detectado_utc', 'ejecucion', 'lote', 'nit', 'nombre', 'cambio', 'antes', 'despues'] as const;

/** The header line, with the byte-order mark. */
export function watchChangesCsvHeader(): string {
  return `\uFEFF${WATCH_CHANGES_CSV_COLUMNS.join(',')}\r\n`;
}

/** One change's line: "Omiso", "no", "sí" as the page reads them; an empty name when no kept answer has one. */
export function watchChangeCsvLine(change: NamedWatchListChange): string {
  const cells = [
    formatGuatemalanTimestamp(change.detectedAt),
    change.detectedAt.toISOString(),
    String(change.run),
    change.jobId,
    change.nit,
    change.name,
    WATCH_CHANGE_KIND_LABELS[change.kind],
    watchedValueLabel(change.kind, change.before),
    watchedValueLabel(change.kind, change.after),
  ];
  return `${cells.map(csvField).join(',')}\r\n`;
}
