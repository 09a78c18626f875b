// What a watch list watches in an answer (Vigilancia): the fields of the catalog's answer that
// describe a state that changes, and how two of them differ. Decided without I/O.
import type { WatchListChangeKind } from '@/db/schema';

export const WATCH_CATALOGS = ['omisos', 'rtu'] as const;
export type WatchCatalog = (typeof WATCH_CATALOGS)[number];

/**
 * The last known state of one NIT. `registro`: whether the catalog found it (not found is a state
 * too: a NIT that disappears, or appears, is a change). The other fields are null when not found,
 * and when the source does not report them (null never reads as false).
 */
export interface WatchedState {
  registro: 'encontrado' | 'no_encontrado';
  omiso: boolean | null;
  cobro_coactivo: boolean | null;
  estado_rtu: string | null;
}

export interface WatchedChange {
  kind: WatchListChangeKind;
  before: string | boolean | null;
  after: string | boolean | null;
}

function field(value: unknown, ...path: string[]): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return null;
    current = (current as Record<string, unknown>)[key];
  }
  return current ?? null;
}

const bool = (value: unknown) => (typeof value === 'boolean' ? value : null);
const text = (value: unknown) => (typeof value === 'string' ? value : null);

/**
 * The watched state of a found answer (the catalog's `data`). omisos: omiso, coercive collection and
 * the taxpayer's RTU state as that catalog publishes it. rtu: the RTU state of the person (persona's
 * estado); an entity's record is unnormalized (empresa), so its state is not read from it.
 */
export function watchedStateOf(catalog: WatchCatalog, data: unknown): WatchedState {
  if (catalog === 'omisos') {
    return {
      registro: 'encontrado',
      omiso: bool(field(data, 'tieneIncumplimientos')),
      cobro_coactivo: bool(field(data, 'tieneProcesoCoactivo')),
      estado_rtu: text(field(data, 'estadoContribuyente')),
    };
  }
  return { registro: 'encontrado', omiso: null, cobro_coactivo: null, estado_rtu: text(field(data, 'persona', 'estado', 'descripcion')) };
}

export const NOT_FOUND_STATE: WatchedState = { registro: 'no_encontrado', omiso: null, cobro_coactivo: null, estado_rtu: null };

/**
 * What changed from `before` to `after`. A NIT found in one run and not in the other is one change
 * (`registro`) and nothing else: its other fields were not read on one side. Between two found
 * answers, each watched field that differs is a change, also to or from null (not reported).
 */
export function changesBetween(before: WatchedState, after: WatchedState): WatchedChange[] {
  if (before.registro !== after.registro) return [{ kind: 'registro', before: before.registro, after: after.registro }];
  if (after.registro === 'no_encontrado') return [];
  const changes: WatchedChange[] = [];
  for (const kind of ['omiso', 'cobro_coactivo', 'estado_rtu'] as const) {
    if (before[kind] !== after[kind]) changes.push({ kind, before: before[kind], after: after[kind] });
  }
  return changes;
}
