import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { PageHeader } from '@/components/console/page-header';
import { requirePageUser } from '@/lib/flows/auth/session';
import { findOnlinePayment } from '@/lib/flows/online-top-ups/payments';
import { ONLINE_PAYMENT_STATE_LABELS, onlinePaymentTone } from '@/lib/flows/online-top-ups/labels';
import { formatQuetzales } from '@/lib/platform/money';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';

export const metadata: Metadata = { title: 'Pago en línea' };

/** What told us about each state: our own call, the provider's webhook, or our read of the checkout. */
const SOURCES: Record<string, string> = { start: 'Inicio (nuestra llamada)', webhook: 'Aviso del proveedor (webhook)', read: 'Consulta al proveedor' };

// One online payment by our id, for support: its row and every state it passed through, with the
// provider's message ids, so a question about a payment is answered from what was recorded.
export default async function ConsoleOnlinePaymentPage({ params }: { params: Promise<{ pago: string }> }) {
  await requirePageUser('support');
  const { pago } = await params;
  const found = await findOnlinePayment(pago);
  if (!found) notFound();
  const { payment, events } = found;
  return (
    <>
      <PageHeader title={`Pago en línea ${payment.id}`} description={<Link href="/admin/recargas#pagos-en-linea">Volver a Recargas</Link>} />
      <section className="card" aria-labelledby="pago-datos">
        <h2 id="pago-datos">
          <span className={`badge ${onlinePaymentTone(payment.state)}`} data-testid="console-online-payment-state">
            {ONLINE_PAYMENT_STATE_LABELS[payment.state]}
          </span>
        </h2>
        <dl className="details">
          <dt>Integración</dt>
          <dd>
            <Link href={`/admin/integraciones/${payment.integrationId}`}>{payment.integrationId}</Link>
          </dd>
          <dt>Monto a acreditar</dt>
          <dd>{formatQuetzales(payment.amountCentavos)}</dd>
          <dt>Comisión</dt>
          <dd>{formatQuetzales(payment.feeCentavos)}</dd>
          <dt>Proveedor</dt>
          <dd>{payment.provider}</dd>
          <dt>Checkout</dt>
          <dd className="break-anywhere">{payment.checkoutId ?? '—'}</dd>
          <dt>Pago del proveedor</dt>
          <dd className="break-anywhere" data-testid="console-provider-payment-id">
            {payment.providerPaymentId ?? '—'}
          </dd>
          <dt>Detalle</dt>
          <dd>{payment.detail ?? '—'}</dd>
          <dt>Vence el enlace</dt>
          <dd>{formatDateTime(payment.expiresAt)}</dd>
          {payment.settledAt && (
            <>
              <dt>Cerrado</dt>
              <dd>{formatDateTime(payment.settledAt)}</dd>
            </>
          )}
        </dl>
      </section>
      <section className="card" aria-labelledby="pago-eventos">
        <h2 id="pago-eventos">Historial de estados</h2>
        <div className="table-wrap" role="region" aria-labelledby="pago-eventos" tabIndex={0}>
          <table className="data stacked" data-testid="console-online-payment-events">
            <thead>
              <tr>
                <th>Cuándo (hora de Guatemala)</th>
                <th>Estado</th>
                <th>Origen</th>
                <th>Mensaje del proveedor</th>
                <th>Detalle</th>
              </tr>
            </thead>
            <tbody>
              {events.map((event) => (
                <tr key={event.id} data-testid="console-online-payment-event">
                  <td className="nowrap" data-label="Cuándo">
                    {formatDateTime(event.createdAt)}
                  </td>
                  <td data-label="Estado">{ONLINE_PAYMENT_STATE_LABELS[event.state]}</td>
                  <td data-label="Origen">{SOURCES[event.source] ?? event.source}</td>
                  <td className="break-anywhere" data-label="Mensaje del proveedor">
                    {event.providerMessageId ?? '—'}
                  </td>
                  <td className="break-anywhere" data-label="Detalle">
                    {event.detail ?? '—'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </>
  );
}
