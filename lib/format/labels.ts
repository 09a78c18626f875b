import type { LedgerEntryKind, LookupKind, RefusalReason, UnservedCause } from '@/db/schema';
import { LOOKUP_FLAGS, type FlagName } from '@/lib/integrations/flags';
import { LOOKUP_PATHS } from '@/lib/lookups/paths';
import type { Outcome } from '@/lib/records/outcomes';
import type { SourceName } from '@/lib/sources/guard';

/** The five lookups as the console names them, in the contract's order. */
export const LOOKUP_LABELS: Record<LookupKind, string> = {
  renap: 'RENAP por CUI',
  rtu_nits: 'RTU por NIT',
  cui_nit: 'Catálogo CUI/NIT',
  rtu: 'Catálogo RTU',
  omisos: 'Catálogo omisos',
};

export const LOOKUP_ROUTES = LOOKUP_PATHS;

export const LOOKUPS = Object.keys(LOOKUP_LABELS) as LookupKind[];

export const FLAG_LOOKUP: Record<FlagName, LookupKind> = Object.fromEntries(
  Object.entries(LOOKUP_FLAGS).map(([lookup, flag]) => [flag, lookup]),
) as Record<FlagName, LookupKind>;

export const LEDGER_KIND_LABELS: Record<LedgerEntryKind, string> = {
  top_up: 'Recarga',
  adjustment: 'Ajuste',
  hold: 'Reserva',
  capture: 'Cobro',
  void: 'Reserva liberada',
};

/** The balance history's movements (posted entries) as people read them. */
export const HISTORY_KIND_LABELS: Record<'top_up' | 'adjustment' | 'capture', string> = {
  top_up: 'Recarga',
  adjustment: 'Ajuste',
  capture: 'Consulta cobrada',
};

/** What the reconciliation (ledger:verify) can find, as the console says it. */
export const LEDGER_DIFFERENCE_LABELS: Record<string, string> = {
  balance_differs_from_ledger: 'El saldo no es la suma del libro mayor',
  posted_differs_from_balance: 'Los movimientos no dan el saldo más las reservas en curso',
  capture_without_record: 'Cobros sin su registro de consulta',
  capture_amount_differs: 'Cobros cuyo monto no es el del registro',
  charged_record_without_capture: 'Registros cobrados sin su cobro',
  record_captured_twice: 'Registros cobrados más de una vez',
  stale_hold: 'Reservas sin liquidar más viejas que el barrido',
  checkpoint_differs: 'Saldos por hora que no coinciden con el libro mayor',
};

export const ROLE_LABELS = { admin: 'Administrador', support: 'Soporte' } as const;

/** A console user's state, as the Usuarios page (and users:list) says it. */
export const USER_STATE_LABELS = { active: 'Activo', disabled: 'Desactivado' } as const;

/** A console user's second factor, as the Usuarios page (and users:list) says it. */
export const TWO_FACTOR_LABELS = { enrolled: 'Activada', notEnrolled: 'No activada', enrolsAtSignIn: 'La activará al entrar' } as const;

export const OUTCOME_LABELS: Record<Outcome, string> = {
  success: 'Éxito (200)',
  client_error: 'Rechazadas por la fuente (4xx)',
  source_error: 'Fallas de la fuente (5xx)',
};

/** A refusal's reason in a few words, after its status ("402 sin saldo"), as support says it. */
export const REFUSAL_REASON_SHORT_LABELS: Record<RefusalReason, string> = {
  credentials_missing: 'sin credenciales',
  credentials_invalid: 'credenciales no válidas',
  not_enabled: 'consulta no habilitada',
  rate_limited: 'límite por minuto de la integración',
  ip_rate_limited: 'límite global por IP',
  invalid_request: 'solicitud no válida',
  balance_exhausted: 'sin saldo',
  too_many_nits: 'más de 50 NIT en un lote',
  ip_not_allowed: 'dirección IP fuera de la lista permitida, respondida como credenciales no válidas',
  method_not_allowed: 'método no permitido: las consultas son POST',
};

