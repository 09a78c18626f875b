// A watch list's schedule, state and changes in the portal's words (Spanish, STYLE.md), beside the
// API's names (mensual, en_pausa, cobro_coactivo…), which are for machines.
import type { WatchListChangeKind } from '@/db/schema';
import type { WatchListState } from './lists';
import type { WatchSchedule } from './schedule';

export const WATCH_SCHEDULE_LABELS: Record<WatchSchedule, string> = {
  mensual: 'Mensual',
  semanal: 'Semanal',
};

export const WATCH_STATE_LABELS: Record<WatchListState, string> = {
  activa: 'Activa',
  en_pausa: 'En pausa',
};

export const WATCH_STATE_TONES: Record<WatchListState, '' | 'ok' | 'warn'> = {
  activa: 'ok',
  en_pausa: 'warn',
};

/** Every kind of change, in the order a run lists them (registro first, as lib/flows/watch-lists/changes.ts sorts). */
export const WATCH_CHANGE_KINDS = ['registro', 'omiso', 'cobro_coactivo', 'estado_rtu'] as const satisfies readonly WatchListChangeKind[];

export const WATCH_CHANGE_KIND_LABELS: Record<WatchListChangeKind, string> = {
  omiso: 'Omiso',
  cobro_coactivo: 'Cobro coactivo',
  estado_rtu: 'Estado en el RTU',
  registro: 'En el catálogo',
};

/** A watched value in words: sí/no for the flags, found or not for registro, the RTU's own state as it reads. */
export function watchedValueLabel(kind: WatchListChangeKind, value: string | boolean | null): string {
  if (value === null) return 'sin dato';
  if (typeof value === 'boolean') return value ? 'sí' : 'no';
  if (kind === 'registro') return value === 'encontrado' ? 'encontrado' : 'no encontrado';
  return value;
}

/** "Omiso: no → sí". */
export function describeWatchedChange(change: { kind: WatchListChangeKind; before: string | boolean | null; after: string | boolean | null }): string {
  return `${WATCH_CHANGE_KIND_LABELS[change.kind]}: ${watchedValueLabel(change.kind, change.before)} → ${watchedValueLabel(change.kind, change.after)}`;
}
