import type { AlertDelivery } from '@/db/schema';
import { explainDeliveryError } from '@/lib/reactions/alerts/delivery-errors';
import { ALERT_STATUS_LABELS, ALERT_STATUS_TONES } from '@/lib/presentation/alert-labels';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';

type Delivery = Pick<AlertDelivery, 'status' | 'sentAt' | 'attempts' | 'lastError' | 'channel' | 'target' | 'nextAttemptAt'>;

/**
 * The three cells every list of outbox deliveries ends with (the admin alerts and an
 * integration's notifications): its state (when it was sent, or when it is tried again), its
 * attempts, and why it failed in Spanish, the recorded technical text folded under a detail.
 */
export function DeliveryStateCells({ delivery }: { delivery: Delivery }) {
  const retrying = delivery.status === 'pending' && delivery.attempts > 0;
  return (
    <>
      <td data-label="Estado">
        {/* One element per cell: on a phone each cell is a "label: value" line (table.data.stacked). */}
        <span>
          <span className={`badge ${ALERT_STATUS_TONES[delivery.status]}`}>{ALERT_STATUS_LABELS[delivery.status]}</span>
          {delivery.sentAt && <span className="small muted"> {formatDateTime(delivery.sentAt)}</span>}
          {retrying && <span className="small muted"> nuevo intento {formatDateTime(delivery.nextAttemptAt)}</span>}
        </span>
      </td>
      <td className="num" data-label="Intentos">
        {delivery.attempts}
      </td>
      <td className="small" data-label="Último error">
        {delivery.lastError === null ? <span className="muted">—</span> : <DeliveryError delivery={delivery} error={delivery.lastError} />}
      </td>
    </>
  );
}

function DeliveryError({ delivery, error }: { delivery: Delivery; error: string }) {
  const explained = explainDeliveryError(error, delivery);
  return (
    <div>
      <span data-testid="delivery-error">{explained.text}</span>
      {explained.technical && (
        <details className="raw-detail">
          <summary>Detalle técnico</summary>
          <pre className="mono small">{explained.technical}</pre>
        </details>
      )}
    </div>
  );
}
