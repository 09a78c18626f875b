// One online payment on the console: its row, every state it passed through, its refunds (an
// unclear one settled first by reading the payment, never by sending it again) and where it stands.
import { ONLINE_PAYMENT_STANDING_LABELS, onlinePaymentStanding, onlinePaymentStandingTone } from '@/lib/flows/online-top-ups/labels';
import { findOnlinePayment } from '@/lib/flows/online-top-ups/payments';
import { refundableLeft, refundsOfOnlinePayment, settleRefundByRead } from '@/lib/flows/online-top-ups/refunds';
import { configuredPaymentProvider } from '@/lib/providers/payments/configured';

/** How the page words a payment's states and the provider's details. */
export { ONLINE_PAYMENT_DETAIL_WORDS, ONLINE_PAYMENT_STATE_LABELS } from '@/lib/flows/online-top-ups/labels';

/** The payment with our id, or undefined when there is none. */
export async function onlinePaymentView(id: string) {
  const found = await findOnlinePayment(id);
  if (!found) return undefined;
  const { payment, events } = found;
  const provider = configuredPaymentProvider();
  let refunds = await refundsOfOnlinePayment(payment.id);
  // An unclear refund is settled here by reading the payment (never by sending it again).
  const unsettled = refunds.filter((refund) => refund.state === 'indeterminate' || refund.state === 'requested');
  if (provider && unsettled.length > 0) {
    for (const refund of unsettled) await settleRefundByRead(provider, refund.id);
    refunds = await refundsOfOnlinePayment(payment.id);
  }
  const left = payment.state === 'credited' ? refundableLeft(payment, refunds) : 0;
  const underWay = refunds.some((refund) => refund.state === 'indeterminate' || refund.state === 'requested');
  const standing = onlinePaymentStanding(payment, {
    refundedCentavos: refunds.filter((refund) => refund.state === 'done').reduce((sum, refund) => sum + refund.amountCentavos, 0),
    open: underWay,
    lastDoneAt: null,
  });
  return {
    payment,
    events,
    provider,
    refunds,
    left,
    underWay,
    standing: { label: ONLINE_PAYMENT_STANDING_LABELS[standing], tone: onlinePaymentStandingTone(standing) },
  };
}
