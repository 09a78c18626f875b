import type { AlertDelivery } from '@/db/schema';
import { ALERT_STATUS_LABELS, ALERT_STATUS_TONES } from '@/lib/alerts/labels';
import { formatDateTime } from '@/lib/format/guatemala-time';

/**
 * The three cells every list of outbox deliveries ends with (the admin alerts and an
 * integration's notifications): its state (and when it was sent), its attempts, its last error.
 */
export function DeliveryStateCells({ delivery }: { delivery: Pick<AlertDelivery, 'status' | 'sentAt' | 'attempts' | 'lastError'> }) {
  return (
    <>
      <td data-label="Estado">
        <span className={`badge ${ALERT_STATUS_TONES[delivery.status]}`}>{ALERT_STATUS_LABELS[delivery.status]}</span>
        {delivery.sentAt && <span className="small muted"> {formatDateTime(delivery.sentAt)}</span>}
      </td>
      <td className="num" data-label="Intentos">
        {delivery.attempts}
      </td>
      <td className="small" data-label="Último error">
        {delivery.lastError ?? <span className="muted">—</span>}
      </td>
    </>
  );
}