/** Why a request was refused before reaching a source, with the status the integrator got. */
export const REFUSAL_REASON_LABELS: Record<RefusalReason, string> = {
  credentials_missing: 'Sin credenciales (403)',
  credentials_invalid: 'Credenciales no válidas (401 en catálogos, 403 en RENAP y RTU)',
  not_enabled: 'Consulta no habilitada (403)',
  rate_limited: 'Límite por minuto de la integración (429)',
  ip_rate_limited: 'Límite global por IP (429)',
  invalid_request: 'Solicitud no válida (400)',
  balance_exhausted: 'Sin saldo (402)',
  too_many_nits: 'Más de 50 NIT en un lote (400)',
  ip_not_allowed: 'Dirección IP fuera de la lista permitida (respondida como credenciales no válidas)',
  method_not_allowed: 'Método no permitido: las consultas son POST (405)',
};

/** Why the gateway could not serve a request, in the one sentence support repeats (after its status). */
export const UNSERVED_CAUSE_SHORT_LABELS: Record<UnservedCause, string> = {
  shed: 'servicio saturado',
  key_in_use: 'Idempotency-Key en uso por una solicitud aún en curso',
  credentials_unavailable: 'credenciales no verificables por una falla del servicio',
  source_not_sent: 'fuente fuera de servicio o sin capacidad, no consultada',
  unhandled: 'error interno del servicio',
};

/** The same, said in full under that sentence. */
export const UNSERVED_CAUSE_LABELS: Record<UnservedCause, string> = {
  shed: 'la instancia tenía su cola de consultas llena y la respondió al momento, sin consultar ninguna fuente',
  key_in_use: 'otra solicitud con la misma Idempotency-Key seguía en curso cuando esta dejó de esperarla; no consultó ninguna fuente',
  credentials_unavailable: 'la instancia no tenía una copia vigente de las credenciales, por una falla de su base de datos; no consultó ninguna fuente',
  source_not_sent: 'la fuente estaba fuera de servicio (circuito abierto) o sin capacidad, y no se le envió la consulta',
  unhandled: 'falló por un error interno antes de registrar la consulta; el registro de la aplicación tiene el error con este id',
};

