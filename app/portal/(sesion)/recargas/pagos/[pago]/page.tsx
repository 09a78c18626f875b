import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { PageHeader } from '@/components/console/page-header';
import { TOP_UP_REPORTERS } from '@/lib/surfaces/portal/page-access';
import { portalOnlinePaymentPage } from '@/lib/surfaces/portal/online-payments';
import { CancelPaymentForm } from './cancel-payment-form';
import { formatQuetzales } from '@/lib/platform/money';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';
import { requirePortalPage } from '@/lib/surfaces/portal/session';

export const metadata: Metadata = { title: 'Pago en línea' };

// Where the provider's page sends the integrator back (both its success and its cancel address
// carry only our id). What it says comes from our own row: the browser's return proves nothing, so
// a top-up still open is read at the provider from here, server-side, and settled as a webhook would.
export default async function OnlinePaymentPage({ params, searchParams }: { params: Promise<{ pago: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requirePortalPage(TOP_UP_REPORTERS);
  const { pago } = await params;
  const found = await portalOnlinePaymentPage(user, pago, (await searchParams).cancelado === '1');
  if (!found) notFound();
  const { payment, refunds, standing, standingLabel, standingTone, explanation, invoiceId, cancellable } = found;
  return (
    <>
      <PageHeader title="Pago en línea" description={`Iniciado el ${formatDateTime(payment.createdAt)}.`} />
      <section className="card" aria-labelledby="pago-estado" data-testid="online-payment">
        <h2 id="pago-estado">
          <span className={`badge ${standingTone}`} data-testid="online-payment-state">
            {standingLabel}
          </span>
        </h2>
        <p data-testid="online-payment-explanation">{explanation}</p>
        <dl className="details">
          <dt>Monto a acreditar</dt>
          <dd>{formatQuetzales(payment.amountCentavos)}</dd>
          <dt>Comisión</dt>
          <dd>{formatQuetzales(payment.feeCentavos)}</dd>
          <dt>Total</dt>
          <dd>{formatQuetzales(payment.amountCentavos + payment.feeCentavos)}</dd>
          {payment.settledAt && (
            <>
              <dt>{payment.state === 'credited' ? 'Acreditado' : standing === 'cancelled' ? 'Cancelado' : 'Cerrado'}</dt>
              <dd>{formatDateTime(payment.settledAt)}</dd>
            </>
          )}
          {refunds.refundedCentavos > 0 && (
            <>
              <dt>Reembolsado</dt>
              <dd data-testid="online-payment-refunded">{`${formatQuetzales(refunds.refundedCentavos)}${refunds.lastDoneAt ? `, el ${formatDateTime(refunds.lastDoneAt)}` : ''}`}</dd>
            </>
          )}
          {invoiceId !== null && (
            <>
              <dt>Factura</dt>
              <dd>
                <Link href={`/portal/facturas/${invoiceId}`}>{refunds.refundedCentavos > 0 ? 'Ver la factura y su nota de crédito' : 'Ver la factura'}</Link>
              </dd>
            </>
          )}
        </dl>
        {cancellable && (
          <CancelPaymentForm paymentId={payment.id} description={`El pago de ${formatQuetzales(payment.amountCentavos + payment.feeCentavos)} iniciado el ${formatDateTime(payment.createdAt)} se cierra.`} />
        )}
        <p>
          <Link href="/portal/recargas">Volver a Recargas</Link>
        </p>
      </section>
    </>
  );
}
