import type { ReactNode } from 'react';
import { REFUSAL_REASON_LABELS, UNSERVED_CAUSE_LABELS } from '@/lib/vocabulary/labels';
import { describeRequestTrace } from '@/lib/core/request-traces/describe';
import type { RequestTrace } from '@/lib/core/request-traces/read';

/**
 * What happened to a request that left no record, from its trace, in the console's records list
 * and the portal's Consultas alike: one sentence support (or the integrator) can repeat, then why
 * it was not charged. `children` follows it (the console's link to the integration).
 */
export function RequestTraced({ trace, children }: { trace: RequestTrace; children?: ReactNode }) {
  return (
    <section className="card" data-testid="request-traced" aria-labelledby="request-traced-title">
      <h2 id="request-traced-title" className="break-anywhere" data-testid="request-traced-summary">
        {describeRequestTrace(trace)}
      </h2>
      {trace.kind === 'refusal' ? (
        <p>{`El servicio la rechazó antes de consultar ninguna fuente (${REFUSAL_REASON_LABELS[trace.reason]}): no es una consulta registrada y no se cobró. Hora de Guatemala.`}</p>
      ) : trace.kind === 'unserved' ? (
        <p>{`El servicio no pudo atenderla: ${UNSERVED_CAUSE_LABELS[trace.cause]}. No es una consulta registrada y no se cobró. Hora de Guatemala.`}</p>
      ) : (
        <p>Recibió la respuesta guardada de la solicitud original, que ya no tiene registro (pasó su tiempo de conservación). Una repetición nunca se cobra.</p>
      )}
      {children}
    </section>
  );
}
