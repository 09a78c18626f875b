// A job's and a row's states in the console's and the portal's words (Spanish, STYLE.md), beside
// the API's names (en_curso, en_pausa_sin_saldo…), which are for machines.
import type { BulkItemStatus, BulkJobState } from '@/db/schema';

export const JOB_STATE_LABELS: Record<BulkJobState, string> = {
  en_curso: 'En curso',
  en_pausa_sin_saldo: 'En pausa: sin saldo',
  en_pausa: 'Pausado por la administración',
  completado: 'Completado',
  cancelado: 'Cancelado',
};

/** A state read as text (a watch list's last run): its label, or the name itself for one this version does not know. */
export function jobStateLabel(state: string): string {
  return (JOB_STATE_LABELS as Record<string, string>)[state] ?? state;
}

/** The badge's class: a pause waits for someone (a top-up, an administrator), cancelled is over; running is plain. */
export const JOB_STATE_TONES: Record<BulkJobState, '' | 'ok' | 'warn' | 'off'> = {
  en_curso: '',
  en_pausa_sin_saldo: 'warn',
  en_pausa: 'warn',
  completado: 'ok',
  cancelado: 'off',
};

/** A job that will not change any more: its pages stop asking for fresh figures. */
export function jobHasEnded(state: BulkJobState): boolean {
  return state === 'completado' || state === 'cancelado';
}

/** A row's reason when the source refused it when asked (a date of birth the RTU needs): counted apart, never charged. */
export const SOURCE_REJECTED = 'rechazado_por_la_fuente';

export const ITEM_STATUS_LABELS: Record<BulkItemStatus | 'cancelado', string> = {
  pendiente: 'Pendiente',
  encontrado: 'Encontrado',
  no_encontrado: 'No encontrado',
  invalido: 'Apartado',
  error_fuente: 'Falló la fuente',
  cancelado: 'No corrió (lote cancelado)',
};

/** A row the source refused when asked: it ran, so it is not "Apartado" (set aside before running). */
export function itemStatusLabel(status: BulkItemStatus | 'cancelado', reason: string | null): string {
  return status === 'invalido' && reason === SOURCE_REJECTED ? 'Rechazado por la fuente' : ITEM_STATUS_LABELS[status];
}

const REASON_LABELS: Record<string, string> = {
  nit_invalido: 'NIT inválido',
  cui_invalido: 'CUI inválido',
  duplicado: 'Repetido en la lista',
  [SOURCE_REJECTED]: 'La fuente no aceptó el identificador (por ejemplo, el RTU de esa persona pide su fecha de nacimiento); sin costo',
  rechazado_por_la_pasarela: 'La pasarela rechazó el dato',
  // A source's failures (lib/sources/outcomes.ts), as the results name them.
  auth_rejected: 'La fuente no aceptó las credenciales de la pasarela',
  balance_exhausted: 'La cuenta de la pasarela en la fuente se quedó sin saldo',
  query_type_denied: 'La fuente no permite esta consulta',
  rate_limited: 'La fuente limitó las consultas',
  unavailable: 'La fuente no respondió o respondió con un error',
  error_interno: 'Error interno de la pasarela',
};

/** Why a row was set aside, refused or failed, in words; a reason this version does not know keeps its name. */
export function itemReasonLabel(reason: string | null): string {
  if (reason === null) return '—';
  return REASON_LABELS[reason] ?? reason;
}

/** An administrator's pause reason: one sentence for the integrator (the console's form and action). */
export const PAUSE_REASON_MAX_LENGTH = 200;

/**
 * Why a job is not running, in a sentence for the integrator (GET /api/lotes/{id}'s motivo_estado,
 * the portal's job page); null while it runs or once it ended.
 */
export function jobStateReason(job: { state: BulkJobState; pauseReason: string | null }): string | null {
  if (job.state === 'en_pausa') {
    const why = job.pauseReason ? ` Motivo: ${job.pauseReason}` : '';
    return `La administración de la pasarela pausó el lote: no corre ninguna fila hasta que lo reanude.${why}`;
  }
  if (job.state === 'en_pausa_sin_saldo') return 'El saldo no cubre una consulta más: el lote sigue solo cuando se acredite una recarga.';
  return null;
}
