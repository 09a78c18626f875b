import type { BulkJobState } from '@/db/schema';

// A job's state as people read it (the portal's and the console's words, STYLE.md): the API's
// values (en_curso, en_pausa_sin_saldo…) are for machines.
export const BULK_JOB_STATE_LABELS: Record<BulkJobState, string> = {
  en_curso: 'En curso',
  en_pausa_sin_saldo: 'En pausa: sin saldo',
  completado: 'Completado',
  cancelado: 'Cancelado',
};

/** The badge's class: a pause needs a top-up, cancelled is over; running is plain. */
export const BULK_JOB_STATE_TONES: Record<BulkJobState, '' | 'ok' | 'warn' | 'off'> = {
  en_curso: '',
  en_pausa_sin_saldo: 'warn',
  completado: 'ok',
  cancelado: 'off',
};
