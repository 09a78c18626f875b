import type { RecordFilters } from '@/lib/core/records/filters';
import { maskIdentifier } from '@/lib/core/sealing/masking';

/**
 * What the access log keeps of an export's filters: the date range (desde/hasta, "todo" when
 * open) and the other filters, with a searched identifier masked: the log never holds one in clear.
 */
export function exportFiltersForLog(filters: RecordFilters): Record<string, unknown> {
  const { identificador, ...rest } = filters;
  return {
    filters: { ...rest, ...(identificador ? { identificador: maskIdentifier(identificador) } : {}) },
    range: { desde: filters.desde ?? null, hasta: filters.hasta ?? null },
  };
}
