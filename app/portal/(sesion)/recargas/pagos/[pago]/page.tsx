import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { PageHeader } from '@/components/console/page-header';
import { TOP_UP_REPORTERS } from '@/lib/surfaces/portal/page-access';
import { integrationOnlinePayment, invoiceIdOfPayment, isCancellable, settleByRead } from '@/lib/flows/online-top-ups/payments';
import { ONLINE_PAYMENT_STANDING_EXPLANATIONS, ONLINE_PAYMENT_STANDING_LABELS, NO_REFUNDS, onlinePaymentStanding, onlinePaymentStandingTone } from '@/lib/flows/online-top-ups/labels';
import { refundSummaries } from '@/lib/flows/online-top-ups/refunds';
import { CancelPaymentForm } from './cancel-payment-form';
import { formatQuetzales } from '@/lib/platform/money';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';
import { logger } from '@/lib/platform/logging/logger';
import { configuredPaymentProvider } from '@/lib/providers/payments/configured';
import { requirePortalPage } from '@/lib/surfaces/portal/session';

export const metadata: Metadata = { title: 'Pago en línea' };

const log = logger('portal-online-payment');

/** Our top-up ids: `recarga-` and a UUID. Anything else is answered as an id that does not exist. */
const TOP_UP_ID = /^recarga-(?:auto-)?[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** An automatic top-up's charge (lib/flows/auto-top-ups) has no payment page: until it settles it is being charged. */
const AUTOMATIC_CHARGE_IN_FLIGHT = 'Cargo automático a la tarjeta guardada, en curso: el saldo se acredita en cuanto el proveedor lo confirme.';

/** States a read at the provider may still move (one paid another amount waits for support). */
const READABLE = new Set(['checkout_open', 'declined', 'pending_transfer', 'indeterminate']);

// Where the provider's page sends the integrator back (both its success and its cancel address
// carry only our id). What it says comes from our own row: the browser's return proves nothing, so
// a top-up still open is read at the provider from here, server-side, and settled as a webhook would.
export default async function OnlinePaymentPage({ params, searchParams }: { params: Promise<{ pago: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requirePortalPage(TOP_UP_REPORTERS);
  const { pago } = await params;
  if (!TOP_UP_ID.test(pago)) notFound();
  let payment = await integrationOnlinePayment(user.integrationId, pago);
  if (!payment) notFound();
  const provider = configuredPaymentProvider();
  if (provider !== null && provider.name === payment.provider && READABLE.has(payment.state) && payment.detail !== 'amount_mismatch') {
    try {
      await settleByRead(provider, payment.id);
      payment = (await integrationOnlinePayment(user.integrationId, pago)) ?? payment;
    } catch (error) {
      // The page still says what our row says; the poller reads it again.
      log.error({ err: error, onlinePaymentId: payment.id }, 'reading an online payment for its return page failed');
    }
  }
  const cancelled = (await searchParams).cancelado === '1';
  const refunds = (await refundSummaries([payment.id])).get(payment.id) ?? NO_REFUNDS;
  const standing = onlinePaymentStanding(payment, refunds);
  const invoiceId = payment.state === 'credited' ? await invoiceIdOfPayment(payment) : null;
  // Back from the provider's page without paying: only that, and what can be done with it.
  const explanation =
    cancelled && payment.state === 'checkout_open'
      ? 'Volvió sin pagar: no se cobró nada. Puede pagarlo más tarde desde Recargas mientras el enlace esté vigente, o cancelarlo aquí.'
      : payment.id.startsWith('recarga-auto-') && payment.state === 'created'
        ? AUTOMATIC_CHARGE_IN_FLIGHT
        : ONLINE_PAYMENT_STANDING_EXPLANATIONS[standing];
  return (
    <>
      <PageHeader title="Pago en línea" description={`Iniciado el ${formatDateTime(payment.createdAt)}.`} />
      <section className="card" aria-labelledby="pago-estado" data-testid="online-payment">
        <h2 id="pago-estado">
          <span className={`badge ${onlinePaymentStandingTone(standing)}`} data-testid="online-payment-state">
            {ONLINE_PAYMENT_STANDING_LABELS[standing]}
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
        {isCancellable(payment) && (
          <CancelPaymentForm paymentId={payment.id} description={`El pago de ${formatQuetzales(payment.amountCentavos + payment.feeCentavos)} iniciado el ${formatDateTime(payment.createdAt)} se cierra.`} />
        )}
        <p>
          <Link href="/portal/recargas">Volver a Recargas</Link>
        </p>
      </section>
    </>
  );
}
