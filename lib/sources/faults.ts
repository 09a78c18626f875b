// Why a call to an upstream failed, as data. Each failure also carries a `detail` in English for
// logs and engineers; the fault is what the console explains in Spanish to support staff
// (lib/presentation/record-errors.ts), without reading that text. It holds statuses, durations and,
// from the upstream's body, only a code out of a closed list, so no identifier can be in it.

/**
 * The catalog source's own reasons for a 400 that tell the integrator what to send (docs/sources.md):
 * a closed list of its codes, kept as data; any other code is not kept.
 */
export const CATALOG_REJECTION_CODES = ['FECHA_NACIMIENTO_REQUERIDA', 'FECHA_NACIMIENTO_NO_COINCIDE'] as const;
export type CatalogRejectionCode = (typeof CATALOG_REJECTION_CODES)[number];

export type SourceFault =
  /**
   * The upstream answered this HTTP status, one that is not a success of its protocol (an error, a
   * redirect, a bare 404). `code`: the catalog source's reason for a 400, when it is one we know.
   */
  | { kind: 'status'; status: number; code?: CatalogRejectionCode }
  /** The upstream answered, but not in its protocol (a body that is not JSON, a required field missing). */
  | { kind: 'unreadable'; status: number }
  /** A 2xx in which the catalog source marked the query failed (estado_consulta FALLIDA). */
  | { kind: 'marked_failed' }
  /** No answer within the ceiling. */
  | { kind: 'timeout'; afterMs: number }
  /** The connection failed or broke before an answer (refused, reset, closed, name not found). */
  | { kind: 'no_answer'; code?: string }
  /** An answer larger than any of the protocol's. */
  | { kind: 'too_large' }
  /** The upstream's address in the configuration is not a URL. */
  | { kind: 'misconfigured' }
  /** Not sent: the source's breaker was open or its bulkhead full (such calls leave no record). */
  | { kind: 'not_sent' };
