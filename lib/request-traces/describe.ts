import { LOOKUP_ROUTES, REFUSAL_REASON_SHORT_LABELS } from '@/lib/format/labels';
import { formatDateTime } from '@/lib/format/guatemala-time';
import type { RequestTrace } from './read';

/**
 * What happened to a request that left no record, in the sentence support repeats to the
 * integrator (the console's records search and the CLI's records:list --request-id): "req_…:
 * coop-ejemplo, /api/catalogos/cui-nit, 402 sin saldo, 24/11/2026 04:02:09, sin cobro".
 */
export function describeRequestTrace(trace: RequestTrace): string {
  // Wrong credentials name no integration: the login sent could be anyone's.
  const who = trace.integration ? trace.integration.nombre : 'sin integración identificada';
  const what =
    trace.kind === 'refusal'
      ? `${trace.httpStatus} ${REFUSAL_REASON_SHORT_LABELS[trace.reason]}`
      : `${trace.httpStatus}, repetición de ${trace.replayOf} con la misma Idempotency-Key`;
  return `${trace.requestId}: ${who}, ${LOOKUP_ROUTES[trace.lookup]}, ${what}, ${formatDateTime(trace.at)}, sin cobro`;
}
