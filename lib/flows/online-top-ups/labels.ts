import type { OnlinePaymentState } from '@/db/schema';

// An online top-up's states as the portal and the console read them; no server-only imports here.
export const ONLINE_PAYMENT_STATE_LABELS: Record<OnlinePaymentState, string> = {
  created: 'Sin enlace de pago',
  checkout_open: 'Esperando el pago',
  pending_transfer: 'Pendiente (transferencia en proceso)',
  credited: 'Acreditado',
  declined: 'Rechazado',
  expired: 'Vencido',
  indeterminate: 'En revisión',
};

/** What the return page says under the state: what happened and what comes next. */
export const ONLINE_PAYMENT_STATE_EXPLANATIONS: Record<OnlinePaymentState, string> = {
  created: 'El proveedor de pagos no abrió la página de pago: no se cobró nada. Puede intentarlo de nuevo desde Recargas.',
  checkout_open: 'Todavía no recibimos el pago. Si acaba de pagar, vuelva a cargar esta página en unos segundos.',
  pending_transfer: 'Su transferencia está en proceso: el saldo se acredita en cuanto el banco la confirme (hasta 24 horas) y le avisaremos.',
  credited: 'El pago se acreditó a su saldo.',
  declined: 'El pago fue rechazado: no se cobró nada. Puede intentarlo con otra tarjeta desde Recargas.',
  expired: 'El pago venció sin completarse: no se acreditó nada.',
  indeterminate: 'Estamos revisando este pago con el proveedor; le avisaremos cuando se resuelva.',
};

const TONE: Record<OnlinePaymentState, string> = {
  created: 'muted',
  checkout_open: 'warn',
  pending_transfer: 'warn',
  credited: 'ok',
  declined: 'danger',
  expired: 'muted',
  indeterminate: 'warn',
};

export function onlinePaymentTone(state: OnlinePaymentState): string {
  return TONE[state];
}

/**
 * What became of an online top-up as people read it: its state, or, once credited, what its refunds
 * made of it, or a checkout its payer cancelled. The same words in the portal and the console.
 */
export type OnlinePaymentStanding = OnlinePaymentState | 'refund_pending' | 'partially_refunded' | 'refunded' | 'cancelled';

/** A payment's refunds, summed: what was given back (done), and whether one is under way. */
export interface RefundSummary {
  refundedCentavos: number;
  open: boolean;
  /** When the last one was done. */
  lastDoneAt: Date | null;
}

export const NO_REFUNDS: RefundSummary = { refundedCentavos: 0, open: false, lastDoneAt: null };

/** The detail a checkout cancelled by its payer is closed with (state expired: nothing can be credited from it but a payment the provider still takes). */
export const CANCELLED_BY_PAYER = 'cancelled_by_payer';

export function onlinePaymentStanding(payment: { state: OnlinePaymentState; amountCentavos: number; detail: string | null }, refunds: RefundSummary = NO_REFUNDS): OnlinePaymentStanding {
  if (payment.state === 'expired' && payment.detail === CANCELLED_BY_PAYER) return 'cancelled';
  if (payment.state !== 'credited') return payment.state;
  if (refunds.refundedCentavos >= payment.amountCentavos) return 'refunded';
  if (refunds.open) return 'refund_pending';
  return refunds.refundedCentavos > 0 ? 'partially_refunded' : 'credited';
}

export const ONLINE_PAYMENT_STANDING_LABELS: Record<OnlinePaymentStanding, string> = {
  ...ONLINE_PAYMENT_STATE_LABELS,
  refund_pending: 'Reembolso en curso',
  partially_refunded: 'Reembolsado en parte',
  refunded: 'Reembolsado',
  cancelled: 'Cancelado',
};

export const ONLINE_PAYMENT_STANDING_EXPLANATIONS: Record<OnlinePaymentStanding, string> = {
  ...ONLINE_PAYMENT_STATE_EXPLANATIONS,
  refund_pending: 'El pago se acreditó y se está reembolsando: el monto ya salió de su saldo y el proveedor lo devuelve a su tarjeta o cuenta.',
  partially_refunded: 'El pago se acreditó y se le devolvió una parte: esa parte salió de su saldo, con su nota de crédito.',
  refunded: 'Se le devolvió el pago completo: el monto salió de su saldo y la factura tiene su nota de crédito.',
  cancelled: 'Canceló este pago antes de pagarlo: no se cobró nada.',
};

const STANDING_TONE: Record<Exclude<OnlinePaymentStanding, OnlinePaymentState>, string> = {
  refund_pending: 'warn',
  partially_refunded: 'muted',
  refunded: 'muted',
  cancelled: 'muted',
};

export function onlinePaymentStandingTone(standing: OnlinePaymentStanding): string {
  return standing in STANDING_TONE ? STANDING_TONE[standing as keyof typeof STANDING_TONE] : TONE[standing as OnlinePaymentState];
}

/** Our own details of a payment, in words (a declined card's detail is the provider's own sentence, shown as is). */
export const ONLINE_PAYMENT_DETAIL_WORDS: Record<string, string> = {
  amount_mismatch: 'El proveedor cobró otro monto o en otra moneda que el del pago: no se acreditó nada. Revíselo con el proveedor y acredite o reembolse a mano.',
  [CANCELLED_BY_PAYER]: 'La integración lo canceló antes de pagarlo: no se cobró nada.',
};

/** The payment providers as people call them (PAYMENTS_PROVIDER's values). */
export const PAYMENT_PROVIDER_NAMES: Record<string, string> = { recurrente: 'Recurrente' };
