import type { ReactNode } from 'react';
import { describeRequestTrace, requestTraceDetail } from '@/lib/presentation/request-traces';
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
      <p>{requestTraceDetail(trace)}</p>
      {children}
    </section>
  );
}
