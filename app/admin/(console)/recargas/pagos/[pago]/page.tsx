import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { PageHeader } from '@/components/console/page-header';
import { ActionForm, Field } from '@/components/console/action-form';
import type { InvoiceReversal, OnlinePaymentRefund } from '@/db/schema';
import { hasRole } from '@/lib/surfaces/console/session';
import { requirePageUser } from '@/lib/surfaces/console/session';
import { MAX_VOID_REASON_LENGTH } from '@/lib/providers/fel/document';
import { refundOnlinePaymentAction, retryRefundCreditNoteAction } from './actions';
import { ONLINE_PAYMENT_DETAIL_WORDS, ONLINE_PAYMENT_STATE_LABELS, onlinePaymentView } from '@/lib/surfaces/console/online-payments';
import { centavosAsDecimal, formatQuetzales } from '@/lib/platform/money';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';

const REFUND_STATE_LABELS: Record<OnlinePaymentRefund['state'], string> = {
  requested: 'Reembolso solicitado',
  done: 'Reembolsado',
  failed: 'Reembolso no realizado',
  indeterminate: 'Reembolso sin confirmar',
};

/** The refund's credit note, a state of its own: the money moved once whatever the certifier says. */
function creditNoteText(note: InvoiceReversal | null): string {
  if (note === null) return 'No se pudo solicitar: revise la factura del pago.';
  switch (note.state) {
    case 'done':
      return `Certificada: ${note.serie}-${note.numero} (UUID ${note.uuid}).`;
    case 'to_correct':
      return `Rechazada por el certificador${note.lastErrorCode ? ` (${note.lastErrorCode})` : ''}: ${note.lastErrorMessage ?? ''} El saldo no cambió; reintente cuando se resuelva la causa.`;
    case 'refused':
      return `Rechazada por el certificador${note.lastErrorCode ? ` (${note.lastErrorCode})` : ''}.`;
    default:
      return 'En proceso: se está enviando al certificador.';
  }
}

export const metadata: Metadata = { title: 'Pago en línea' };

/** What told us about each state: our own call, the provider's webhook, or our read of the checkout. */
const SOURCES: Record<string, string> = { start: 'Inicio (nuestra llamada)', webhook: 'Aviso del proveedor (webhook)', read: 'Consulta al proveedor' };

// One online payment by our id, for support: its row and every state it passed through, with the
// provider's message ids, so a question about a payment is answered from what was recorded.
export default async function ConsoleOnlinePaymentPage({ params }: { params: Promise<{ pago: string }> }) {
  const user = await requirePageUser('support');
  const { pago } = await params;
  const found = await onlinePaymentView(pago);
  if (!found) notFound();
  const { payment, events, provider, refunds, left, underWay, standing } = found;
  return (
    <>
      <PageHeader title={`Pago en línea ${payment.id}`} description={<Link href="/admin/recargas#pagos-en-linea">Volver a Recargas</Link>} />
      <section className="card" aria-labelledby="pago-datos">
        <h2 id="pago-datos">
          <span className={`badge ${standing.tone}`} data-testid="console-online-payment-state">
            {standing.label}
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
          <dd>{payment.detail === null ? '—' : (ONLINE_PAYMENT_DETAIL_WORDS[payment.detail] ?? payment.detail)}</dd>
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
      {(refunds.length > 0 || payment.state === 'credited') && (
        <section className="card" aria-labelledby="pago-reembolso">
          <h2 id="pago-reembolso">Reembolsos</h2>
          <p data-testid="console-online-payment-refund-left">
            {`Reembolsado: ${formatQuetzales(payment.amountCentavos - left)} de ${formatQuetzales(payment.amountCentavos)}; queda ${formatQuetzales(left)} por reembolsar.`}
          </p>
          {refunds.length > 0 && (
            <div className="table-wrap" role="region" aria-labelledby="pago-reembolso" tabIndex={0}>
              <table className="data stacked" data-testid="console-online-payment-refunds">
                <thead>
                  <tr>
                    <th>Solicitado (hora de Guatemala)</th>
                    <th>Monto</th>
                    <th>Estado</th>
                    <th>Nota de crédito</th>
                    <th>Solicitado por</th>
                    <th>Motivo</th>
                    <th>Detalle</th>
                  </tr>
                </thead>
                <tbody>
                  {refunds.map((refund) => (
                    <tr key={refund.id} data-testid="console-online-payment-refund">
                      <td className="nowrap" data-label="Solicitado">
                        {formatDateTime(refund.createdAt)}
                      </td>
                      <td className="nowrap" data-label="Monto">
                        {formatQuetzales(refund.amountCentavos)}
                      </td>
                      <td data-label="Estado" data-testid="console-online-payment-refund-state">
                        {REFUND_STATE_LABELS[refund.state]}
                      </td>
                      <td data-label="Nota de crédito" data-testid="console-online-payment-credit-note">
                        {refund.state === 'done' ? creditNoteText(refund.creditNote) : '—'}
                        {refund.creditNote?.state === 'to_correct' && hasRole(user, 'admin') && (
                          <ActionForm action={retryRefundCreditNoteAction} hidden={{ pago: payment.id, reembolso: refund.id }} submitLabel="Reintentar la nota de crédito" pendingLabel="Reintentando…">
                            <p className="small">Se envía de nuevo al certificador con el mismo identificador; el saldo no cambia.</p>
                          </ActionForm>
                        )}
                      </td>
                      <td data-label="Solicitado por">{refund.requestedBy.replace(/^user:\d+ /, '')}</td>
                      <td data-label="Motivo">{refund.reason}</td>
                      <td className="break-anywhere" data-label="Detalle">
                        {[refund.providerRefundId, refund.detail].filter(Boolean).join(' · ') || '—'}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {left <= 0 || payment.state !== 'credited' ? null : underWay ? (
            <p className="muted">Hay un reembolso en curso: se podrá reembolsar más cuando se resuelva.</p>
          ) : hasRole(user, 'admin') && provider ? (
            <ActionForm
              action={refundOnlinePaymentAction}
              hidden={{ pago: payment.id }}
              submitLabel="Reembolsar el pago"
              pendingLabel="Reembolsando…"
              confirmation={{
                kind: 'text',
                title: 'Reembolsar el pago en línea',
                message: 'Se descontará el monto del saldo, el proveedor lo devolverá al cliente (el pago completo, con su comisión, si se reembolsa todo de una vez) y se emitirá una nota de crédito por ese monto. No se puede deshacer.',
                confirmLabel: 'Reembolsar',
              }}
            >
              {provider.partialRefunds ? (
                <Field name="monto" label="Monto a reembolsar (Q)" hint={`Hasta ${formatQuetzales(left)}; puede reembolsar una parte y más tarde otra.`} inputMode="decimal" defaultValue={centavosAsDecimal(left)} required data-testid="refund-amount" />
              ) : (
                <p className="small">{`Se reembolsa todo lo que queda (${formatQuetzales(left)}): el proveedor solo reembolsa pagos completos.`}</p>
              )}
              <Field name="motivo" label="Motivo (obligatorio)" hint={`De 1 a ${MAX_VOID_REASON_LENGTH} caracteres; lo recibe SAT en la nota de crédito.`} maxLength={MAX_VOID_REASON_LENGTH} required data-testid="refund-reason" />
            </ActionForm>
          ) : (
            <p className="muted">{provider ? 'Solo un administrador puede reembolsar un pago.' : 'Los pagos en línea no están configurados.'}</p>
          )}
        </section>
      )}
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
