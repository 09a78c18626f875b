import { formatQuetzales } from '@/lib/platform/money';

// What the portal says about online top-ups; the flow and its tests import the same words.
export const ONLINE_TOP_UP_MESSAGES = {
  forbidden: 'Solo el propietario o facturación pueden recargar en línea.',
  off: 'Los pagos en línea no están disponibles. Reporte su depósito en Recargas.',
  amount: 'Escriba el monto en quetzales, con hasta dos decimales.',
  unavailable: 'El proveedor de pagos no responde. Intente de nuevo en unos minutos.',
  refused: 'El proveedor de pagos no aceptó la solicitud. Comuníquese con nosotros si se repite.',
} as const;

export function amountOutOfLimitsMessage(minCentavos: number, maxCentavos: number): string {
  return `El monto debe estar entre ${formatQuetzales(minCentavos)} y ${formatQuetzales(maxCentavos)}.`;
}

/** The confirmation step's words: what is credited, the fee and what the checkout charges. */
export function onlineTopUpQuoteMessage(quote: { amountCentavos: number; feeCentavos: number; totalCentavos: number }): string {
  return `Se acreditarán ${formatQuetzales(quote.amountCentavos)} a su saldo. Comisión del pago en línea: ${formatQuetzales(quote.feeCentavos)}. Total a pagar: ${formatQuetzales(quote.totalCentavos)}.`;
}
