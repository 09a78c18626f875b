// What a source call can end in, as values. One failure per row of the contract's catalog error
// table that names the source; the lookup pipeline maps each to its status and message, so no
// HTTP type of the upstream leaks past lib/sources.
import type { SourceFault } from './faults';

export type SourceFailure =
  | 'data_rejected' // source rejected the query data -> 400
  | 'auth_rejected' // source rejected the service's authentication -> 401
  | 'balance_exhausted' // query service's own balance exhausted -> 402
  | 'query_type_denied' // source denies this query type -> 403
  | 'not_found' // no result, or the source marked the query failed -> 404
  | 'rate_limited' // source is limiting queries -> 429
  | 'unavailable'; // no response, 5xx, timeout or unparseable answer -> 502

/**
 * `detail` is an internal description for logs and query records, in English; it is never shown to
 * integrators. `fault` says the same as data, for the console's Spanish explanation.
 * `notSent`: the call failed fast (breaker open, bulkhead full) and never reached the source.
 */
export type SourceResult<T> = { ok: true; value: T } | { ok: false; failure: SourceFailure; detail: string; fault: SourceFault; notSent?: true };

export const SOURCE_FAILURES: readonly SourceFailure[] = [
  'data_rejected',
  'auth_rejected',
  'balance_exhausted',
  'query_type_denied',
  'not_found',
  'rate_limited',
  'unavailable',
];

export function sourceSuccess<T>(value: T): SourceResult<T> {
  return { ok: true, value };
}

export function sourceFailure<T = never>(failure: SourceFailure, detail: string, fault: SourceFault): SourceResult<T> {
  return { ok: false, failure, detail, fault };
}

/**
 * The catalog source's HTTP status to a failure. Only the status decides: the provider's error
 * bodies are not guaranteed to be JSON (a proxy in front of it can answer), and their texts change.
 * Statuses the protocol does not define are treated as the source failing (502): the query was
 * not resolved, so it must not be charged or reported as the integrator's fault.
 */
export function classifyCatalogErrorStatus(status: number): SourceFailure {
  switch (status) {
    case 400:
      return 'data_rejected';
    case 401:
      return 'auth_rejected';
    case 402:
      return 'balance_exhausted';
    case 403:
      return 'query_type_denied';
    case 404:
      return 'not_found';
    case 429:
      return 'rate_limited';
    default:
      return 'unavailable';
  }
}
