// The product's nouns as people read them in Spanish: the lookups, the sources, what became of a
// query, the balance's movements, why a request was refused or not served. Every rung above names
// them the same way (a CSV, a statement, the console, an alert), so they import nothing of the domain.
import type { InvoiceReversalStanding, RefusalReason, UnservedCause } from '@/db/schema';
import type { SourceName } from '@/lib/sources/guard';

export { LOOKUP_LABELS, LOOKUPS } from './lookups';

/** The upstream sources, as the console and the alerts name them. */
export const SOURCE_LABELS: Record<SourceName, string> = {
  renap: 'Registro de personas (RENAP)',
  rtu: 'Registro tributario (RTU por NIT)',
  catalog: 'Fuente de catálogos (CUI/NIT, RTU, omisos)',
};

/** The classes a query's status falls in (lib/core/records/outcomes.ts: success, client_error, source_error). */
export const OUTCOME_LABELS = {
  success: 'Éxito (200)',
  client_error: 'Rechazadas por la fuente (4xx)',
  source_error: 'Fallas de la fuente (5xx)',
} as const;

/** The balance history's movements (posted entries) as people read them. */
export const HISTORY_KIND_LABELS: Record<'top_up' | 'adjustment' | 'capture' | 'constancia', string> = {
  top_up: 'Recarga',
  adjustment: 'Ajuste',
  capture: 'Consulta cobrada',
  constancia: 'Constancia de consulta',
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

/** What became of a certified invoice, as every reader of it is told: the console, the portal, its PDF and the statement. */
export const REVERSAL_STANDING_LABELS: Record<InvoiceReversalStanding, string> = {
  void_pending: 'Anulación en trámite',
  voided: 'Anulada',
  credit_note_pending: 'Nota de crédito en trámite',
  credited: 'Con nota de crédito',
  correction_pending: 'Corrección del receptor en trámite',
  corrected: 'Corregida: reemplazada por otra factura',
};

/**
 * The balance's movement a void or a credit note of a sale's invoice writes, as its ledger entry
 * names it for good ("Anulación de la factura A1B2C3D4-123: motivo"): the row keeps these words,
 * with the person's reason in them, and every reader of the history shows them as stored.
 */
export function invoiceReversalMovementNote(kind: 'void' | 'credit_note', invoice: string, reason: string): string {
  return `${kind === 'void' ? 'Anulación' : 'Nota de crédito'} de la factura ${invoice}: ${reason}`;
}

/** What a top-up sells, as the one line of its invoice names it (a service, "S"), on the FEL document and its PDF. */
export const TOP_UP_LINE_DESCRIPTION = 'Saldo prepago para consultas de contribuyentes';

/**
 * The reconciliation's checks in the order they run, as a run in progress names its step
 * (ledger_verifications.step_name) and the Panel prints it as stored («paso 2 de 6 (cobros contra
 * registros de consultas)»).
 */
export const VERIFICATION_STEP_LABELS = [
  'saldos contra el libro mayor',
  'cobros contra registros de consultas',
  'registros cobrados más de una vez',
  'reservas sin liquidar',
  'saldos de control por hora',
  'pagos, recargas, facturas y reembolsos',
] as const;

/** A reconciliation run that stopped on an error, as its row keeps it (ledger_verifications.failure) and the Panel prints it. */
export const VERIFICATION_STOPPED_LABEL = 'La verificación se detuvo por un error inesperado (detalles en el registro del servidor).';
