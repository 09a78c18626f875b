import type { TopUpRequestState } from '@/db/schema';

// The states as the portal and the console read them; no server-only imports here.
export const TOP_UP_STATE_LABELS: Record<TopUpRequestState, string> = {
  pending: 'Pendiente de revisión',
  approved: 'Acreditada',
  rejected: 'Rechazada',
  cancelled: 'Cancelada',
};
