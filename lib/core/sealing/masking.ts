// How identifiers look to someone who may not see them in full (support staff, the masked CSV,
// the access log): enough to tell two records apart on the phone with an integrator, never enough
// to rebuild the identifier. A CUI keeps its first and last four digits (`1587 •••• 0904`), a NIT
// the first part of its number and its check digit (`5769••-K`).

const BULLET = '•';

/** No spaces, hyphens or dots, upper case: "576937-k" and "576 937K" read alike. */
function compact(identifier: string): string {
  return identifier.replace(/[\s.\-]/g, '').toUpperCase();
}

/** A CUI (DPI): 13 digits, shown as its first and last four around a fixed run of bullets. */
export function maskCui(cui: string): string {
  const digits = compact(cui);
  if (!/^\d{13}$/.test(digits)) return maskOther(digits);
  return `${digits.slice(0, 4)} ${BULLET.repeat(4)} ${digits.slice(-4)}`;
}

/**
 * A NIT: its number and check digit (0-9 or K). At most the first four characters of the number
 * stay, and at least two are hidden (a short NIT such as 7108-0 shows `71••-0`).
 */
export function maskNit(nit: string): string {
  const text = compact(nit);
  if (!/^\d{2,12}[\dK]$/.test(text)) return maskOther(text);
  const number = text.slice(0, -1);
  const shown = Math.max(0, Math.min(4, number.length - 2));
  return `${number.slice(0, shown)}${BULLET.repeat(number.length - shown)}-${text.slice(-1)}`;
}

/** Anything else kept where an identifier goes: only its last two characters. */
function maskOther(text: string): string {
  if (text.length <= 2) return BULLET.repeat(text.length);
  return `${BULLET.repeat(Math.min(text.length - 2, 8))}${text.slice(-2)}`;
}

/** The nit column of a record: one NIT, or the NITs of an /rtu/nits batch joined by commas. */
export function maskNitColumn(nit: string | null): string | null {
  if (nit === null) return null;
  return nit
    .split(',')
    .map((part) => (part.trim() === '' ? part : maskNit(part)))
    .join(',');
}

export function maskCuiColumn(cui: string | null): string | null {
  return cui === null ? null : maskCui(cui);
}

/** A searched-for identifier of unknown kind (the access log, the report's title): 13 digits read as a CUI. */
export function maskIdentifier(identifier: string): string {
  return /^\d{13}$/.test(compact(identifier)) ? maskCui(identifier) : maskNit(identifier);
}

/**
 * A free text (a source's error detail) with every spelling of the given identifiers masked, and
 * any run of 13 digits (a CUI written anywhere) too: the source may echo what it was sent.
 */
export function maskIdentifiersInText(text: string, identifiers: Array<string | null>): string {
  let masked = text;
  const known = identifiers
    .flatMap((value) => (value ?? '').split(','))
    .map(compact)
    .filter((value) => value.length >= 3)
    .sort((a, b) => b.length - a.length);
  for (const identifier of known) {
    // Each character, with any spaces, hyphens or dots between: "576937-K", "576 937k", "5769-37K".
    const pattern = new RegExp(identifier.split('').map(escapeRegExp).join('[\\s.\\-]*'), 'gi');
    masked = masked.replace(pattern, (found) => maskIdentifier(found));
  }
  return masked.replace(/(?<!\d)(?:\d[\s\-]?){12}\d(?!\d)/g, (found) => maskCui(found));
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A record's identifiers as the console shows them. */
export interface RecordIdentifiers {
  nit: string | null;
  cui: string | null;
}

/**
 * A record as every console role sees it, administrators included: NIT and CUI
 * masked, and masked inside the source's error detail. "Mostrar" reveals one record's with a
 * reason, logged; a full export asks for a reason too.
 */
export function maskedIdentifiers<T extends RecordIdentifiers & { errorMessage?: string | null }>(record: T): T {
  return {
    ...record,
    nit: maskNitColumn(record.nit),
    cui: maskCuiColumn(record.cui),
    ...(record.errorMessage ? { errorMessage: maskIdentifiersInText(record.errorMessage, [record.nit, record.cui]) } : {}),
  };
}
