// What a ledger entry's note says. People write theirs (a top-up, an adjustment) and the row keeps
// their words; the service writes a code (ledger_entries.note_code) and these are its words, the
// same the rows written before the code hold in `note`.
import type { LedgerEntry, LedgerNoteCode } from '@/db/schema';

export const LEDGER_NOTE_TEXT: Record<LedgerNoteCode, string> = {
  source_not_sent: 'Consulta no enviada: la fuente no está disponible (circuito abierto o sin capacidad).',
  hold_abandoned: 'Consulta no enviada: la base de datos no confirmó la retención y la consulta se detuvo antes de la fuente.',
  hold_swept: 'Retención sin liquidar: el proceso terminó antes de registrar la consulta.',
};

/** An entry's note as people read it: the words written, or the words of its code; null when it has neither. */
export function ledgerNoteText(entry: Pick<LedgerEntry, 'note' | 'noteCode'>): string | null {
  if (entry.note !== null) return entry.note;
  return entry.noteCode === null ? null : LEDGER_NOTE_TEXT[entry.noteCode];
}
