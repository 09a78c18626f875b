import type { PersonalDataAccessKind, WatchListChangeKind } from '@/db/schema';
import { WATCH_CHANGE_KIND_LABELS } from '@/lib/flows/watch-lists/labels';
import { SEARCH_REFERENCE_HOURS } from '@/lib/core/personal-data/search-references';

export const ACCESS_KIND_LABELS: Record<PersonalDataAccessKind, string> = {
  reveal: 'Mostró los identificadores',
  view: 'Abrió una consulta (administrador)',
  export: 'Exportó con identificadores completos',
  subject_report: 'Informe «¿Quién consultó?»',
};

const REPORT_FORMATS: Record<string, string> = { page: 'en pantalla', csv: 'CSV', pdf: 'PDF' };

/** An entry's details in a sentence: an export's filters, range and rows; a report's identifier (masked) and format. */
export function describeAccessDetails(kind: PersonalDataAccessKind, details: unknown): string {
  const value = (details ?? {}) as Record<string, unknown>;
  if (kind === 'export' && value.statement) {
    const statement = value.statement as { integration?: string; month?: string };
    return `Consultas cobradas del estado de cuenta ${statement.month ?? ''} de ${statement.integration ?? ''}; ${Number(value.rows ?? 0).toLocaleString('es-GT')} filas`;
  }
  if (typeof value.vigilancia === 'string') {
    // A watch list's changes, revealed one by one or downloaded, from the portal (lib/surfaces/portal/watch-lists.ts, watch-list-download.ts).
    const run = typeof value.ejecucion === 'number' ? `la ejecución ${value.ejecucion}` : 'todas las ejecuciones';
    if (kind === 'reveal') return `Un cambio («${WATCH_CHANGE_KIND_LABELS[value.cambio as WatchListChangeKind] ?? String(value.cambio ?? '')}») de ${run} de la vigilancia ${value.vigilancia}`;
    if (kind === 'export') return `Cambios de ${run} de la vigilancia ${value.vigilancia}; ${typeof value.rows === 'number' ? `${value.rows.toLocaleString('es-GT')} filas` : 'filas: sin terminar'}`;
  }
  if (kind === 'export' && typeof value.lote === 'string') {
    // A bulk job's results downloaded from the portal (lib/surfaces/portal/bulk-download.ts).
    return `Resultados del lote ${value.lote}; ${typeof value.rows === 'number' ? `${value.rows.toLocaleString('es-GT')} filas` : 'filas: sin terminar'}`;
  }
  if (kind === 'export') {
    const range = (value.range ?? {}) as { desde?: string | null; hasta?: string | null };
    const filters = Object.entries((value.filters ?? {}) as Record<string, unknown>).filter(([key]) => key !== 'desde' && key !== 'hasta');
    const parts = [
      `Rango: ${range.desde ?? 'desde el inicio'} a ${range.hasta ?? 'hoy'}`,
      filters.length ? `filtros: ${filters.map(([key, filter]) => `${key} ${String(filter)}`).join(', ')}` : 'sin otros filtros',
      typeof value.rows === 'number' ? `${value.rows.toLocaleString('es-GT')} filas` : 'filas: sin terminar',
    ];
    return parts.join('; ');
  }
  // A bulk job's row revealed in the console (app/admin/(console)/lotes): which job and row.
  if (kind === 'reveal' && typeof value.lote === 'string') return `Fila ${Number(value.posicion).toLocaleString('es-GT')} del lote ${value.lote}`;
  if (kind === 'subject_report') {
    const rows = typeof value.rows === 'number' ? `${value.rows.toLocaleString('es-GT')} consultas` : '';
    return [`Identificador ${String(value.identificador ?? '')}`, REPORT_FORMATS[String(value.format)] ?? '', rows].filter(Boolean).join(', ');
  }
  return '—';
}

/** What a page says when its search's reference no longer opens. */
export const EXPIRED_SEARCH_MESSAGE = `La búsqueda de esta dirección ya no está disponible (dura ${SEARCH_REFERENCE_HOURS} hora y solo para quien la hizo): escriba el NIT o CUI otra vez.`;
