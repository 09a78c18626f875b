import type { OnlinePayment } from '@/db/schema';
import { NO_REFUNDS, ONLINE_PAYMENT_STANDING_EXPLANATIONS, ONLINE_PAYMENT_STANDING_LABELS, onlinePaymentStanding, onlinePaymentStandingTone, type OnlinePaymentStanding, type RefundSummary } from '@/lib/flows/online-top-ups/labels';
import { integrationOnlinePayment, invoiceIdOfPayment, isCancellable, settleByRead } from '@/lib/flows/online-top-ups/payments';
import { refundSummaries } from '@/lib/flows/online-top-ups/refunds';
import { logger } from '@/lib/platform/logging/logger';
import { configuredPaymentProvider } from '@/lib/providers/payments/configured';
import type { PortalUserSession } from './session';

// "Pago en línea": where the provider's page sends the integrator back (both its success and its
// cancel address carry only our id). What it says comes from our own row: the browser's return
// proves nothing, so a top-up still open is read at the provider from here, server-side, and settled
// as a webhook would (lib/flows/online-top-ups).

const log = logger('portal-online-payment');

/** Our top-up ids: `recarga-` and a UUID. Anything else is answered as an id that does not exist. */
const TOP_UP_ID = /^recarga-(?:auto-)?[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** An automatic top-up's charge (lib/flows/auto-top-ups) has no payment page: until it settles it is being charged. */
const AUTOMATIC_CHARGE_IN_FLIGHT = 'Cargo automático a la tarjeta guardada, en curso: el saldo se acredita en cuanto el proveedor lo confirme.';

/** States a read at the provider may still move (one paid another amount waits for support). */
const READABLE = new Set(['checkout_open', 'declined', 'pending_transfer', 'indeterminate']);

export interface PortalOnlinePaymentPage {
  payment: OnlinePayment;
  refunds: RefundSummary;
  standing: OnlinePaymentStanding;
  standingLabel: string;
  standingTone: string;
  /** What the page says of it (back without paying, an automatic charge in flight, or its standing's words). */
  explanation: string;
  /** Its invoice, once credited and invoiced. */
  invoiceId: number | null;
  /** Whether nobody paid it yet, so it can still be given up. */
  cancellable: boolean;
}

/**
 * The session's integration's online payment with this id, read again at the provider while still
 * open (a failure to read leaves what our row says; the poller reads it again), or undefined (a
 * malformed id, another integration's payment and an unknown one alike). `cancelled`: the browser
 * came back by the checkout's cancel address.
 */
export async function portalOnlinePaymentPage(user: PortalUserSession, paymentId: string, cancelled: boolean): Promise<PortalOnlinePaymentPage | undefined> {
  if (!TOP_UP_ID.test(paymentId)) return undefined;
  let payment = await integrationOnlinePayment(user.integrationId, paymentId);
  if (!payment) return undefined;
  const provider = configuredPaymentProvider();
  if (provider !== null && provider.name === payment.provider && READABLE.has(payment.state) && payment.detail !== 'amount_mismatch') {
    try {
      await settleByRead(provider, payment.id);
      payment = (await integrationOnlinePayment(user.integrationId, paymentId)) ?? payment;
    } catch (error) {
      log.error({ err: error, onlinePaymentId: payment.id }, 'reading an online payment for its return page failed');
    }
  }
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
  return {
    payment,
    refunds,
    standing,
    standingLabel: ONLINE_PAYMENT_STANDING_LABELS[standing],
    standingTone: onlinePaymentStandingTone(standing),
    explanation,
    invoiceId,
    cancellable: isCancellable(payment),
  };
}
