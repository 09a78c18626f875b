// What people are told about top-up requests, in one module for the code and the tests (the e2e
// specs too: no server-only imports here).

export const TOP_UP_MESSAGES = {
  forbidden: 'Tu rol no permite reportar depósitos: lo hace un propietario o una persona de facturación.',
  bank: 'Elige el banco donde depositaste o transferiste.',
  reference: 'Escribe el número de referencia de la boleta o de la transferencia (letras y números, hasta 40).',
  date: 'Escribe la fecha del depósito (no puede ser una fecha futura).',
  duplicate: 'Ya reportaron un depósito con ese banco y esa referencia: está pendiente de revisión o ya fue acreditado. Si es otro depósito, revisa la referencia.',
  notFound: 'No existe esa solicitud de recarga.',
  decided: 'Esa solicitud de recarga ya fue resuelta.',
  reason: 'Escribe el motivo del rechazo (al menos 5 caracteres): la integración lo leerá.',
} as const;
