import type { UnservedCause } from '@/db/schema';
import { LOOKUP_PATHS } from '@/lib/vocabulary/lookups';
import { REFUSAL_REASON_LABELS, REFUSAL_REASON_SHORT_LABELS, UNSERVED_CAUSE_LABELS, UNSERVED_CAUSE_SHORT_LABELS } from '@/lib/vocabulary/labels';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';
import type { RequestTrace } from '@/lib/core/request-traces/read';

/**
 * What the integrator should do after an answer the gateway could not serve. None of them ran a
 * lookup or charged one, so asking again is safe (the contract says so of the catalogs' 502); a
 * key in use is asked again with the same key, which then gets the first request's answer or runs.
 */
const UNSERVED_ADVICE: Record<UnservedCause, string> = {
  shed: 'reintente en unos segundos',
  key_in_use: 'reintente con la misma Idempotency-Key',
  credentials_unavailable: 'reintente en unos segundos',
  source_not_sent: 'reintente en unos minutos',
  unhandled: 'reintente; si vuelve a fallar, avísenos',
};

/**
 * What happened to a request that left no record, in the sentence support repeats to the
 * integrator (the console's records search and the CLI's records:list --request-id): "req_…:
 * coop-ejemplo, /api/catalogos/cui-nit, 402 sin saldo, 24/11/2026 04:02:09, sin cobro"; an answer
 * the gateway could not serve also says what to do: "…, 502 servicio saturado, 24/11/2026
 * 04:02:09, sin cobro: reintente en unos segundos".
 */
export function describeRequestTrace(trace: RequestTrace): string {
  // Wrong credentials name no integration: the login sent could be anyone's.
  const who = trace.integration ? trace.integration.nombre : 'sin integración identificada';
  const start = `${trace.requestId}: ${who}, ${LOOKUP_PATHS[trace.lookup]}`;
  const when = formatDateTime(trace.at);
  switch (trace.kind) {
    case 'refusal':
      return `${start}, ${trace.httpStatus} ${REFUSAL_REASON_SHORT_LABELS[trace.reason]}, ${when}, sin cobro`;
    case 'unserved':
      return `${start}, ${trace.httpStatus} ${UNSERVED_CAUSE_SHORT_LABELS[trace.cause]}, ${when}, sin cobro: ${UNSERVED_ADVICE[trace.cause]}`;
    case 'replay':
      return `${start}, ${trace.httpStatus}, repetición de ${trace.replayOf} con la misma Idempotency-Key, ${when}, sin cobro`;
  }
}

/**
 * Why a request left no record and that it was not charged, after describeRequestTrace's sentence:
 * the console's and the portal's card (components/records/request-traced.tsx) and GET /api/consultas/{request_id}.
 */
export function requestTraceDetail(trace: RequestTrace): string {
  switch (trace.kind) {
    case 'refusal':
      return `El servicio la rechazó antes de consultar ninguna fuente (${REFUSAL_REASON_LABELS[trace.reason]}): no es una consulta registrada y no se cobró. Hora de Guatemala.`;
    case 'unserved':
      return `El servicio no pudo atenderla: ${UNSERVED_CAUSE_LABELS[trace.cause]}. No es una consulta registrada y no se cobró. Hora de Guatemala.`;
    case 'replay':
      return 'Recibió la respuesta guardada de la solicitud original, que ya no tiene registro (pasó su tiempo de conservación). Una repetición nunca se cobra.';
  }
}
