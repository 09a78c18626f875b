// A job's and a row's states in the console's words (Spanish), beside the API's names.
import type { BulkItemStatus, BulkJobState } from '@/db/schema';

export const JOB_STATE_LABELS: Record<BulkJobState, string> = {
  en_curso: 'En curso',
  en_pausa_sin_saldo: 'En pausa: sin saldo',
  en_pausa: 'Pausado por la administración',
  completado: 'Completado',
  cancelado: 'Cancelado',
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
