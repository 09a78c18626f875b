// What the console answers about a sale's invoice, in one place for the code and its tests.
import type { ReversalError, ReversalRefusal } from '@/lib/core/billing/invoice-reversals';
import { formatQuetzales } from '@/lib/platform/money';
import { fail, type Result } from '@/lib/platform/result';
import { CF_LIMIT_CENTAVOS, MAX_VOID_REASON_LENGTH } from '@/lib/providers/fel/document';

/** A calendar day (YYYY-MM-DD) as the console writes it: 04/01/2027. */
export function calendarDayText(day: string): string {
  const [year, month, date] = day.split('-');
  return `${date}/${month}/${year}`;
}

export const INVOICE_MESSAGES = {
  /** A top-up credited whose invoice waits: SAT does not take CF from Q 2,500.00, and the integration has no NIT or CUI. */
  awaitingReceptor: `Su factura queda pendiente: SAT no permite facturar a consumidor final (CF) un total de ${formatQuetzales(CF_LIMIT_CENTAVOS)} o más, y la integración no tiene NIT ni CUI registrado. Se emitirá sola en cuanto se registre en sus datos de facturación.`,
  /** A top-up credited before any app instance said whether the service invoices: the first one to start decides. */
  deferred: 'Su factura se decidirá cuando arranque la aplicación: ninguna instancia ha dicho todavía si el servicio factura las recargas.',
} as const;

/** Voids and credit notes of an invoice: the console's answers, for the code and its tests. */
export const REVERSAL_MESSAGES = {
  voidableUntil: (day: string) => `Puede anularse hasta el ${calendarDayText(day)}.`,
  reasonInvalid: `Escriba el motivo: de 1 a ${MAX_VOID_REASON_LENGTH} caracteres.`,
  notFound: 'La factura no existe.',
  notCertified: 'Solo se anula o se acredita una factura certificada: esta todavía no lo está.',
  pastDeadline: (day: string) =>
    `El plazo para anular esta factura venció el ${calendarDayText(day)} (vencimiento de la declaración del IVA del mes en que se emitió). Emita una nota de crédito en su lugar.`,
  creditNoteExists: 'No se puede anular: una nota de crédito referencia esta factura.',
  alreadyVoided: 'La factura ya se anuló (o su anulación está en curso): no lleva nota de crédito.',
  balanceSpent: (balanceCentavos: number, totalCentavos: number) =>
    `No se envió nada al certificador: la integración ya usó parte del saldo de esta recarga (saldo actual ${formatQuetzales(balanceCentavos)}, factura de ${formatQuetzales(totalCentavos)}) y el saldo no puede quedar negativo. Recargue o ajuste el saldo primero, o resuelva la devolución fuera del sistema.`,
  voidRequested: (totalCentavos: number) => `Anulación solicitada: se descontaron ${formatQuetzales(totalCentavos)} del saldo y se enviará al certificador.`,
  creditNoteRequested: (totalCentavos: number) => `Nota de crédito solicitada: se descontaron ${formatQuetzales(totalCentavos)} del saldo y se enviará al certificador.`,
  alreadyRequested: 'Ya estaba solicitada: el saldo se descontó una sola vez.',
  correctionRequested: (kind: 'void' | 'credit_note', receptor: string) =>
    `Corrección solicitada: se ${kind === 'void' ? 'anulará la factura' : 'emitirá una nota de crédito por su total'} y, en cuanto SAT lo acepte, se emitirá una nueva a ${receptor}. El saldo no cambia.`,
  correctionAlreadyRequested: 'La corrección ya estaba solicitada: se emitirá una sola factura nueva y el saldo no cambia.',
  correctionUnderWay: 'Una corrección del receptor de esta factura está en curso: espere a que SAT la acepte y actúe sobre la factura que la reemplace.',
  replaced: 'Esta factura fue reemplazada por otra al corregir su receptor: anule o acredite la que la reemplaza.',
  correctionAfterReversal: 'No se puede corregir: la factura ya se anuló o tiene una nota de crédito (o una está en curso).',
  receptorUnchanged: 'La factura ya nombra al receptor que la integración tiene registrado: corrija primero sus datos de facturación y vuelva a intentarlo.',
  correctionCfOverLimit: `Los datos de facturación de la integración dicen consumidor final (CF), que SAT no admite desde ${formatQuetzales(CF_LIMIT_CENTAVOS)}: registre su NIT o CUI y vuelva a intentarlo.`,
  correctionReceptorInvalid: 'Los datos de facturación de la integración no sirven para facturar: corríjalos y vuelva a intentarlo.',
} as const;

/** What the console says of a reversal refused (lib/core/billing/invoice-reversals.ts says why). */
export function reversalRefusalText(refusal: ReversalRefusal): string {
  switch (refusal.why) {
    case 'reason_invalid':
      return REVERSAL_MESSAGES.reasonInvalid;
    case 'not_found':
      return REVERSAL_MESSAGES.notFound;
    case 'not_certified':
      return REVERSAL_MESSAGES.notCertified;
    case 'past_deadline':
      return REVERSAL_MESSAGES.pastDeadline(refusal.deadline);
    case 'credit_note_exists':
      return REVERSAL_MESSAGES.creditNoteExists;
    case 'already_voided':
      return REVERSAL_MESSAGES.alreadyVoided;
    case 'replaced':
      return REVERSAL_MESSAGES.replaced;
    case 'correction_under_way':
      return REVERSAL_MESSAGES.correctionUnderWay;
    case 'correction_after_reversal':
      return REVERSAL_MESSAGES.correctionAfterReversal;
    case 'balance_spent':
      return REVERSAL_MESSAGES.balanceSpent(refusal.balanceCentavos, refusal.totalCentavos);
    case 'receptor_unchanged':
      return REVERSAL_MESSAGES.receptorUnchanged;
    case 'cf_over_limit':
      return REVERSAL_MESSAGES.correctionCfOverLimit;
    case 'receptor_invalid':
      return REVERSAL_MESSAGES.correctionReceptorInvalid;
  }
}

/** A reversal's outcome with its refusal in words, as the console's actions and the CLI answer it. */
export function wordedReversal<T>(result: { ok: true; value: T } | { ok: false; error: ReversalRefusal }): Result<T, ReversalError> {
  return result.ok ? result : fail(result.error.code, reversalRefusalText(result.error));
}
