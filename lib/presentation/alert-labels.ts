import type { AlertChannel, AlertCondition, AlertDeliveryStatus } from '@/db/schema';

// The alerts as the console names them.

export const ALERT_CONDITION_LABELS: Record<AlertCondition, string> = {
  balance_low: 'Saldo bajo',
  balance_exhausted: 'Saldo agotado',
  breaker_open: 'Fuente caída (circuito abierto)',
  certifier_credentials_refused: 'Facturas detenidas (credenciales del certificador)',
  books_mismatch: 'Cuentas que no cuadran',
  statement_issued: 'Estado de cuenta emitido',
  token_expiring: 'Token por vencer',
  token_revoked: 'Token revocado',
  token_created: 'Token creado',
  token_rotated: 'Token rotado',
  allow_list_changed: 'Direcciones IP permitidas cambiadas',
  tariff_changed: 'Tarifa cambiada',
  lookups_changed: 'Consultas habilitadas cambiadas',
  top_up_approved: 'Recarga acreditada',
  top_up_rejected: 'Recarga rechazada',
  source_unavailable: 'Fuente no disponible',
  source_recovered: 'Fuente disponible de nuevo',
  bulk_job_finished: 'Lote terminado',
  bulk_job_paused: 'Lote en pausa: sin saldo',
  watch_list_changes: 'Cambios en una vigilancia',
  invoice_issued: 'Factura emitida',
  invoice_awaiting_receptor: 'Factura pendiente: falta el NIT',
  online_top_up_credited: 'Pago en línea acreditado',
  online_top_up_expired: 'Pago en línea no completado',
  auto_top_up_paused: 'Recarga automática en pausa',
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
