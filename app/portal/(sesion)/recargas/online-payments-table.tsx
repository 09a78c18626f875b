import type { OnlinePayment } from '@/db/schema';
import { ONLINE_PAYMENT_STATE_LABELS, onlinePaymentTone } from '@/lib/flows/online-top-ups/labels';
import { formatQuetzales } from '@/lib/platform/money';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';

/** The integration's online payments, the latest first, each linking to its own page. */
export function OnlinePaymentsTable({ payments }: { payments: OnlinePayment[] }) {
  return (
    <div className="table-wrap" role="region" aria-label="Pagos en línea" tabIndex={0}>
      <table className="data stacked" data-testid="portal-online-payments">
        <thead>
          <tr>
            <th>Iniciado (hora de Guatemala)</th>
            <th className="num">Monto</th>
            <th className="num">Comisión</th>
            <th>Estado</th>
            <th>Detalle</th>
          </tr>
        </thead>
        <tbody>
          {payments.map((payment) => (
            <tr key={payment.id} data-testid="portal-online-payment-row">
              <td className="nowrap" data-label="Iniciado">
                {formatDateTime(payment.createdAt)}
              </td>
              <td className="num" data-label="Monto">
                {formatQuetzales(payment.amountCentavos)}
              </td>
              <td className="num" data-label="Comisión">
                {formatQuetzales(payment.feeCentavos)}
              </td>
              <td data-label="Estado">
                <span className={`badge ${onlinePaymentTone(payment.state)}`} data-testid="online-payment-state">
                  {ONLINE_PAYMENT_STATE_LABELS[payment.state]}
                </span>
              </td>
              <td data-label="Detalle">
                <a href={`/portal/recargas/pagos/${payment.id}`}>Ver el pago</a>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
