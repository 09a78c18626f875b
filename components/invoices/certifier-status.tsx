import Link from 'next/link';
import type { CertifierHealth } from '@/lib/core/invoices/health';
import type { ProviderActivity } from '@/lib/flows/online-top-ups/payments';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';
import type { CallHealth } from '@/lib/platform/operations/call-health';
import { CERTIFIER_STATE_LABELS, CERTIFIER_STATE_TONES, invoicingStoppedBanner, paymentsFailingBanner } from '@/lib/presentation/invoice-labels';

/** «Facturación detenida desde …» on Facturas and the Panel while the certifier does not answer; nothing otherwise. */
export function InvoicingStoppedBanner({ health, link = false }: { health: CertifierHealth; link?: boolean }) {
  const text = invoicingStoppedBanner(health, formatDateTime);
  if (!text) return null;
  return (
    <p className="notice error" role="alert" data-testid="invoicing-stopped">
      {text}
      {link && (
        <>
          {' '}
          <Link href="/admin/facturas">Ver las facturas</Link>
        </>
      )}
    </p>
  );
}

/** An outside party's state in words (the certifier's, the payment provider's), and since when. */
function CallHealthBadge({ health }: { health: Pick<CallHealth, 'state' | 'since'> }) {
  return (
    <p>
      <span className={`badge ${CERTIFIER_STATE_TONES[health.state]}`} data-state={health.state}>
        {CERTIFIER_STATE_LABELS[health.state]}
      </span>
      {health.since && <span className="small">{` desde ${formatDateTime(health.since)}`}</span>}
    </p>
  );
}

/** The certifier as a component beside the sources (Fuentes): its state, since when, its last call and what waits. */
export function CertifierStatus({ health, certifierName }: { health: CertifierHealth; certifierName: string | null }) {
  return (
    <section className="card" aria-labelledby="certificador" data-testid="certifier-status">
      <h2 id="certificador">{`Certificador de facturas (FEL)${certifierName ? `: ${certifierName}` : ''}`}</h2>
      <CallHealthBadge health={health} />
      <p className="small">
        {health.lastCallAt ? `Última llamada: ${formatDateTime(health.lastCallAt)}. ` : ''}
        {health.waiting === 0
          ? 'Ninguna factura espera al certificador.'
          : `${health.waiting === 1 ? 'Una factura espera' : `${health.waiting.toLocaleString('es-GT')} facturas esperan`}${health.oldestWaitingAt ? ` (la más antigua, del ${formatDateTime(health.oldestWaitingAt)})` : ''}.`}{' '}
        Lo dicen las llamadas de todas las instancias.
      </p>
    </section>
  );
}

/** The payment provider beside the sources (Fuentes): configured or not, whether it answers and since when, the last word from it, and what is open. */
export function PaymentProviderStatus({ name, activity, health }: { name: string | null; activity: ProviderActivity; health: CallHealth }) {
  return (
    <section className="card" aria-labelledby="proveedor-de-pagos" data-testid="payment-provider-status">
      <h2 id="proveedor-de-pagos">{`Proveedor de pagos en línea${name ? `: ${name}` : ''}`}</h2>
      {name !== null && <CallHealthBadge health={health} />}
      <p>
        {name === null
          ? 'Los pagos en línea están desactivados: no se aceptan pagos nuevos.'
          : `Último aviso recibido del proveedor: ${activity.lastWebhookAt ? formatDateTime(activity.lastWebhookAt) : 'ninguno todavía'}. Última consulta al proveedor: ${activity.lastReadAt ? formatDateTime(activity.lastReadAt) : 'ninguna todavía'}.`}
      </p>
      <p className="small">
        {`${activity.open === 1 ? 'Un pago abierto' : `${activity.open.toLocaleString('es-GT')} pagos abiertos`} (esperando al cliente o una transferencia).`}
        {activity.forSupport > 0 && ` ${activity.forSupport === 1 ? 'Un pago cobrado espera' : `${activity.forSupport.toLocaleString('es-GT')} pagos cobrados esperan`} a soporte: el proveedor cobró otro monto o en otra moneda (Recargas).`}
        {name !== null && ' Lo dicen las llamadas de todas las instancias.'}
      </p>
    </section>
  );
}

/** «Pagos en línea con fallas desde …» on the Panel while the provider does not answer; nothing otherwise. */
export function PaymentsFailingBanner({ health }: { health: CallHealth }) {
  const text = paymentsFailingBanner(health, formatDateTime);
  if (!text) return null;
  return (
    <p className="notice error" role="alert" data-testid="payments-failing">
      {text} <Link href="/admin/fuentes">Ver Fuentes</Link>
    </p>
  );
}
