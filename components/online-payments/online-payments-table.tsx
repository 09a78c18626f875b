import type { OnlinePayment } from '@/db/schema';
import { ONLINE_PAYMENT_STANDING_LABELS, onlinePaymentStanding, onlinePaymentStandingTone, type RefundSummary } from '@/lib/flows/online-top-ups/labels';
import { formatQuetzales } from '@/lib/platform/money';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';

interface Props {
  payments: (OnlinePayment & { integrationName?: string; refunds: RefundSummary })[];
  /**
   * The console shows every integration's, with the provider's words and payment id for support;
   * the portal its own integration's, each linking to its return page.
   */
  audience: 'console' | 'portal';
}

/** Online payments, the latest first, each linking to its own page (the console's or the portal's). */
export function OnlinePaymentsTable({ payments, audience }: Props) {
  const console = audience === 'console';
  return (
    <div className="table-wrap" role="region" aria-label="Pagos en línea" tabIndex={0}>
      <table className="data stacked" data-testid={`${audience}-online-payments`}>
        <thead>
          <tr>
            <th>Iniciado (hora de Guatemala)</th>
            {console && <th>Integración</th>}
            <th className="num">Monto</th>
            <th className="num">Comisión</th>
            <th>Estado</th>
            {console ? (
              <>
                <th>Pago del proveedor</th>
                <th>Nuestro id</th>
              </>
            ) : (
              <th>Detalle</th>
            )}
          </tr>
        </thead>
        <tbody>
          {payments.map((payment) => (
            <tr key={payment.id} data-testid={`${audience}-online-payment-row`}>
              <td className="nowrap" data-label="Iniciado">
                {formatDateTime(payment.createdAt)}
              </td>
              {console && <td data-label="Integración">{payment.integrationName}</td>}
              <td className="num" data-label="Monto">
                {formatQuetzales(payment.amountCentavos)}
              </td>
              <td className="num" data-label="Comisión">
                {formatQuetzales(payment.feeCentavos)}
              </td>
              <td data-label="Estado">
                <span className={`badge ${onlinePaymentStandingTone(onlinePaymentStanding(payment, payment.refunds))}`} data-testid="online-payment-state">
                  {ONLINE_PAYMENT_STANDING_LABELS[onlinePaymentStanding(payment, payment.refunds)]}
                </span>
                {payment.refunds.refundedCentavos > 0 && payment.refunds.refundedCentavos < payment.amountCentavos && (
                  <span className="small"> {`${formatQuetzales(payment.refunds.refundedCentavos)} devueltos`}</span>
                )}
                {console && payment.detail === 'amount_mismatch' && <span className="small"> El proveedor cobró otro monto o en otra moneda: revíselo.</span>}
              </td>
              {console ? (
                <>
                  <td className="break-anywhere" data-label="Pago del proveedor">
                    {payment.providerPaymentId ? `${payment.provider} ${payment.providerPaymentId}` : <span className="muted">—</span>}
                  </td>
                  <td className="break-anywhere" data-label="Nuestro id">
                    <a href={`/admin/recargas/pagos/${payment.id}`}>{payment.id}</a>
                  </td>
                </>
              ) : (
                <td data-label="Detalle">
                  <a href={`/portal/recargas/pagos/${payment.id}`}>Ver el pago</a>
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
