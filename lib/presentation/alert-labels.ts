import type { AlertChannel, AlertDeliveryStatus, NonNoticeCondition } from '@/db/schema';

// The alerts as the console names them. A condition that is an integrator's notice kind is named by
// its kind (lib/reactions/integrator-notifications/kinds, conditionLabel there names every condition).

/** The conditions that are no notice kind: the administrators' alerts, a user's, the test notice. */
export const NON_NOTICE_CONDITION_LABELS: Record<NonNoticeCondition, string> = {
  breaker_open: 'Fuente caída (circuito abierto)',
  certifier_credentials_refused: 'Facturas detenidas (credenciales del certificador)',
  books_mismatch: 'Cuentas que no cuadran',
  account_under_attack: 'Intentos fallidos en una cuenta de la consola',
  test: 'Aviso de prueba',
};

export const ALERT_CHANNEL_LABELS: Record<AlertChannel, string> = {
  webhook: 'Webhook',
  email: 'Correo',
};

export const ALERT_STATUS_LABELS: Record<AlertDeliveryStatus, string> = {
  pending: 'Pendiente',
  sent: 'Enviada',
  failed: 'Fallida',
  not_sent: 'No enviado',
};

export const ALERT_STATUS_TONES: Record<AlertDeliveryStatus, string> = {
  pending: 'warn',
  sent: 'ok',
  failed: 'danger',
  not_sent: 'neutral',
};
