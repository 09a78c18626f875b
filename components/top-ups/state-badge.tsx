import type { TopUpRequestState } from '@/db/schema';
import { TOP_UP_STATE_LABELS } from '@/lib/flows/top-ups/labels';

const TONE: Record<TopUpRequestState, string> = { pending: 'warn', approved: 'ok', rejected: 'danger', cancelled: 'muted' };

export function TopUpStateBadge({ state }: { state: TopUpRequestState }) {
  return (
    <span className={`badge ${TONE[state]}`} data-testid="top-up-state">
      {TOP_UP_STATE_LABELS[state]}
    </span>
  );
}
