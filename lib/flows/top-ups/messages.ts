// What people are told about top-up requests, in one module for the code and the tests (the e2e
// specs too: no server-only imports here).

export const TOP_UP_MESSAGES = {
  forbidden: 'Su rol no permite reportar depósitos: lo hace un propietario o una persona de facturación.',
  bank: 'Elija el banco donde depositó o transfirió.',
  reference: 'Escriba el número de referencia de la boleta o de la transferencia: hasta 40 letras y números, con los espacios, guiones, puntos o barras que lleve.',
  date: 'Escriba la fecha del depósito (no puede ser una fecha futura).',
  duplicate: 'Ya reportaron un depósito con ese banco y esa referencia (se comparan sus letras y números, sin espacios ni signos): está pendiente de revisión o ya fue acreditado. Si es otro depósito, revise la referencia.',
  notFound: 'No existe esa solicitud de recarga.',
  decided: 'Esa solicitud de recarga ya fue resuelta.',
  reason: 'Escriba el motivo del rechazo (al menos 5 caracteres): la integración lo leerá.',
  approvalNote: 'Escriba una nota de 5 a 300 caracteres: la integración la leerá junto al monto acreditado.',
  approvalNoteRequired: 'Para acreditar un monto distinto del reportado, escriba una nota que explique la diferencia (al menos 5 caracteres): la integración la leerá.',
  notPending: 'Esa solicitud ya no está pendiente (fue acreditada, rechazada o cancelada): ya no se puede cancelar.',
  notYours: 'Solo quien reportó el depósito o un propietario de la integración puede cancelarlo.',
  receptorMissing:
    'Su integración no tiene NIT ni CUI registrado y SAT no permite facturar este monto a consumidor final: el depósito se acreditará igual, pero su factura quedará pendiente hasta que registre el NIT en «Datos de facturación».',
} as const;

/** The longest note of an approval: it goes on the ledger entry after the deposit's own words (500 in all). */
export const APPROVAL_NOTE_MAX_LENGTH = 300;

/** A deposit older than the window (TOP_UP_DEPOSIT_MAX_AGE_DAYS); `earliest` is YYYY-MM-DD, the first day taken. */
export function depositTooOldMessage(earliest: string, maxAgeDays: number): string {
  return `La fecha del depósito no puede ser anterior al ${earliest.split('-').reverse().join('/')}: se reportan depósitos de los últimos ${maxAgeDays} días. Para uno más antiguo, escriba a soporte.`;
}
