import type { LookupKind } from '@/db/schema';
import { traceUnserved } from '@/lib/core/request-traces/buffer';

/**
 * The gateway itself cannot take a lookup now: its queue is full (lib/core/admission), or it has no
 * usable copy of the credentials (lib/core/integrations/directory.ts). The route family answers
 * "unavailable" (catalogs 502, registries 500); nothing was charged, recorded or sent to a source,
 * so a retry is safe. Counted by its cause in the lookup's outcome, not as a refusal.
 */
export interface Unavailable {
  kind: 'unavailable';
  /** key_in_use: an earlier request with the same Idempotency-Key was still running past the source's ceiling. */
  cause: 'shed' | 'credentials_unavailable' | 'key_in_use';
}

/**
 * An Unavailable outcome, traced by the request's id (lib/core/request-traces) so that support's search
 * for it says what happened instead of finding nothing: it leaves no query record.
 */
export function unavailable(
  request: { requestId: string; lookup: LookupKind; integrationId?: number },
  cause: Unavailable['cause'],
): Unavailable {
  traceUnserved({ ...request, cause });
  return { kind: 'unavailable', cause };
}
