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

/** The badge's class: a pause waits for someone (a top-up, an administrator), cancelled is over; running is plain. */
export const JOB_STATE_TONES: Record<BulkJobState, '' | 'ok' | 'warn' | 'off'> = {
  en_curso: '',
  en_pausa_sin_saldo: 'warn',
  en_pausa: 'warn',
  completado: 'ok',
  cancelado: 'off',
};

export const ITEM_STATUS_LABELS: Record<BulkItemStatus | 'cancelado', string> = {
  pendiente: 'Pendiente',
  encontrado: 'Encontrado',
  no_encontrado: 'No encontrado',
  invalido: 'Apartado',
  error_fuente: 'Falló la fuente',
  cancelado: 'No corrió (lote cancelado)',
};

const REASON_LABELS: Record<string, string> = {
  nit_invalido: 'NIT inválido',
  cui_invalido: 'CUI inválido',
  duplicado: 'Repetido en la lista',
  rechazado_por_la_fuente: 'La fuente rechazó el dato',
  rechazado_por_la_pasarela: 'La pasarela rechazó el dato',
};

/** Why a row was set aside or failed; a source's failure keeps its name (lib/sources), as the results do. */
export function itemReasonLabel(reason: string | null): string {
  if (reason === null) return '—';
  return REASON_LABELS[reason] ?? reason;
}
