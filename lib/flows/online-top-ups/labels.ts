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
