import type { ReactNode } from 'react';

/** One figure with its label, in the grids at the top of the panel and the integration page. */
export function Stat({ label, testId, children }: { label: string; testId?: string; children: ReactNode }) {
  return (
    <div className="stat">
      <div className="label">{label}</div>
      <div className="value" data-testid={testId}>
        {children}
      </div>
    </div>
  );
}
