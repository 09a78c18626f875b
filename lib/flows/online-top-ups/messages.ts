import { formatQuetzales } from '@/lib/platform/money';
import { CF_LIMIT_CENTAVOS } from '@/lib/providers/fel/document';

// What the portal says about online top-ups; the flow and its tests import the same words.
export const ONLINE_TOP_UP_MESSAGES = {
  forbidden: 'Solo el propietario o facturación pueden recargar en línea.',
  off: 'Los pagos en línea no están disponibles. Reporte su depósito en Recargas.',
  amount: 'Escriba el monto en quetzales, con hasta dos decimales.',
  unavailable: 'El proveedor de pagos no responde. Intente de nuevo en unos minutos.',
  refused: 'El proveedor de pagos no aceptó la solicitud. Comuníquese con nosotros si se repite.',
  notFound: 'No existe ese pago en línea.',
  cancelled: 'Pago cancelado: no se cobró nada.',
  notCancellable: 'Ese pago ya no se puede cancelar: ya se pagó, está en proceso o se cerró.',
  receptorNeeded: `No se inició el pago: SAT no permite facturar ${formatQuetzales(CF_LIMIT_CENTAVOS)} o más a consumidor final, y su integración no tiene NIT ni CUI registrado. Regístrelo en «Datos de facturación» y vuelva a intentarlo; no se cobró nada.`,
} as const;

/** The console's Recargas, beside online payments made before they were turned off. */
export const ONLINE_PAYMENTS_OFF_NOTICE = 'Los pagos en línea están desactivados (PAYMENTS_PROVIDER no está configurado): no se aceptan pagos nuevos. Estos se hicieron antes.';

export function amountOutOfLimitsMessage(minCentavos: number, maxCentavos: number): string {
  return `El monto debe estar entre ${formatQuetzales(minCentavos)} y ${formatQuetzales(maxCentavos)}.`;
}

/** The confirmation step's words: what is credited, the fee and what the checkout charges. */
export function onlineTopUpQuoteMessage(quote: { amountCentavos: number; feeCentavos: number; totalCentavos: number }): string {
  return `Se acreditarán ${formatQuetzales(quote.amountCentavos)} a su saldo. Comisión del pago en línea: ${formatQuetzales(quote.feeCentavos)}. Total a pagar: ${formatQuetzales(quote.totalCentavos)}.`;
}

// What the console says about refunding an online payment; the flow and its tests import the same words.
export const REFUND_MESSAGES = {
  forbidden: 'Solo un administrador puede reembolsar un pago en línea.',
  off: 'Los pagos en línea no están configurados: no se puede reembolsar ahora.',
  notFound: 'No existe ese pago en línea.',
  notCredited: 'Solo se reembolsa un pago en línea acreditado.',
  notInvoiced: 'La factura de este pago aún no está certificada: reembolse cuando lo esté, para emitir su nota de crédito.',
  reasonInvalid: 'Escriba el motivo del reembolso (de 1 a 255 caracteres).',
  requested: 'Reembolso solicitado al proveedor; el estado se muestra en esta página.',
  done: 'Pago reembolsado: se descontó el monto del saldo y se emitirá la nota de crédito de su factura.',
  failed: 'El proveedor no hizo el reembolso: el monto volvió al saldo.',
  indeterminate: 'El proveedor no respondió con claridad: se consultará el pago antes de decidir, sin enviar el reembolso de nuevo.',
  amountInvalid: 'Escriba el monto a reembolsar en quetzales, mayor que cero y con hasta dos decimales.',
  fullyRefunded: 'Este pago ya se reembolsó por completo.',
  partialUnsupported: 'El proveedor de pagos solo reembolsa pagos completos: reembolse todo lo que queda del pago.',
  invoiceReversed: 'La factura de este pago ya se anuló o tiene una nota de crédito emitida desde Facturas: no se puede reembolsar el pago.',
  /** The same words as the console's void or credit note of an invoice being corrected (lib/presentation/invoice-messages.ts). */
  invoiceCorrectionUnderWay: 'Una corrección del receptor de esta factura está en curso: espere a que SAT la acepte y actúe sobre la factura que la reemplace.',
  creditNoteNotFound: 'Este reembolso no tiene nota de crédito.',
  creditNoteQueued: 'La nota de crédito volvió a la cola con el mismo identificador: se enviará al certificador en unos segundos.',
  creditNoteNotToCorrect: 'La nota de crédito ya no está rechazada: no se cambió nada.',
} as const;

export function refundBalanceSpentMessage(balanceCentavos: number, amountCentavos: number): string {
  return `El saldo de la integración (${formatQuetzales(balanceCentavos)}) ya no cubre los ${formatQuetzales(amountCentavos)} del reembolso: reembolse a lo sumo el saldo.`;
}

export function refundOverLeftMessage(leftCentavos: number): string {
  return `Quedan ${formatQuetzales(leftCentavos)} por reembolsar de este pago: escriba un monto hasta ese.`;
}
