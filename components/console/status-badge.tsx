import { outcomeOf } from '@/lib/core/records/outcomes';

export function HttpStatusBadge({ status }: { status: number }) {
  const outcome = outcomeOf(status);
  const tone = outcome === 'success' ? 'ok' : outcome === 'client_error' ? 'warn' : 'danger';
  return <span className={`badge ${tone}`}>{status}</span>;
}

export function ActiveBadge({ active, on = 'Activa', off = 'Desactivada' }: { active: boolean; on?: string; off?: string }) {
  return <span className={`badge ${active ? 'ok' : 'off'}`}>{active ? on : off}</span>;
}
