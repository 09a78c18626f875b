// Total readers for values of a parsed source payload. Each takes `unknown` (anything JSON.parse
// can produce, hostile or not) and returns a contract-typed value; none throws. "Not reported"
// and "not recognizable" both become null, because the contract cannot tell them apart either.

import type { CodigoDescripcion, OpaqueJson } from '../contract/catalog';

export type SourceObject = Record<string, unknown>;

/** A JSON object (not an array, not null), or null. */
export function asObject(value: unknown): SourceObject | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as SourceObject) : null;
}

/**
 * An own property of a source object. Own only: a payload must not reach inherited members such
 * as `constructor` or `__proto__` by naming them.
 */
export function member(object: SourceObject | null, key: string): unknown {
  return object !== null && Object.hasOwn(object, key) ? object[key] : undefined;
}

/** A list as published, or [] when the source did not send a list. */
export function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** Text as published; blank text carries nothing, so it is null. */
export function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

/**
 * An identifier or code that belongs in a text field (NIT, CUI, DPI version, CIIU, phone).
 * Sources publish some of them as JSON numbers; an integer keeps its digits as text.
 */
export function identifierText(value: unknown): string | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? String(value) : null;
  return text(value);
}

/** A number field: a finite JSON number, or an integer written as text ("012" -> 12). */
export function numericCode(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && /^\s*-?\d{1,15}\s*$/.test(value)) return Number(value);
  return null;
}

const TRUE_FLAGS = new Set(['S', 'SI', 'SÍ', 'Y', 'YES', 'TRUE', '1', 'V', 'VERDADERO']);
const FALSE_FLAGS = new Set(['N', 'NO', 'FALSE', '0', 'F', 'FALSO']);

/**
 * A yes/no flag as any of the source's spellings (true/false, S/N, SI/NO, 1/0). Anything else is
 * null: null is not false, so an unrecognized value must not become a "no".
 */
export function flag(value: unknown): boolean | null {
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === 0) return value === 1;
  if (typeof value !== 'string') return null;
  const normalized = value.trim().toUpperCase();
  if (TRUE_FLAGS.has(normalized)) return true;
  if (FALSE_FLAGS.has(normalized)) return false;
  return null;
}

/**
 * A catalog value published as `{cod, des}`. The code keeps its JSON type (number or string, with
 * its leading zeros); both fields are null when the source did not report the value.
 */
export function codigoDescripcion(value: unknown): CodigoDescripcion {
  const object = asObject(value);
  const code = member(object, 'cod');
  return {
    codigo: (typeof code === 'number' && Number.isFinite(code)) || (typeof code === 'string' && code.trim() !== '') ? (code as number | string) : null,
    descripcion: text(member(object, 'des')),
  };
}

export const EMPTY_CODIGO_DESCRIPCION: CodigoDescripcion = Object.freeze({ codigo: null, descripcion: null }) as CodigoDescripcion;

const DAY_MONTH_YEAR = /^\s*(\d{1,2})\/(\d{1,2})\/(\d{4})\s*$/;
const YEAR_MONTH_DAY = /^\s*(\d{4})-(\d{2})-(\d{2})(?:[T ].*)?$/;

/**
 * The one date the contract normalizes (fechaNacimiento): dd/mm/yyyy as the source publishes it,
 * or an ISO date (time part ignored), to YYYY-MM-DD. Anything that is not a real calendar day is
 * null rather than a malformed value in a `format: date` field.
 */
export function birthDate(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const dayFirst = DAY_MONTH_YEAR.exec(value);
  const yearFirst = dayFirst === null ? YEAR_MONTH_DAY.exec(value) : null;
  const parts = dayFirst !== null ? [dayFirst[3], dayFirst[2], dayFirst[1]] : yearFirst !== null ? [yearFirst[1], yearFirst[2], yearFirst[3]] : null;
  if (parts === null) return null;
  const [year, month, day] = parts.map(Number) as [number, number, number];
  if (year < 1800 || month < 1 || month > 12 || day < 1) return null;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day > daysInMonth) return null;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** A date the contract passes through: the source's text, untouched; non-text is null. */
export function publishedDate(value: unknown): string | null {
  return text(value);
}

/** Deeper than this, an opaque value is cut (null): no real record nests so far, and a payload that
 * does must not exhaust the stack of whoever serializes or validates it later. */
export const MAX_OPAQUE_DEPTH = 32;

/**
 * An unnormalized value passed through as the source publishes it (empresa, representantes,
 * establecimientos), as plain JSON (copied only when it is not already): a number JSON cannot
 * carry (1e400 parses to Infinity) becomes null, as JSON.stringify would write it, and keys such
 * as `__proto__` stay ordinary own keys (Object.fromEntries defines them, it does not assign them).
 */
export function opaqueJson(value: unknown, depth = 0): OpaqueJson {
  // What JSON.parse gave (the sources' answers) is plain JSON already, unless a number overflowed
  // or it nests past the cut, and is passed on as it is, not copied (a catalog answer's lists are
  // most of its size, and each copy was garbage the instance collected again).
  return isPlainJson(value, depth) ? value : copiedJson(value, depth);
}

/**
 * Whether `value` is already what copiedJson would make of it, as JSON.stringify writes it: JSON's
 * own kinds, finite numbers, dense arrays and objects with Object's prototype (as JSON.parse makes
 * them) whose own enumerable values are so too, no deeper than the cut. Allocates nothing.
 */
function isPlainJson(value: unknown, depth: number): value is OpaqueJson {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (typeof value !== 'object' || depth >= MAX_OPAQUE_DEPTH) return false;
  if (Array.isArray(value)) {
    // A hole ([1, , 2]) is copied as a hole; it is not JSON.parse's.
    for (let index = 0; index < value.length; index++) if (!(index in value) || !isPlainJson(value[index], depth + 1)) return false;
    return true;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return false;
  for (const key in value) {
    if (!Object.hasOwn(value, key) || !isPlainJson((value as Record<string, unknown>)[key], depth + 1)) return false;
  }
  return true;
}

/** The whole value copied as plain JSON (each part once: a value that is not plain is copied whole). */
function copiedJson(value: unknown, depth: number): OpaqueJson {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (depth >= MAX_OPAQUE_DEPTH) return null;
  if (Array.isArray(value)) return value.map((entry) => copiedJson(entry, depth + 1));
  if (typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, copiedJson(entry, depth + 1)]));
  }
  return null;
}

/** A JSON object passed through opaquely (empresa), or null when the source sent no object. */
export function opaqueObject(value: unknown): Record<string, OpaqueJson> | null {
  const object = asObject(value);
  return object === null ? null : (opaqueJson(object) as Record<string, OpaqueJson>);
}

/** A list passed through opaquely (representantes, establecimientos); [] when not a list. */
export function opaqueList(value: unknown): OpaqueJson[] {
  return list(value).map((entry) => opaqueJson(entry, 1));
}