export const AUDIT_ACTION_LABELS: Record<string, string> = {
  'integration.create': 'Creó la integración',
  'integration.set_flags': 'Cambió las consultas habilitadas',
  'integration.set_tariff': 'Cambió la tarifa',
  'integration.set_low_balance_alert': 'Cambió el umbral de saldo bajo',
  'integration.set_allowed_networks': 'Cambió las direcciones IP permitidas',
  'integration.set_purpose': 'Cambió la finalidad declarada',
  'integration.set_details': 'Cambió los datos de la integración',
  'integration.set_notification_webhook': 'Configuró el webhook de avisos (nuevo secreto)',
  'integration.remove_notification_webhook': 'Quitó el webhook de avisos',
  'integration.set_notification_opt_outs': 'Cambió los avisos que recibe cada contacto',
  'integration.send_test_notification': 'Envió un aviso de prueba al webhook de avisos',
  'integration.resend_notification': 'Reenvió un aviso al webhook de avisos (mismo id)',
  'alerts.send_test': 'Envió un aviso de prueba a los canales de alerta',
  'token.create': 'Creó un token',
  'token.revoke': 'Revocó un token',
  'integration.deactivate': 'Desactivó la integración',
  'integration.reactivate': 'Reactivó la integración',
  'integration.rotate_token': 'Rotó el token',
  'balance.top_up': 'Recargó saldo',
  'balance.adjust': 'Ajustó saldo',
  'top_up_request.report': 'Reportó un depósito para recargar (pendiente de revisión)',
  'top_up_request.approve': 'Aprobó un depósito reportado (la recarga entró al saldo)',
  'top_up_request.reject': 'Rechazó un depósito reportado',
  'bulk_job.pause': 'Pausó un lote',
  'bulk_job.resume': 'Reanudó un lote',
  'bulk_job.cancel': 'Canceló un lote',
  'watch_list.create': 'Creó una vigilancia',
  'watch_list.pause': 'Pausó una vigilancia',
  'watch_list.resume': 'Reanudó una vigilancia',
  'watch_list.delete': 'Eliminó una vigilancia',
  'user.create': 'Creó el usuario',
  'user.set_role': 'Cambió el rol',
  'user.deactivate': 'Desactivó el usuario',
  'user.reactivate': 'Reactivó el usuario',
  'user.reset_password': 'Restableció la contraseña',
  'user.change_password': 'Cambió su contraseña',
  'user.change_password_failed': 'Intentó cambiar su contraseña con una actual incorrecta',
  'user.change_password_locked': 'Bloqueo del cambio de contraseña por intentos fallidos',
  'user.sign_in': 'Inició sesión',
  'user.sign_in_failed': 'Inicio de sesión fallido',
  'user.sign_in_locked': 'Bloqueo del inicio de sesión por intentos fallidos',
  'user.end_session': 'Cerró una de sus sesiones',
  'user.end_all_sessions': 'Cerró todas las sesiones del usuario',
  'user.sign_in_second_factor': 'Confirmó el inicio de sesión con el segundo factor',
  'user.second_factor_failed': 'Escribió un código de verificación incorrecto',
  'user.second_factor_locked': 'Bloqueo de los códigos de verificación por intentos fallidos',
  'user.enable_two_factor': 'Activó la verificación en dos pasos',
  'user.regenerate_recovery_codes': 'Generó nuevos códigos de recuperación',
  'user.disable_two_factor': 'Desactivó su verificación en dos pasos',
  'user.reset_two_factor': 'Restableció la verificación en dos pasos del usuario',
  'ledger.verify': 'Inició la conciliación del libro mayor',
  'portal.invite': 'Invitó a una persona al portal',
  'portal.invite_link_handed_over': 'Creó una invitación al portal y entregó el enlace sin correo (con motivo)',
  'portal.invite_not_sent': 'No se pudo enviar una invitación al portal (quedó sin efecto)',
  'portal.cancel_invitation': 'Canceló una invitación al portal',
  'portal.resend_invitation': 'Reenvió una invitación al portal (enlace nuevo; el anterior dejó de servir)',
  'portal.revoke_invitations': 'Anuló las invitaciones pendientes de quien dejó de ser propietario',
  'portal_user.accept_invitation': 'Aceptó la invitación al portal',
  'portal_user.set_role': 'Cambió el rol en el portal',
  'portal_user.remove': 'Quitó a la persona del portal',
  'portal_user.sign_in': 'Inició sesión en el portal',
  'portal_user.sign_in_failed': 'Inicio de sesión fallido en el portal',
  'portal_user.sign_in_locked': 'Bloqueo del inicio de sesión en el portal por intentos fallidos',
  'portal_user.sign_in_second_factor': 'Confirmó el inicio de sesión en el portal con el segundo factor',
  'portal_user.second_factor_failed': 'Escribió un código de verificación incorrecto en el portal',
  'portal_user.second_factor_locked': 'Bloqueo de los códigos de verificación del portal por intentos fallidos',
  'portal_user.enable_two_factor': 'Activó la verificación en dos pasos del portal',
  'portal_user.regenerate_recovery_codes': 'Generó nuevos códigos de recuperación del portal',
  'portal_user.disable_two_factor': 'Desactivó su verificación en dos pasos del portal',
  'portal_user.reset_two_factor': 'Restableció la verificación en dos pasos del portal',
  'portal_user.change_password': 'Cambió su contraseña del portal',
  'portal_user.change_password_failed': 'Intentó cambiar su contraseña del portal con una actual incorrecta',
  'portal_user.change_password_locked': 'Bloqueo del cambio de contraseña del portal por intentos fallidos',
  'portal_user.request_password_reset': 'Se pidió un enlace para restablecer la contraseña del portal',
  'portal_user.reset_link_handed_over': 'Entregó sin correo un enlace para restablecer la contraseña del portal (con motivo)',
  'portal_user.reset_password': 'Restableció su contraseña del portal con el enlace del correo',
  'portal_user.end_session': 'Cerró una de sus sesiones del portal',
};

/** The upstream sources, as the console and the alerts name them. */
export const SOURCE_LABELS: Record<SourceName, string> = {
  renap: 'Registro de personas (RENAP)',
  rtu: 'Registro tributario (RTU por NIT)',
  catalog: 'Fuente de catálogos (CUI/NIT, RTU, omisos)',
};
