import type { LookupKind } from '@/db/schema';

/**
 * Filters of the query-record list, read from the URL (lib/presentation/record-filters.ts parses
 * them and says what was typed wrong). The list page and the CSV export read the same filters, so
 * an export holds exactly what the list shows.
 */
export interface RecordFilters {
  integracion?: number;
  consulta?: LookupKind;
  /** An outcome class (Outcome: success, client_error, source_error) or one exact HTTP status ("404"). */
  estado?: string;
  desde?: string;
  hasta?: string;
  /** A NIT or a CUI in any common writing (576937-k, 576937K, 2415 75181 0101): matched normalized. */
  identificador?: string;
  /** One request's id (req_…), as the integrator got it in x-request-id: at most one record. */
  solicitud?: string;
}
export type RecordFilterField = keyof RecordFilters;

/** Search parameters as Next gives them to a page, or a URLSearchParams from a route handler. */
export type SearchParamsInput = Record<string, string | string[] | undefined> | URLSearchParams;

export function plainSearchParams(input: SearchParamsInput): Record<string, string> {
  const entries = input instanceof URLSearchParams ? [...input.entries()] : Object.entries(input);
  const plain: Record<string, string> = {};
  for (const [key, value] of entries) {
    const single = Array.isArray(value) ? value[0] : value;
    if (typeof single === 'string') plain[key] = single;
  }
  return plain;
}

/** The filters back as search parameters (for links: pagination, export). */
export function recordFiltersToSearchParams(filters: RecordFilters): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value !== undefined && value !== '') params.set(key, String(value));
  return params;
}
